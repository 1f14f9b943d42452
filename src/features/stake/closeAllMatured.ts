/**
 * "Close all matured" (docs/product.md §2.4): which of a holder's stakes one `unstake(ids)` closes, and what it pays.
 * Pure bigint arithmetic over the stake list as read: math.ts unstakePreview is the contracts' own close, so the total
 * is what the pool pays at the chain time of the read, to the wei.
 */
import { unstakePreview } from '../../domain/math'
import { stakeTerms } from './refresh'
import type { StakeEntry } from './slice'

/** One matured stake and what closing it pays now: principal + bonus + whole reward + strong hands, no fee. */
export interface MaturedStake {
  id: number
  /** amountOut - fee (the fee is 0 at maturity). */
  received: bigint
  stakeAmount: bigint
  /** Bonus and the whole inflation reward, both paid at maturity. */
  bonusAndReward: bigint
  /** Fees of other stakers' early closes shared with it ('earned from strong hands'). */
  gains: bigint
}

export interface CloseAllMatured {
  /** The matured stakes, by id (the order the transaction names them in). */
  stakes: MaturedStake[]
  /** Their ids: the argument of `unstake(ids)`. */
  ids: number[]
  /** What the one transaction pays: the sum of each stake's `received`. */
  total: bigint
  stakeAmount: bigint
  bonusAndReward: bigint
  gains: bigint
}

/**
 * The stakes of `entries` that are matured at chain time `now` (active, progress at 100%: the rows' "Matured",
 * docs/product.md §3.6, which is unstakePreview's `matured`: held for its whole hold), and what closing them pays with
 * the pool's rate `rate` (1e18 fixed point). A pending or closed stake is never among them.
 */
export function closeAllMatured(entries: StakeEntry[], rate: bigint, now: number): CloseAllMatured {
  const stakes: MaturedStake[] = []
  for (const e of entries) {
    if (!e.active) continue
    const c = unstakePreview(stakeTerms(e), rate, BigInt(now))
    if (!c.matured) continue
    stakes.push({
      id: e.id,
      received: c.received,
      stakeAmount: BigInt(e.stakeAmount),
      bonusAndReward: BigInt(e.bonus) + BigInt(e.reward),
      gains: c.gains,
    })
  }
  stakes.sort((a, b) => a.id - b.id)
  const sum = (part: (s: MaturedStake) => bigint) => stakes.reduce((n, s) => n + part(s), 0n)
  return {
    stakes,
    ids: stakes.map((s) => s.id),
    total: sum((s) => s.received),
    stakeAmount: sum((s) => s.stakeAmount),
    bonusAndReward: sum((s) => s.bonusAndReward),
    gains: sum((s) => s.gains),
  }
}
