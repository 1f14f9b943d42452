/**
 * What closing a stake pays on each day from now to its release (docs/product.md §2.5, §2.6, §2.7): the early
 * withdrawal fee falling, the reward earned growing, the bonus paid at maturity. Every point is `unstakePreview` of
 * math.ts, the function the Lens preview and the contracts compute to the wei, so the point for `now` is exactly what
 * the Lens shows for a close now.
 *
 * What the future holds is not known: other stakers' early closes raise the pool's rate, and with it the fees shared
 * with this stake. The curve holds the rate given (the pool's rate now) for every day, so it shows what the stake's own
 * fixed terms pay; fees shared later only add to it.
 */
import { DAY, unstakePreview, type StakeMath, type StakePreview } from './math'

/** What a close pays at one moment, in base units; times as the stake's (unix seconds in the app). */
export interface CurvePoint {
  /** Whole days from `now` (0 = now). The release point may come less than a day after the point before it. */
  day: number
  time: bigint
  /** What the owner receives: principal - fee + reward earned + gains, + bonus at maturity (amountOut - fee). */
  received: bigint
  fee: bigint
  rewardEarned: bigint
  /** The bonus paid with the close: the stake's bonus at maturity, 0 before. */
  bonus: bigint
  /** Fees of others' early closes shared with the stake at the rate held. */
  gains: bigint
  matured: boolean
}

function pointAt(stake: StakeMath, rate: bigint, time: bigint, day: number): CurvePoint {
  const c = unstakePreview(stake, rate, time)
  return {
    day,
    time,
    received: c.received,
    fee: c.fee,
    rewardEarned: c.rewardEarned,
    bonus: c.matured ? stake.bonus : 0n,
    gains: c.gains,
    matured: c.matured,
  }
}

/**
 * The close of `stake` at `now`, `now` + 1 day, ... while before the release, then at the release itself, with the
 * pool's rate held at `rate`. A stake already matured has one point, `now`. `now` before the stake was made counts
 * from when it was made (a close cannot come earlier).
 */
export function closeCurve(stake: StakeMath, rate: bigint, now: bigint): CurvePoint[] {
  const start = now < stake.stakeTime ? stake.stakeTime : now
  const release = stake.stakeTime + stake.holdTime
  if (start >= release) return [pointAt(stake, rate, start, 0)]
  const points: CurvePoint[] = []
  let day = 0
  for (let t = start; t < release; t += DAY) points.push(pointAt(stake, rate, t, day++))
  points.push(pointAt(stake, rate, release, day))
  return points
}

/** The break-even point: the first whose amount received is at least `principal`, or null when none is. */
export function breakEven(points: readonly CurvePoint[], principal: bigint): CurvePoint | null {
  return points.find((p) => p.received >= principal) ?? null
}

/**
 * The stake `previewStake` describes, made at `now` with `amount` (the deposit dialog's, or a claim staked under a
 * harvest term): its fixed terms as the close arithmetic reads them. It lands with the fee as its view shows it
 * (unHoldFee rounded down to the stored fraction) and the pool's rate as its entry rate, so at that rate it has no
 * gains.
 */
export function stakeOfPreview(p: StakePreview, amount: bigint, now: bigint): StakeMath {
  return {
    stakeAmount: amount,
    bonus: p.bonus,
    reward: p.reward,
    lpAmount: p.shares,
    unHoldFee: p.feeFraction * 100n,
    entryRate: p.rate,
    stakeTime: now,
    holdTime: p.holdTime,
  }
}
