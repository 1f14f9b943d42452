import { DAY, expiryDay, unstakePreview } from '../../domain/math'
import type { StakeEntry } from './slice'

/** Lens.CLOSED_VISIBLE_FOR: the stake list shows closes of the last 180 days (docs/contracts.md, "Heavy users load"). */
export const CLOSED_VISIBLE_FOR = 180 * 86_400

/** A stake row's fixed terms, as math.ts unstakePreview takes them. */
export function stakeTerms(
  e: Pick<StakeEntry, 'stakeAmount' | 'bonus' | 'reward' | 'lpAmount' | 'unHoldFee' | 'entryRate' | 'stakeTime' | 'holdTime'>,
  entryRate = BigInt(e.entryRate),
) {
  return {
    stakeAmount: BigInt(e.stakeAmount),
    bonus: BigInt(e.bonus),
    reward: BigInt(e.reward),
    lpAmount: BigInt(e.lpAmount),
    unHoldFee: BigInt(e.unHoldFee),
    entryRate,
    stakeTime: BigInt(e.stakeTime),
    holdTime: BigInt(e.holdTime),
  }
}

/** 00:00 UTC of a stake's release day (unix time): from then on its share of the fees, its gains, no longer grows. */
export function releaseDayStart(e: Pick<StakeEntry, 'stakeTime' | 'holdTime'>): number {
  return Number(expiryDay(BigInt(e.stakeTime), BigInt(e.holdTime)) * DAY)
}

/**
 * Whether an active row read at chain time `readAt` reached the start of its release day by `time`: its gains then
 * stopped at a rate no read has shown, so the rows must be read again rather than brought forward.
 */
export function releaseDayBegan(entries: StakeEntry[], readAt: number, time: number): boolean {
  return entries.some((e) => e.active && releaseDayStart(e) > readAt && releaseDayStart(e) <= time)
}

/**
 * The stake list as the Lens would return it at chain time `time` with the pool's fee rate `rate`, from the rows read
 * at chain time `readAt`, when no stake was made or closed since and no row's release day began in between (the
 * caller checks both). A stake's terms never change once made, and an active stake's close figures follow from them,
 * the rate and the time: math.ts unstakePreview is the contracts' own arithmetic, checked against them to the wei; a
 * row whose release day had begun when it was read keeps the gains it was read with, which stopped growing then.
 * Closed stakes are fixed; those closed before the visible window leave the list as they would on a fresh read. This
 * is what lets a refresh read only the pool (about 3 KB) instead of every row on screen (about 1 KB a row).
 */
export function stakesAt(entries: StakeEntry[], rate: bigint, time: number, readAt: number): StakeEntry[] {
  const since = time - CLOSED_VISIBLE_FOR
  return entries
    .filter((e) => e.active || e.closeTime >= since)
    .map((e) => {
      if (!e.active) return e
      const c = unstakePreview(stakeTerms(e), rate, BigInt(time))
      const gains = releaseDayStart(e) <= readAt ? BigInt(e.gains) : c.gains
      const next = {
        ...e,
        amountOut: (c.amountOut - c.gains + gains).toString(),
        fee: c.fee.toString(),
        forfeited: c.forfeited.toString(),
        gains: gains.toString(),
      }
      // Unchanged figures keep the same object, so the rows that did not change do not re-render.
      return next.amountOut === e.amountOut && next.fee === e.fee && next.forfeited === e.forfeited && next.gains === e.gains
        ? e
        : next
    })
}
