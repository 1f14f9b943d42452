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

/** First 4 and last 4 characters with ' ... ' between (docs/product.md §9). */
export function shortenAddress(address: string): string {
  return address.length <= 8 ? address : `${address.slice(0, 4)} ... ${address.slice(-4)}`
}

/** A transaction hash short enough for a list's line: '0x1a2b…9f0e' (the link's name says it whole). */
export function shortenHash(hash: string): string {
  return hash.length <= 14 ? hash : `${hash.slice(0, 6)}…${hash.slice(-4)}`
}
