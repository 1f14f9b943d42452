import { parseUnits } from 'ethers'

/** Token decimals used across the app (docs/product.md §9). */
export const TOKEN_DECIMALS = 18

/**
 * A decimal text as en-US writes it: a comma between each group of three whole digits and `fractionDigits` decimals,
 * the rest cut off (towards zero, as Intl's `roundingMode: 'trunc'` does; src/format/units.test.ts holds the two equal
 * over random amounts). Done on the text, not with Intl: the page's first Intl formatter loads the browser's locale
 * tables, 16-30 ms here and four times that on a phone, in the task that shows the first figures.
 */
function groupDecimal(text: string, fractionDigits: number): string {
  const negative = text.startsWith('-')
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',')
  const decimals = fractionDigits > 0 ? `.${fraction.slice(0, fractionDigits).padEnd(fractionDigits, '0')}` : ''
  return `${negative ? '-' : ''}${grouped}${decimals}`
}

/**
 * Base units as a decimal text with every digit, as ethers' formatUnits writes it ('1000.000000000000000001', '30.0',
 * '-1.5'; src/format/units.test.ts holds the two equal over random amounts). formatUnits goes through ethers'
 * FixedNumber, whose range checks made it the largest cost of the staking page's statistics (52 ms of one task on a 4x
 * throttled CPU, four amounts a day of history); this is the same text from the digits.
 */
function unitsText(value: bigint, decimals: number): string {
  if (decimals === 0) return value.toString()
  const digits = (value < 0n ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${value < 0n ? '-' : ''}${whole}.${fraction || '0'}`
}

/** A whole number for people, en-US: 1,234,567 (a count, a block number). */
export function formatCount(n: number): string {
  return groupDecimal(String(Math.trunc(n)), 0)
}

/**
 * What the app shows where it has no figure: one it could not read (never 0.00 in its place, docs/product.md §8), or
 * one that does not apply (a pool without an APR).
 */
export const NO_FIGURE = '—'

export interface AmountFormat {
  /** Decimals of the base units: the token's, 18, unless told. */
  decimals?: number
  /** Decimals shown, rounded down: 2 unless told. Not used with `exact`. */
  fractionDigits?: number
  /** Put after the figure with a space when not empty: 'PLT' gives '10.00 PLT'. */
  symbol?: string
  /** Shown alone, without the symbol, when the amount is unknown (null or undefined): NO_FIGURE ('—') unless told. */
  placeholder?: string
  /**
   * Every digit and no thousands separators, as ethers' formatUnits writes it ('1000.000000000000000001', '30.0'),
   * for what a program reads (the CSV export, docs/product.md §6.1), not for the screen.
   */
  exact?: boolean
}

/**
 * The one amount formatter (docs/product.md §6.1). A base-unit amount (decimal string or bigint, negative too) becomes
 * a figure with thousands separators and `fractionDigits` decimals, rounded down (towards zero) so a figure is never
 * shown larger than it is, then the symbol if one is given; an unknown amount becomes the placeholder.
 */
export function formatAmount(baseUnits: string | bigint | null | undefined, options: AmountFormat = {}): string {
  const { decimals = TOKEN_DECIMALS, fractionDigits = 2, symbol = '', placeholder = NO_FIGURE, exact = false } = options
  if (baseUnits === null || baseUnits === undefined) return placeholder
  const text = unitsText(BigInt(baseUnits), decimals)
  const figure = exact ? text : groupDecimal(text, fractionDigits)
  return symbol ? `${figure} ${symbol}` : figure
}

let COMPACT: Intl.NumberFormat | null = null

/**
 * A chart axis label in whole tokens, short: 120K, 1.5M. Only for axes, whose ticks are round numbers; a figure a
 * person reads as an amount goes through formatAmount.
 */
export function formatCompact(tokens: number): string {
  COMPACT ??= new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
  return COMPACT.format(tokens)
}

/**
 * Formats a 1e18-scaled percentage (10e18 = 10%) with `fractionDigits` decimals, rounded down, without the sign.
 */
export function formatPercent(scaled: string | bigint, fractionDigits = 2): string {
  return formatAmount(scaled, { decimals: 18, fractionDigits })
}

/** Why a typed amount is not one (docs/product.md §4.1 names 'required'; the rest say what to change in the text). */
export type AmountProblem =
  | 'required'
  | 'spaces'
  | 'negative'
  | 'plus'
  | 'exponent'
  | 'comma'
  | 'grouping'
  | 'points'
  | 'characters'
  | 'noDigits'
  | 'decimals'
  | 'tooLarge'

/** What an amount field's text means: base units (decimal string), or the first problem with its message. */
export type AmountReading = { ok: true; baseUnits: string } | { ok: false; problem: AmountProblem; message: string }

/** The largest amount an ERC-20 can hold (uint256); anything above it is a typo, not a balance to compare. */
const MAX_BASE_UNITS = 2n ** 256n - 1n

const refuse = (problem: AmountProblem, message: string): AmountReading => ({ ok: false, problem, message })

/**
 * The mark between whole units and decimals that a person types: a point, or a comma where their locale writes one
 * (platform/locale.ts).
 */
export type DecimalSeparator = '.' | ','

/** A point followed by groups of exactly three digits, and nothing else: 1.000 or 12.500.000, a thousands grouping. */
const LOOKS_GROUPED = /^\d{1,3}(\.\d{3})+$/

/**
 * Reads what a person typed or pasted in an amount field, without changing it: a plain decimal (digits, at most one
 * decimal mark, at most `decimals` places) becomes base units with ethers' parseUnits; anything else names what is
 * wrong, checked in a fixed order so one text always gets the same message.
 *
 * `separator` is the person's locale's (decimalSeparatorOf). With ',' both 10,5 and 10.5 mean ten and a half (a point
 * is what MAX writes elsewhere, explorers show and people paste), but a text that holds both marks, or whose point only
 * splits groups of three digits (1.000: a thousand to the person who wrote it, one to parseUnits), is refused rather
 * than guessed at: an amount is money.
 */
export function readAmountInput(text: string, decimals = TOKEN_DECIMALS, separator: DecimalSeparator = '.'): AmountReading {
  if (text.trim() === '') return refuse('required', 'Amount is required')
  if (/\s/.test(text)) return refuse('spaces', 'Amount cannot contain spaces')
  if (text.startsWith('-')) return refuse('negative', 'Amount cannot be negative')
  if (text.startsWith('+')) return refuse('plus', 'Amount cannot have a + sign')
  if ((separator === ',' ? /^(\d+[.,]?\d*|[.,]\d+)e[+-]?\d*$/i : /^(\d+\.?\d*|\.\d+)e[+-]?\d*$/i).test(text))
    return refuse('exponent', 'Amount must be written out in full, without an exponent (e)')
  if (separator === '.' && text.includes(','))
    return refuse('comma', 'Amount cannot contain commas: use a point (.) for decimals')
  if (separator === ',') {
    if (text.includes(',') && text.includes('.'))
      return refuse(
        'grouping',
        'Amount cannot contain thousands separators: write 1234,5 for one thousand two hundred thirty-four and a half',
      )
    if (LOOKS_GROUPED.test(text))
      return refuse(
        'grouping',
        `Amount "${text}" could be read as thousands: write it without a point, or with a comma (,) for decimals`,
      )
  }
  const plain = separator === ',' ? text.replaceAll(',', '.') : text
  if (!/^[\d.]*$/.test(plain))
    return refuse('characters', `Amount can contain only digits and a decimal ${separator === ',' ? 'comma' : 'point'}`)
  const [whole, fraction = '', ...more] = plain.split('.')
  if (more.length > 0) return refuse('points', `Amount can have only one decimal ${separator === ',' ? 'comma' : 'point'}`)
  if (whole === '' && fraction === '') return refuse('noDigits', 'Amount must contain digits')
  if (fraction.length > decimals) return refuse('decimals', `Amount can have at most ${decimals} decimal places`)
  // Length first: parseUnits overflows (throws) far above uint256, and a 100,000-digit paste should not be parsed.
  const significant = whole.replace(/^0+/, '').length
  const baseUnits = significant > 78 ? null : parseUnits(plain, decimals)
  if (baseUnits === null || baseUnits > MAX_BASE_UNITS) return refuse('tooLarge', 'Amount is too large')
  return { ok: true, baseUnits: baseUnits.toString() }
}

/** Base units (decimal string) of a typed amount, or null when readAmountInput refuses it. */
export function parseAmountInput(text: string, decimals = TOKEN_DECIMALS, separator: DecimalSeparator = '.'): string | null {
  const reading = readAmountInput(text, decimals, separator)
  return reading.ok ? reading.baseUnits : null
}

/**
 * The exact decimal text of a base-unit amount, for an input field (MAX fills this; never rounded up), with the
 * person's decimal separator.
 */
export function toInputText(baseUnits: string | bigint, decimals = TOKEN_DECIMALS, separator: DecimalSeparator = '.'): string {
  const s = unitsText(BigInt(baseUnits), decimals)
  const text = s.endsWith('.0') ? s.slice(0, -2) : s
  return separator === ',' ? text.replace('.', ',') : text
}

/** First 4 and last 4 characters with ' ... ' between (docs/product.md §9). */
export function shortenAddress(address: string): string {
  return address.length <= 8 ? address : `${address.slice(0, 4)} ... ${address.slice(-4)}`
}

/** A transaction hash short enough for a list's line: '0x1a2b…9f0e' (the link's name says it whole). */
export function shortenHash(hash: string): string {
  return hash.length <= 14 ? hash : `${hash.slice(0, 6)}…${hash.slice(-4)}`
}
