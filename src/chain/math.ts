/**
 * The pool and claim arithmetic, in bigint, exactly as the contracts compute it (same operation order, same
 * rounding: integer division rounds down). Contract tests check the contracts against these functions to the wei,
 * and the app derives every figure it shows from them, so the UI preview and the chain never disagree.
 *
 * Units: amounts and shares in base units; rates 1e18-scaled; percentages 1e18-scaled with 100% = 100e18; times in
 * seconds.
 */

export const ONE = 10n ** 18n
/** 100% in the contracts' 1e18-scaled percent. */
export const PERCENT = 100n * ONE
export const DAY = 86_400n
export const YEAR = 365n * DAY
/** Year in seconds as the spec's term-APR formula uses it. */
export const YEAR_SECONDS = 31_536_000n
export const DEFAULT_RATE = ONE
export const DEFAULT_MAX_DAYS = 1095n
/** Token approval the app sends: 1e28 base units. */
export const APPROVE_AMOUNT = 10n ** 28n

export type PoolVersion = 1 | 2

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)

/** What a pool's parameters and books look like to the arithmetic (PoolState in the contracts). */
export interface PoolMathState {
  version: PoolVersion
  totalStaked: bigint
  totalShares: bigint
  inflationPercent: bigint
  refererBonusPercent: bigint
  timeBonusPercent: bigint
  unHoldFee: bigint
  holdTimeRefMin: bigint
  holdTimeMax: bigint
  /** What the reservoir can still give this pool. */
  reservoirAvailable: bigint
}

/** Share price: totalStaked * 1e18 / totalShares, 1e18 while there are no shares; always 1e18 in version 2. */
export function rate(version: PoolVersion, totalStaked: bigint, totalShares: bigint): bigint {
  if (version === 2 || totalShares === 0n) return ONE
  return (totalStaked * ONE) / totalShares
}

/** Inflation due on `totalStaked` over `elapsed` seconds at `inflationPercent` a year (simple, before the cap). */
export function inflationDue(totalStaked: bigint, totalShares: bigint, inflationPercent: bigint, elapsed: bigint): bigint {
  if (totalShares === 0n || inflationPercent === 0n) return 0n
  return (totalStaked * inflationPercent * elapsed) / (YEAR * PERCENT)
}

/** Inflation actually written: what is due, capped at what the reservoir can give. */
export function inflationPaid(s: PoolMathState, elapsed: bigint): bigint {
  return min(inflationDue(s.totalStaked, s.totalShares, s.inflationPercent, elapsed), s.reservoirAvailable)
}

/** Hold time as the contract keeps it: rounded down to whole days. */
export function normalizeHoldTime(holdTime: bigint): bigint {
  return (holdTime / DAY) * DAY
}

/** Length bonus percent: timeBonusPercent * hold / holdTimeMax. */
export function lengthBonusPercent(timeBonusPercent: bigint, holdTime: bigint, holdTimeMax: bigint): bigint {
  if (holdTimeMax === 0n) return 0n
  return (timeBonusPercent * normalizeHoldTime(holdTime)) / holdTimeMax
}

/** Referral bonus percent: the pool's percent with a referer, else 0 (always 0 in version 2). */
export function referralBonusPercent(refererBonusPercent: bigint, hasReferer: boolean): bigint {
  return hasReferer ? refererBonusPercent : 0n
}

/** Smallest and largest hold (seconds) a stake may ask for. */
export function holdLimits(
  s: Pick<PoolMathState, 'holdTimeRefMin' | 'holdTimeMax'>,
  hasReferer: boolean,
): { min: bigint; max: bigint } {
  const base = DAY
  return { min: hasReferer && s.holdTimeRefMin > base ? s.holdTimeRefMin : base, max: s.holdTimeMax }
}

export interface StakePreview {
  holdTime: bigint
  /** Inflation the transaction writes before minting (moves the rate). */
  inflation: bigint
  rate: bigint
  bonusPercent: bigint
  lengthBonusPercent: bigint
  referralBonusPercent: bigint
  bonusWanted: bigint
  /** Bonus actually funded by the reservoir. */
  bonus: bigint
  shares: bigint
  /** Pool shares after the stake, and this stake's part of them (1e18 = 100%). */
  totalSharesAfter: bigint
  shareOfPool: bigint
}

/**
 * What stake(amount, holdTime[, referer]) mints `elapsed` seconds after the pool's last accrual. `bonusPercent`
 * overrides the length/referral bonus (a harvest term's bonus, for stakeFor).
 */
export function previewStake(
  s: PoolMathState,
  amount: bigint,
  holdTime: bigint,
  hasReferer: boolean,
  elapsed = 0n,
  termBonusPercent?: bigint,
): StakePreview {
  const hold = normalizeHoldTime(holdTime)
  const lb = termBonusPercent === undefined ? lengthBonusPercent(s.timeBonusPercent, hold, s.holdTimeMax) : 0n
  const rb = termBonusPercent === undefined ? referralBonusPercent(s.refererBonusPercent, hasReferer) : 0n
  const bonusPercent = termBonusPercent ?? lb + rb
  const bonusWanted = (amount * bonusPercent) / PERCENT
  const inflation = inflationPaid(s, elapsed)
  const bonus = min(bonusWanted, s.reservoirAvailable - inflation)
  const r = rate(s.version, s.totalStaked + inflation, s.totalShares)
  const shares = s.version === 2 ? amount + bonus : ((amount + bonus) * ONE) / r
  const totalSharesAfter = s.totalShares + shares
  return {
    holdTime: hold,
    inflation,
    rate: r,
    bonusPercent,
    lengthBonusPercent: lb,
    referralBonusPercent: rb,
    bonusWanted,
    bonus,
    shares,
    totalSharesAfter,
    shareOfPool: totalSharesAfter === 0n ? 0n : (shares * ONE) / totalSharesAfter,
  }
}

/** Linear early-withdrawal fee: unHoldFee percent of `amount` at the start, 0 at maturity. */
export function earlyWithdrawalFee(amount: bigint, unHoldFee: bigint, holdTime: bigint, elapsed: bigint): bigint {
  if (elapsed >= holdTime) return 0n
  return (amount * unHoldFee * (holdTime - elapsed)) / holdTime / PERCENT
}

/** The stake fields the close arithmetic reads. */
export interface StakeMath {
  stakeAmount: bigint
  lpAmount: bigint
  stakeTime: bigint
  holdTime: bigint
}

/** (amountOut before fee, fee) for closing `stake` at `time` with the pool at `currentRate` (ignored in version 2). */
export function unstakePreview(
  version: PoolVersion,
  stake: StakeMath,
  currentRate: bigint,
  unHoldFee: bigint,
  time: bigint,
): { amountOut: bigint; fee: bigint; received: bigint } {
  const elapsed = time - stake.stakeTime
  let amountOut: bigint
  let fee: bigint
  if (version === 1) {
    amountOut = (stake.lpAmount * currentRate) / ONE
    fee = earlyWithdrawalFee(amountOut, unHoldFee, stake.holdTime, elapsed)
  } else if (elapsed >= stake.holdTime) {
    amountOut = stake.lpAmount
    fee = 0n
  } else {
    amountOut = stake.stakeAmount
    fee = earlyWithdrawalFee(amountOut, unHoldFee, stake.holdTime, elapsed)
  }
  return { amountOut, fee, received: amountOut - fee }
}

/** Progress of a stake in hundredths of a percent (10000 = 100.00%), capped at 100%. */
export function progressBasisPoints(stakeTime: bigint, holdTime: bigint, now: bigint): bigint {
  if (holdTime <= 0n || now >= stakeTime + holdTime) return 10_000n
  if (now <= stakeTime) return 0n
  return ((now - stakeTime) * 10_000n) / holdTime
}

/** APR of a harvest term, 1e18-scaled percent: 31536000 / hold * bonus. */
export function termApr(hold: bigint, bonus: bigint): bigint {
  if (hold === 0n) return 0n
  return (YEAR_SECONDS * bonus) / hold
}

/** Spec's "max amount to receive": 5 * staked * days / 365. */
export function maxAmountToReceive(staked: bigint, days: bigint): bigint {
  return (5n * staked * days) / 365n
}

/** Share of a total as a 1e18-scaled fraction (1e18 = 100%). */
export function shareOf(part: bigint, total: bigint): bigint {
  return total === 0n ? 0n : (part * ONE) / total
}
