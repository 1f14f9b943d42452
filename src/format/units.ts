import { formatUnits, parseUnits } from 'ethers'

/** Token decimals used across the app (SPEC section 9). */
export const TOKEN_DECIMALS = 18

const formatters = new Map<number, Intl.NumberFormat>()
function formatter(fractionDigits: number): Intl.NumberFormat {
  let f = formatters.get(fractionDigits)
  if (!f) {
    // String input keeps every digit exact; 'trunc' rounds down as the spec asks.
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      roundingMode: 'trunc',
    } as Intl.NumberFormatOptions)
    formatters.set(fractionDigits, f)
  }
  return f
}

/**
 * Formats a base-unit amount (decimal string or bigint) for display: thousands separators and `fractionDigits`
 * decimals (2 by default), rounded down so a figure is never shown larger than it is.
 */
export function formatAmount(baseUnits: string | bigint, decimals = TOKEN_DECIMALS, fractionDigits = 2): string {
  const exact = formatUnits(BigInt(baseUnits), decimals)
  return formatter(fractionDigits).format(exact as unknown as number)
}

/**
 * Formats a 1e18-scaled percentage (10e18 = 10%) with `fractionDigits` decimals, rounded down, without the sign.
 */
export function formatPercent(scaled: string | bigint, fractionDigits = 2): string {
  return formatAmount(scaled, 18, fractionDigits)
}

const PLAIN_DECIMAL = /^(\d+\.?\d*|\.\d+)$/

/**
 * Parses what a person typed as an amount into base units (decimal string). Accepts plain decimals only: no sign,
 * exponent, hex, separators or more fraction digits than the token has. Returns null for anything else.
 */
export function parseAmountInput(text: string, decimals = TOKEN_DECIMALS): string | null {
  const t = text.trim()
  if (!PLAIN_DECIMAL.test(t)) return null
  const fraction = t.includes('.') ? t.split('.')[1] : ''
  if (fraction.length > decimals) return null
  return parseUnits(t.endsWith('.') ? t.slice(0, -1) || '0' : t, decimals).toString()
}

/** The exact decimal text of a base-unit amount, for an input field (MAX fills this; never rounded up). */
export function toInputText(baseUnits: string | bigint, decimals = TOKEN_DECIMALS): string {
  const s = formatUnits(BigInt(baseUnits), decimals)
  return s.endsWith('.0') ? s.slice(0, -2) : s
}

/** First 4 and last 4 characters with ' ... ' between (SPEC section 9). */
export function shortenAddress(address: string): string {
  return address.length <= 8 ? address : `${address.slice(0, 4)} ... ${address.slice(-4)}`
}
