import { parseUnits } from 'ethers'
import { formatAmount, TOKEN_DECIMALS } from './units'

/*
 * What a person types in an amount field, read into base units, and the text an amount fills a field with. Apart from
 * units.ts, which the entry holds: parseUnits brings ethers' FixedNumber into the file that holds this module, and
 * only the deposit form types amounts.
 */

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
  const s = formatAmount(baseUnits, { decimals, exact: true })
  const text = s.endsWith('.0') ? s.slice(0, -2) : s
  return separator === ',' ? text.replace('.', ',') : text
}
