/**
 * What a close pays, day by day, as the closing summary and the deposit dialog draw it (docs/product.md §2.5, §2.6):
 * plain JSON from src/domain/closeCurve.ts, amounts as base-unit strings for the figures and as token numbers for the
 * chart. The selector of the summary's curve is selectSummaryCurve; the deposit dialog calls depositCurve as it calls
 * depositPreview.
 */
import { breakEven, closeCurve, stakeOfPreview, type CurvePoint } from '../../domain/closeCurve'
import { DAY, landedFee, previewStake } from '../../domain/math'
import { formatPercent } from '../../format/units'
import { stakeTerms } from './refresh'
import { poolMath } from './poolMath'
import type { PoolInfo, StakeEntry } from './slice'

/** One day of the curve: when, and what a close then pays (base units). */
export interface CurveDay {
  /** Days from today (0); the last is the release. */
  day: number
  /** Unix seconds. */
  time: number
  received: string
  fee: string
  rewardEarned: string
  bonus: string
  gains: string
  matured: boolean
}

/** A point the chart draws, in tokens (a picture needs no wei). */
export interface ChartPoint {
  day: number
  fee: number
  reward: number
  gains: number
  /** Only the day before the release (0) and the release: the line is the jump, not a run along the axis. */
  bonus: number | null
  received: number
}

export interface CloseCurveView {
  /** The amount staked (base units): a close breaks even once it pays this back. */
  principal: string
  days: CurveDay[]
  /** Index in `days` of the break-even day, null when none (a stake held to its release always has one). */
  breakEven: number | null
  /** The stake's early withdrawal fee at the start, e.g. '100.00%'. */
  feePercent: string
  hasReward: boolean
  hasBonus: boolean
  hasGains: boolean
  /** What the chart draws: every day up to CHART_POINTS, else every few days, always today, the day before the release and the release. */
  chart: ChartPoint[]
}

/** Enough points for a smooth picture; between today and the release the curve is a straight line anyway. */
const CHART_POINTS = 240

/** A hundredth of a token, the least a figure shows. */
const CENT = 10n ** 16n

const tokens = (wei: bigint) => Number(wei / 10n ** 12n) / 1e6

function chartOf(points: CurvePoint[]): ChartPoint[] {
  const step = Math.max(1, Math.ceil(points.length / CHART_POINTS))
  const last = points.length - 1
  return points
    .map((p, i) => ({ p, i }))
    .filter(({ i }) => i % step === 0 || i >= last - 1)
    .map(({ p, i }) => ({
      day: p.day,
      fee: tokens(p.fee),
      reward: tokens(p.rewardEarned),
      gains: tokens(p.gains),
      bonus: i >= last - 1 ? tokens(p.bonus) : null,
      received: tokens(p.received),
    }))
}

/** The curve of `stake` from `now` with the pool's rate held at `rate` (docs/product.md §2.5: what it assumes). */
function viewOf(points: CurvePoint[], principal: bigint, unHoldFee: bigint): CloseCurveView {
  const even = breakEven(points, principal)
  return {
    principal: principal.toString(),
    days: points.map((p) => ({
      day: p.day,
      time: Number(p.time),
      received: p.received.toString(),
      fee: p.fee.toString(),
      rewardEarned: p.rewardEarned.toString(),
      bonus: p.bonus.toString(),
      gains: p.gains.toString(),
      matured: p.matured,
    })),
    breakEven: even === null ? null : points.indexOf(even),
    feePercent: `${formatPercent(landedFee(unHoldFee))}%`,
    // A part worth less than a cent on every day would read 0.00 everywhere: no line and no figure for it.
    hasReward: points.some((p) => p.rewardEarned >= CENT),
    hasBonus: points.some((p) => p.bonus >= CENT),
    hasGains: points.some((p) => p.gains >= CENT),
    chart: chartOf(points),
  }
}

/**
 * The closing summary's curve for an active stake not yet matured, at the chain time `now` of the read and the pool's
 * rate then: exactly what the Lens computed the stake's close figures with, so today's point is the Lens's. Null for
 * a closed or matured stake (closing pays the same on any day from then on).
 */
export function summaryCurve(e: StakeEntry, pool: PoolInfo, now: number): CloseCurveView | null {
  if (!e.active || now >= e.stakeTime + e.holdTime) return null
  const points = closeCurve(stakeTerms(e), BigInt(pool.rate), BigInt(now))
  return viewOf(points, BigInt(e.stakeAmount), BigInt(e.unHoldFee))
}

/**
 * The curve of the stake the deposit dialog would make: `amountWei` for `days` (with a referral or not) at the chain
 * time `now`, from the same preview as the dialog's figures (depositPreview). Null without an amount or a term.
 */
export function depositCurve(
  pool: PoolInfo,
  amountWei: bigint,
  days: number,
  hasReferral: boolean,
  now: number,
): CloseCurveView | null {
  if (amountWei <= 0n || days < 1) return null
  const p = previewStake(poolMath(pool), amountWei, BigInt(days) * DAY, hasReferral && pool.version === 1)
  const points = closeCurve(stakeOfPreview(p, amountWei, BigInt(now)), p.rate, BigInt(now))
  return viewOf(points, amountWei, BigInt(pool.unHoldFee))
}
