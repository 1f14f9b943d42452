/**
 * The stake list's rows and a stake's closing summary as people read them (docs/product.md §2.4, §2.5): pure figures
 * from a stake and its pool; the selectors that keep them are in selectors.ts.
 */
import { DAY, progressBasisPoints } from '../../domain/math'
import { formatDate } from '../../format/dates'
import { formatAmount } from '../../format/units'
import type { CalendarEvent } from '../../kit/calendar'
import type { PoolInfo, StakeEntry } from './slice'

export type StakeStatus = 'Pending' | 'Matured' | 'Closed'

/**
 * What closing a stake pays now (active) or paid (closed), split for the closing summary. Formatted amounts; the
 * Lens's figures (amountOut, fee, forfeited) are the chain's own, so the dialog shows what the close will pay.
 */
export interface CloseFigures {
  /** Before the release date: the fee applies and the bonus and the unearned reward are forfeited. */
  early: boolean
  rewardEarned: string
  /** The bonus paid with the close (at maturity). */
  bonusPaid: string
  /** Early-close fees of other stakers shared with this one ('earned from strong hands'). */
  gains: string
  fee: string
  bonusForfeited: string
  rewardForfeited: string
  /** amountOut - fee */
  toReceive: string
  /** Which optional lines apply: the stake has a reward (version 1 inflation) or a bonus at all. */
  hasReward: boolean
  hasBonus: boolean
}

export interface StakeRow {
  id: number
  status: StakeStatus
  active: boolean
  created: string
  createdAt: number
  release: string
  releaseAt: number
  days: number
  /** hundredths of a percent, capped at 10000 */
  progress: number
  progressText: string
  amount: string
  /** When it was closed (closed stakes only). */
  closed: string | null
  /** Pool shares: version 1 and active only (a close burns them). */
  shares: string | null
  /**
   * Active: 'Future rewards', what the stake earns on top of its amount if held to the release (bonus + reward +
   * fees shared with it so far). Closed: 'Earned', what it paid on top of the amount (negative after a fee). Signed.
   */
  rewards: string
  /** The parts of the future rewards, for the row's small print (active only). */
  rewardParts: string | null
  close: CloseFigures
  /**
   * "Add to calendar" for the release (docs/product.md §2.4): a pending stake's, once the token's symbol is known (the
   * event names the amount and the token); null otherwise.
   */
  releaseEvent: (CalendarEvent & { label: string }) | null
  /** Raw figures for the CSV export. */
  raw: { stakeAmount: string; lpAmount: string; rewards: string }
}

/**
 * The Lens's close figures split into their parts. An early close forfeits the whole bonus and the reward not yet
 * earned (forfeited = bonus + reward - earned), a matured one nothing; so a nonzero `forfeited` holds the bonus.
 */
export function closeFigures(e: StakeEntry, symbol = ''): CloseFigures {
  const bonus = BigInt(e.bonus)
  const reward = BigInt(e.reward)
  const forfeited = BigInt(e.forfeited)
  const fee = BigInt(e.fee)
  const bonusForfeited = forfeited > 0n ? bonus : 0n
  const rewardForfeited = forfeited - bonusForfeited
  return {
    early: forfeited > 0n || fee > 0n,
    rewardEarned: formatAmount(reward - rewardForfeited, { symbol }),
    bonusPaid: formatAmount(forfeited > 0n ? 0n : bonus, { symbol }),
    gains: formatAmount(e.gains, { symbol }),
    fee: formatAmount(fee, { symbol }),
    bonusForfeited: formatAmount(bonusForfeited, { symbol }),
    rewardForfeited: formatAmount(rewardForfeited, { symbol }),
    toReceive: formatAmount(BigInt(e.amountOut) - fee, { symbol }),
    hasReward: reward > 0n,
    hasBonus: bonus > 0n,
  }
}

/** One list row from a stake and the pool (docs/product.md §2.4, §3.6); amounts with the token's symbol. */
export function stakeRow(e: StakeEntry, pool: PoolInfo, now: number, symbol = ''): StakeRow {
  // A closed stake stopped maturing when it was closed.
  const at = e.active ? now : e.closeTime
  const progress = Number(progressBasisPoints(BigInt(e.stakeTime), BigInt(e.holdTime), BigInt(at)))
  const status: StakeStatus = !e.active ? 'Closed' : progress >= 10_000 ? 'Matured' : 'Pending'
  const stakeAmount = BigInt(e.stakeAmount)
  const [bonus, reward, gains] = [BigInt(e.bonus), BigInt(e.reward), BigInt(e.gains)]
  // Each stake's bonus and reward were funded when it was made and are fixed; the gains grow with others' fees.
  const rewards = e.active ? bonus + reward + gains : BigInt(e.amountOut) - BigInt(e.fee) - stakeAmount
  const parts = [
    reward > 0n ? `reward ${formatAmount(reward)}` : null,
    bonus > 0n ? `bonus ${formatAmount(bonus)}` : null,
    gains > 0n ? `strong hands ${formatAmount(gains)}` : null,
  ].filter((p) => p !== null)
  const releaseAt = e.stakeTime + e.holdTime
  return {
    id: e.id,
    status,
    active: e.active,
    created: formatDate(e.stakeTime),
    createdAt: e.stakeTime,
    release: formatDate(releaseAt),
    releaseAt,
    days: Math.floor(e.holdTime / Number(DAY)),
    progress,
    // Hundredths of a percent are a figure with 2 decimals.
    progressText: `${formatAmount(BigInt(progress), { decimals: 2 })}%`,
    amount: formatAmount(stakeAmount, { symbol }),
    closed: e.active ? null : formatDate(e.closeTime),
    shares: pool.version === 1 && e.active ? formatAmount(e.lpAmount) : null,
    rewards: formatAmount(rewards, { symbol }),
    rewardParts: e.active && parts.length > 1 ? parts.join(' + ') : null,
    close: closeFigures(e, symbol),
    releaseEvent:
      status === 'Pending' && symbol !== ''
        ? {
            title: `Stake release: ${formatAmount(stakeAmount, { symbol })} (stake #${e.id})`,
            start: releaseAt,
            fileName: `stake-${e.id}-release`,
            label: `Add to calendar: release of stake #${e.id}`,
          }
        : null,
    raw: { stakeAmount: e.stakeAmount, lpAmount: e.lpAmount, rewards: rewards.toString() },
  }
}
