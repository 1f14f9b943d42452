/**
 * "Close all matured" (docs/product.md §2.4): which of a holder's stakes one `unstake(ids)` closes, and what it pays.
 * Pure bigint arithmetic over the stake list as read: each matured row's own close figures (the Lens's at the chain
 * time of the read, or brought to it from the stake's fixed terms, refresh.ts), so the total is what the pool pays
 * then, to the wei. Restake stakes the same total again (restakePlan.ts).
 */
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
 * The stakes of `entries` that are matured at chain time `now`, the time of the list's figures (active, progress at
 * 100%: the rows' "Matured", docs/product.md §3.6, held for their whole hold, as math.ts unstakePreview's `matured`),
 * and what closing them pays: each row's amount out less its fee (none at maturity). A pending or closed stake is never
 * among them. The rows' figures, not the pool's rate of now: a version 1 stake stops gaining at the start of its release
 * day (docs/contracts.md), at a rate only the pool's own figures of it show.
 */
export function closeAllMatured(entries: StakeEntry[], now: number): CloseAllMatured {
  const stakes: MaturedStake[] = []
  for (const e of entries) {
    if (!e.active || now - e.stakeTime < e.holdTime) continue
    stakes.push({
      id: e.id,
      received: BigInt(e.amountOut) - BigInt(e.fee),
      stakeAmount: BigInt(e.stakeAmount),
      bonusAndReward: BigInt(e.bonus) + BigInt(e.reward),
      gains: BigInt(e.gains),
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
