/**
 * How long to wait before retry number `attempt` (0 = the first retry) of a read that failed: `firstMs`, doubling
 * with each attempt, never more than `maxMs`, spread by `random` (0 to 1) over 80-120% of that so that every open
 * page does not hit an RPC node or the API in the same second when it comes back. Pure: the saga passes
 * Math.random().
 */
export function retryDelayMs(attempt: number, random: number, firstMs: number, maxMs: number): number {
  const step = Math.max(0, Math.floor(attempt))
  // 2^30 already passes any cap; a larger exponent would only overflow to Infinity.
  const base = Math.min(maxMs, firstMs * 2 ** Math.min(step, 30))
  const spread = 0.8 + 0.4 * Math.min(1, Math.max(0, random))
  return Math.round(Math.min(maxMs, base * spread))
}
