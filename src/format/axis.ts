// Made on first use, as the date formatters: only a chart's axis needs it.
let COMPACT: Intl.NumberFormat | null = null

/** A chart axis's tick: a token amount in a few characters ('950', '1.2K', '3M'). Axes only; figures use formatAmount. */
export function formatAxisAmount(tokens: number): string {
  COMPACT ??= new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
  return COMPACT.format(tokens)
}
