/**
 * Restake (docs/product.md §2.6a): what one `restake(ids, hold, maxFee, minBonus, minReward)` closes, how much it stakes
 * again and on which terms. Pure bigint arithmetic over the stake list as read: the amount is what closing the chosen
 * matured stakes pays now (closeAllMatured.ts, the same computation as "Close all matured"), and the new stake is
 * previewed and bounded exactly as the deposit dialog previews and bounds a stake of that amount (math.ts previewStake,
 * boundsOf), with no referer.
 */
import { boundsOf, DAY, expiryDay, previewStake, type StakeBounds, type StakePreview } from '../../domain/math'
import { closeAllMatured, type MaturedStake } from './closeAllMatured'
import { poolMath } from './poolMath'
import type { DepositMinimums, DepositTerms, PoolInfo, StakeEntry } from './slice'

export interface RestakePlan {
  /** The stakes closed, by id (the order the transaction names them in). */
  ids: number[]
  /** Each with what closing it pays now. */
  stakes: MaturedStake[]
  /** What they pay together: the new stake's principal (base units). */
  amount: bigint
  /** The new stake's term: whole days, and the same in seconds as sent. */
  days: number
  hold: bigint
  /**
   * The pool as the new stake meets it: the restake closes the chosen stakes first, so the principal they still held
   * in the pool's shares leaves them (a version 2 pool counts every active stake; version 1 let a stake go at the start
   * of its release day, before it matured). The rest is the pool as read.
   */
  pool: PoolInfo
  /** The new stake as the deposit dialog previews it: bonus, reward, shares, share of the pool, what the release pays. */
  preview: StakePreview
  /** What the preview shows as the stake's bounds: boundsOf(preview), the guarded stake's maxFee, minBonus, minReward. */
  bounds: StakeBounds
}

/**
 * The plan of restaking the stakes `ids` of `entries` for `days` days in `pool` at chain time `now`, or null when any
 * of them is not an active, matured stake of the list (a pending or closed one, or none of that id), an id repeats or
 * there is none: the contract would refuse it (StakeNotMatured, StakeNotActive), so nothing is planned.
 */
export function restakePlan(entries: StakeEntry[], ids: number[], pool: PoolInfo, now: number, days: number): RestakePlan | null {
  const wanted = new Set(ids)
  if (ids.length === 0 || wanted.size !== ids.length) return null
  const chosen = entries.filter((e) => wanted.has(e.id))
  const matured = closeAllMatured(chosen, now)
  if (matured.ids.length !== ids.length) return null
  const today = BigInt(now) / DAY
  const stillShared = chosen
    .filter((e) => pool.version === 2 || expiryDay(BigInt(e.stakeTime), BigInt(e.holdTime)) > today)
    .reduce((n, e) => n + BigInt(e.stakeAmount), 0n)
  const left = BigInt(pool.totalShares) - stillShared
  const after: PoolInfo = { ...pool, totalShares: (left > 0n ? left : 0n).toString() }
  const hold = BigInt(days) * DAY
  const preview = previewStake(poolMath(after), matured.total, hold, false)
  return {
    ids: matured.ids,
    stakes: matured.stakes,
    amount: matured.total,
    days,
    hold,
    pool: after,
    preview,
    bounds: boundsOf(preview),
  }
}

/**
 * The bounds the restake is sent with, as the deposit sends its stake's (sagas.ts depositTerms): the fee the preview
 * showed, and the full bonus and reward, or the lower ones the person accepted when the reservoir runs short
 * (`minimums`, which then are the plan's own bounds). Without a shortfall they are the plan's bounds.
 */
export function restakeTerms(plan: RestakePlan, minimums: DepositMinimums | null): DepositTerms {
  return {
    maxFee: plan.bounds.maxFee.toString(),
    minBonus: minimums?.bonus ?? plan.preview.bonusWanted.toString(),
    minReward: minimums?.reward ?? plan.preview.rewardWanted.toString(),
  }
}
