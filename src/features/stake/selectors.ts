import { createSelector } from '@reduxjs/toolkit'
import type { RootState } from '../../app/store'
import { DAY, ONE, previewStake, progressBasisPoints, type PoolMathState, type PoolVersion } from '../../chain/math'
import { formatDate } from '../../format/dates'
import { formatAmount, formatPercent } from '../../format/units'
import { selectNetwork } from '../wallet/selectors'
import type { PoolInfo, StakeEntry } from './slice'

/** The pool the staking page is about: the route's id, else the default pool of the wallet's network. */
export const selectActivePoolId = createSelector(
  [(s: RootState) => s.stake.poolId, selectNetwork],
  (routeId, network): number | null => routeId ?? network?.defaultPoolId ?? null,
)

export const selectStake = (s: RootState) => s.stake

/**
 * Keeps the previous result when a refresh computes the same thing again, so a 15 s reload that changed nothing
 * re-renders nothing. The results are small plain JSON, so comparing their text is cheap.
 */
const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)
const stable = { memoizeOptions: { resultEqualityCheck: sameJson } }
export const selectPool = (s: RootState) => s.stake.pool
const selectSymbol = (s: RootState) => s.token.symbol

export const DEFAULT_DAYS = 365
export const DEFAULT_MAX_DAYS = 1095

/** The pool as the shared math reads it. */
export function poolMath(p: PoolInfo): PoolMathState {
  return {
    version: p.version as PoolVersion,
    totalStaked: BigInt(p.totalStaked),
    totalShares: BigInt(p.totalShares),
    inflationPercent: BigInt(p.inflationPercent),
    refererBonusPercent: BigInt(p.refererBonusPercent),
    timeBonusPercent: BigInt(p.timeBonusPercent),
    unHoldFee: BigInt(p.unHoldFee),
    holdTimeRefMin: BigInt(p.holdTimeRefMin),
    holdTimeMax: BigInt(p.holdTimeMax),
    reservoirAvailable: BigInt(p.reservoirAvailable),
  }
}

const withSymbol = (text: string, symbol: string) => (symbol ? `${text} ${symbol}` : text)

/** Main info and badges: total staked, pool APR (version 1 with inflation set), total stakers. */
export const selectPoolView = createSelector(
  [selectStake, selectSymbol],
  (s, symbol) => {
    const p = s.pool
    const apr = p && p.version === 1 && BigInt(p.inflationPercent) > 0n ? `${formatPercent(p.inflationPercent)}%` : null
    return {
      // A failed first read shows dashes, not skeletons that never resolve (the catalogue shows no message for it).
      loading: p === null && s.status !== 'failed',
      version: p?.version ?? null,
      totalStaked: p ? withSymbol(formatAmount(p.totalStaked), symbol) : '—',
      apr,
      holders: s.holders === null ? '—' : s.holders.toLocaleString('en-US'),
      paused: p?.stakingPaused ?? false,
      myTotal: withSymbol(formatAmount(s.totalStakedByUser), symbol),
      listStatus: s.status,
    }
  },
  stable,
)

export type StakeStatus = 'Pending' | 'Matured' | 'Closed'

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
  /** version 1 only */
  shares: string | null
  /** Future rewards while active, 'Earned' once closed; signed. */
  rewards: string
  /** Summary dialog figures. */
  earned: string
  fee: string
  toReceive: string
  /** Raw figures for the CSV export. */
  raw: { stakeAmount: string; lpAmount: string; rewards: string }
}

function signed(wei: bigint): string {
  return wei < 0n ? `-${formatAmount(-wei)}` : formatAmount(wei)
}

/** One list row from a stake and the pool (SPEC section 2 "Stake list", section 4 "Stake status"). */
export function stakeRow(e: StakeEntry, pool: PoolInfo, now: number): StakeRow {
  // A closed stake stopped maturing when it was closed.
  const at = e.active ? now : e.closeTime
  const progress = Number(progressBasisPoints(BigInt(e.stakeTime), BigInt(e.holdTime), BigInt(at)))
  const status: StakeStatus = !e.active ? 'Closed' : progress >= 10_000 ? 'Matured' : 'Pending'
  const stakeAmount = BigInt(e.stakeAmount)
  const amountOut = BigInt(e.amountOut)
  const fee = BigInt(e.fee)
  // Active: what the stake earns on top of the amount if held to the end (v2: the bonus shares; v1: its shares at
  // today's rate). Closed: what it actually paid on top of the amount.
  const future =
    pool.version === 2 ? BigInt(e.lpAmount) - stakeAmount : (BigInt(e.lpAmount) * BigInt(pool.rate)) / ONE - stakeAmount
  const rewards = e.active ? future : BigInt(e.closeAmount) - stakeAmount
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
    progressText: `${(progress / 100).toFixed(2)}%`,
    amount: formatAmount(stakeAmount),
    shares: pool.version === 1 ? formatAmount(e.lpAmount) : null,
    rewards: signed(rewards),
    earned: signed(amountOut - stakeAmount),
    fee: formatAmount(fee),
    toReceive: formatAmount(e.active ? amountOut - fee : BigInt(e.closeAmount)),
    raw: { stakeAmount: e.stakeAmount, lpAmount: e.lpAmount, rewards: rewards.toString() },
  }
}

/** Active stakes newest first, then the closed ones newest first (SPEC section 2). */
export const selectStakeRows = createSelector(
  [(s: RootState) => s.stake.userStakes, selectPool, (s: RootState) => s.stake.chainTime],
  (stakes, pool, now) => {
    if (!pool) return { active: [] as StakeRow[], closed: [] as StakeRow[] }
    const rows = stakes.map((e) => stakeRow(e, pool, now))
    const newestFirst = (a: StakeRow, b: StakeRow) => b.createdAt - a.createdAt || b.id - a.id
    return {
      active: rows.filter((r) => r.active).sort(newestFirst),
      closed: rows.filter((r) => !r.active).sort(newestFirst),
    }
  },
  stable,
)

export const selectSummaryRow = createSelector(
  [selectStakeRows, (s: RootState) => s.stake.closing.id],
  (rows, id) => [...rows.active, ...rows.closed].find((r) => r.id === id) ?? null,
)

/** Days limits (SPEC section 5): min 1, or the pool's referral minimum with a referral; max from the pool or 1095. */
export function daysLimits(pool: PoolInfo | null, hasReferral: boolean): { min: number; max: number } {
  const day = Number(DAY)
  const max = pool && pool.holdTimeMax > 0 ? Math.floor(pool.holdTimeMax / day) : DEFAULT_MAX_DAYS
  const refMin = pool ? Math.floor(pool.holdTimeRefMin / day) : 1
  return { min: hasReferral && refMin > 1 ? refMin : 1, max }
}

/**
 * What the deposit modal shows as the user types, from the shared math as the contract will compute it. The pool
 * figures from the Lens already include inflation due up to the read, so no elapsed time is added.
 */
export function depositPreview(pool: PoolInfo, amountWei: bigint, days: number, hasReferral: boolean) {
  const p = previewStake(poolMath(pool), amountWei, BigInt(days) * DAY, hasReferral && pool.version === 1)
  return {
    baseShares: formatAmount(pool.version === 2 ? amountWei : (amountWei * ONE) / p.rate),
    referralBonus: `${formatPercent(p.referralBonusPercent)}%`,
    lengthBonus: `${formatPercent(p.lengthBonusPercent)}%`,
    totalShares: formatAmount(p.shares),
    shareOfPool: `${formatPercent(p.shareOfPool * 100n)}%`,
  }
}
