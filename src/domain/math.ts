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
/** Token approval the app sends: 1e28 base units. */
export const APPROVE_AMOUNT = 10n ** 28n

export type PoolVersion = 1 | 2

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)

/** Bound of each bonus parameter (length, referral, harvest term). */
export const MAX_BONUS_PERCENT = 500n * ONE
/** Largest principal of one stake: 2^96 - 1 base units. */
export const MAX_STAKE_AMOUNT = 2n ** 96n - 1n
/** Shares that belong to nobody: a fee shared among few real shares goes mostly back to the reservoir. */
export const VIRTUAL_SHARES = ONE
/** The rate's ceiling; a fee that would pass it goes back to the reservoir. */
export const MAX_RATE = 2n ** 104n - 1n
/** Bound of one user's total principal (its shares) in a pool. */
export const MAX_ACCOUNT_TOTAL = 2n ** 104n - 1n
/** What a referer's stake backs is counted in these base units, rounded up. */
export const BACKING_UNIT = 2n ** 24n
/** The pools' default least principal of a referer's stake (refererMinStake), and its lowest bound. */
export const DEFAULT_REFERER_MIN_STAKE = 100n * ONE
export const MIN_REFERER_STAKE_FLOOR = ONE

/** What a pool's parameters and books look like to the arithmetic (PoolState in the contracts). */
export interface PoolMathState {
  version: PoolVersion
  /** Early-close fees per share, 1e18-scaled (1e18 at the start, never falls; always 1e18 in version 2). */
  rate: bigint
  totalShares: bigint
  inflationPercent: bigint
  refererBonusPercent: bigint
  timeBonusPercent: bigint
  unHoldFee: bigint
  holdTimeRefMin: bigint
  holdTimeMax: bigint
  /** What the reservoir can still fund for new stakes. */
  reservoirAvailable: bigint
}

/** The parameters a pool's owner sets (setParameters), as the arithmetic reads them. */
export type PoolParams = Pick<
  PoolMathState,
  'inflationPercent' | 'refererBonusPercent' | 'timeBonusPercent' | 'unHoldFee' | 'holdTimeRefMin' | 'holdTimeMax'
>

/** A pool's parameters from whatever holds them as numbers, bigints or decimal strings (the store, a config, a view). */
export function poolParams(p: Record<keyof PoolParams, string | number | bigint>): PoolParams {
  return {
    inflationPercent: BigInt(p.inflationPercent),
    refererBonusPercent: BigInt(p.refererBonusPercent),
    timeBonusPercent: BigInt(p.timeBonusPercent),
    unHoldFee: BigInt(p.unHoldFee),
    holdTimeRefMin: BigInt(p.holdTimeRefMin),
    holdTimeMax: BigInt(p.holdTimeMax),
  }
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

/**
 * Referral bonus percent: with a referer, refererBonusPercent x hold / holdTimeMax (it grows with the hold as the
 * length bonus does), else 0 (always 0 in version 2).
 */
export function referralBonusPercent(
  refererBonusPercent: bigint,
  hasReferer: boolean,
  holdTime: bigint,
  holdTimeMax: bigint,
): bigint {
  if (!hasReferer || holdTimeMax === 0n) return 0n
  return (refererBonusPercent * normalizeHoldTime(holdTime)) / holdTimeMax
}

/** Inflation over a whole hold as a fraction of the principal (1e18 = 100%): simple interest. */
export function rewardFraction(inflationPercent: bigint, holdTime: bigint): bigint {
  return (inflationPercent * normalizeHoldTime(holdTime)) / YEAR / 100n
}

export interface StakePreview {
  holdTime: bigint
  rate: bigint
  bonusPercent: bigint
  lengthBonusPercent: bigint
  referralBonusPercent: bigint
  bonusWanted: bigint
  rewardWanted: bigint
  /** What the reservoir funds (less than wanted only when it runs short). */
  bonus: bigint
  reward: bigint
  /** The stored terms: fractions of the principal, 1e18 = 100%. */
  bonusFraction: bigint
  rewardFraction: bigint
  feeFraction: bigint
  shares: bigint
  /** Pool shares after the stake (a stake's shares are its principal), and this stake's part of them (1e18 = 100%). */
  totalSharesAfter: bigint
  shareOfPool: bigint
  /** What the stake pays at maturity if no fee is ever shared with it: amount + bonus + reward. */
  atMaturity: bigint
}

/**
 * What stake(amount, holdTime[, referer]) makes. `termBonusPercent` replaces the length/referral bonus (a harvest
 * term's bonus, for stakeFor).
 */
export function previewStake(
  s: PoolMathState,
  amount: bigint,
  holdTime: bigint,
  hasReferer: boolean,
  termBonusPercent?: bigint,
): StakePreview {
  const hold = normalizeHoldTime(holdTime)
  const lb = termBonusPercent === undefined ? lengthBonusPercent(s.timeBonusPercent, hold, s.holdTimeMax) : 0n
  const rb = termBonusPercent === undefined ? referralBonusPercent(s.refererBonusPercent, hasReferer, hold, s.holdTimeMax) : 0n
  const bonusPercent = termBonusPercent ?? lb + rb
  let bonusFraction = bonusPercent / 100n
  let rewardFr = rewardFraction(s.inflationPercent, hold)
  const bonusWanted = (amount * bonusFraction) / ONE
  const rewardWanted = (amount * rewardFr) / ONE
  if (amount > 0n && bonusWanted + rewardWanted > s.reservoirAvailable) {
    bonusFraction = min(bonusFraction, (s.reservoirAvailable * ONE) / amount)
    const bonusFunded = (amount * bonusFraction) / ONE
    rewardFr = min(rewardFr, ((s.reservoirAvailable - bonusFunded) * ONE) / amount)
  }
  const bonus = (amount * bonusFraction) / ONE
  const reward = (amount * rewardFr) / ONE
  // A stake's shares are its principal: the fees it collects follow what it risked, never an unearned bonus.
  const shares = amount
  const totalSharesAfter = s.totalShares + shares
  return {
    holdTime: hold,
    rate: s.rate,
    bonusPercent,
    lengthBonusPercent: lb,
    referralBonusPercent: rb,
    bonusWanted,
    rewardWanted,
    bonus,
    reward,
    bonusFraction,
    rewardFraction: rewardFr,
    feeFraction: s.unHoldFee / 100n,
    shares,
    totalSharesAfter,
    shareOfPool: totalSharesAfter === 0n ? 0n : (shares * ONE) / totalSharesAfter,
    atMaturity: amount + bonus + reward,
  }
}

/** The stake fields the close arithmetic reads (the contracts' Stake view). */
export interface StakeMath {
  stakeAmount: bigint
  bonus: bigint
  reward: bigint
  lpAmount: bigint
  /** Fee percent at the start, 1e18-scaled (the stake's own, fixed when it was made). */
  unHoldFee: bigint
  entryRate: bigint
  stakeTime: bigint
  holdTime: bigint
}

export interface ClosePreview {
  /** Before the fee: principal + reward earned + bonus if matured + fees shared with it. */
  amountOut: bigint
  fee: bigint
  /** What the owner receives: amountOut - fee. */
  received: bigint
  /** Bonus and unearned reward that an early close returns to the reservoir. */
  forfeited: bigint
  gains: bigint
  rewardEarned: bigint
  matured: boolean
}

/** Linear early-withdrawal fee on the principal: unHoldFee percent at the start, 0 at maturity. */
export function earlyWithdrawalFee(amount: bigint, unHoldFee: bigint, holdTime: bigint, elapsed: bigint): bigint {
  if (elapsed >= holdTime) return 0n
  return (amount * (unHoldFee / 100n) * (holdTime - elapsed)) / holdTime / ONE
}

/** What closing active `stake` at `time` pays with the pool's rate at `rate`. */
export function unstakePreview(stake: StakeMath, rate: bigint, time: bigint): ClosePreview {
  const elapsed = time - stake.stakeTime
  const gains = (stake.lpAmount * (rate - stake.entryRate)) / ONE
  if (elapsed >= stake.holdTime) {
    const amountOut = stake.stakeAmount + stake.bonus + stake.reward + gains
    return { amountOut, fee: 0n, received: amountOut, forfeited: 0n, gains, rewardEarned: stake.reward, matured: true }
  }
  const rewardEarned = (stake.reward * elapsed) / stake.holdTime
  const fee = earlyWithdrawalFee(stake.stakeAmount, stake.unHoldFee, stake.holdTime, elapsed)
  const amountOut = stake.stakeAmount + rewardEarned + gains
  return {
    amountOut,
    fee,
    received: amountOut - fee,
    forfeited: stake.bonus + stake.reward - rewardEarned,
    gains,
    rewardEarned,
    matured: false,
  }
}

/** Version 1 streams each early-close fee to the remaining stakes evenly over this time. */
export const FEE_STREAM = 30n * DAY

/**
 * Fees released to holders (version 1): the rate rises by amount / (shares + VIRTUAL_SHARES); the real shares' part
 * is rounded up into the shared fees; the virtual shares' part (`unowned`) stays in the pool for sweep(). No shares, a
 * step that rounds to 0, or a rate at its cap release nothing to holders.
 */
export function shareFee(amount: bigint, rate: bigint, shares: bigint): { rate: bigint; toHolders: bigint; unowned: bigint } {
  if (shares === 0n) return { rate, toHolders: 0n, unowned: amount }
  const step = (amount * ONE) / (shares + VIRTUAL_SHARES)
  if (step === 0n || rate + step > MAX_RATE) return { rate, toHolders: 0n, unowned: amount }
  const toHolders = (step * shares + ONE - 1n) / ONE
  return { rate: rate + step, toHolders, unowned: amount - toHolders }
}

/** The fee stream of a version 1 pool: fees not yet released, released linearly until `streamEnd`. */
export interface FeeStream {
  rate: bigint
  sharedFees: bigint
  pending: bigint
  lastRelease: bigint
  streamEnd: bigint
}

/**
 * Where the stream ends when `newFees` join `pending` (already released up to `t`): the amount-weighted average of
 * the old end and t + FEE_STREAM, so a dust fee cannot postpone a large one.
 */
export function extendedStreamEnd(pending: bigint, newFees: bigint, streamEnd: bigint, t: bigint): bigint {
  const left = streamEnd > t ? streamEnd - t : 0n
  return t + (pending * left + newFees * FEE_STREAM) / (pending + newFees)
}

/** The stream at time `t` with `shares` real shares, after releasing what is due since the last release. */
export function releaseFees(st: FeeStream, shares: bigint, t: bigint): FeeStream & { released: bigint; toHolders: bigint } {
  if (st.pending === 0n || t <= st.lastRelease) return { ...st, released: 0n, toHolders: 0n }
  const released = t >= st.streamEnd ? st.pending : (st.pending * (t - st.lastRelease)) / (st.streamEnd - st.lastRelease)
  if (released === 0n) return { ...st, released: 0n, toHolders: 0n }
  const shared = shareFee(released, st.rate, shares)
  return {
    rate: shared.rate,
    sharedFees: st.sharedFees + shared.toHolders,
    pending: st.pending - released,
    lastRelease: st.lastRelease,
    streamEnd: st.streamEnd,
    released,
    toHolders: shared.toHolders,
  }
}

/** The terms a guarded stake asks for (the pools' `stake(amount, hold, referer, maxFee, minBonus, minReward)`). */
export interface StakeBounds {
  /** The highest early-close fee accepted, 1e18-scaled percent (as the pool's unHoldFee). */
  maxFee: bigint
  /** The least bonus and reward accepted, base units. */
  minBonus: bigint
  minReward: bigint
}

/**
 * The bounds that hold a stake to what its preview showed: the fee the pool charges now (as stored: unHoldFee rounded
 * down to a multiple of 100), and the bonus and reward the preview funds. A stake landing on anything worse reverts
 * naming the term (FeeAboveMax, BonusBelowMin, RewardBelowMin).
 */
export function boundsOf(preview: Pick<StakePreview, 'bonus' | 'reward' | 'feeFraction'>): StakeBounds {
  return { maxFee: preview.feeFraction * 100n, minBonus: preview.bonus, minReward: preview.reward }
}

/** The fee a stake lands with, as its view shows it: unHoldFee rounded down to the stored fraction. */
export function landedFee(unHoldFee: bigint): bigint {
  return (unHoldFee / 100n) * 100n
}

/** The referral bonus of a stake of `amount` held `holdTime`: amount x its referral percent (rounded down). */
export function referralBonus(amount: bigint, refererBonusPercent: bigint, holdTime: bigint, holdTimeMax: bigint): bigint {
  return (amount * (referralBonusPercent(refererBonusPercent, true, holdTime, holdTimeMax) / 100n)) / ONE
}

/**
 * What a referer owes for a referred stake, in BACKING_UNITs rounded down: the referral's part of the bonus the
 * reservoir funded (`fundedBonus` of the stake's `bonusPercent`, pro rata), never more than its nominal referral bonus.
 */
export function referralDebtUnits(nominal: bigint, fundedBonus: bigint, referralPercent: bigint, bonusPercent: bigint): bigint {
  if (bonusPercent === 0n) return 0n
  const funded = (fundedBonus * referralPercent) / bonusPercent
  return (funded < nominal ? funded : nominal) / BACKING_UNIT
}

/**
 * What a referer's stake keeps at stake for a referred stake released at `release` (pool or unix time, as the
 * stake's times): the early-close fee it would still pay if closed then. The referral bonuses it backs never exceed
 * this; closing it any earlier pays at least as much.
 */
export function referralCapacity(
  referer: Pick<StakeMath, 'stakeAmount' | 'unHoldFee' | 'stakeTime' | 'holdTime'>,
  release: bigint,
): bigint {
  const end = referer.stakeTime + referer.holdTime
  if (release > end) return 0n
  return (referer.stakeAmount * (referer.unHoldFee / 100n) * (end - release)) / referer.holdTime / ONE
}

/**
 * How an early-close fee of a stake that backs referrals is split: it pays back what it owes for the referred stakes
 * still open (`owedUnits` BACKING_UNITs) to the reservoir that funded them, at most the fee; the rest is a fee like any
 * other (version 1: streamed to the holders).
 */
export function referralPayback(fee: bigint, owedUnits: bigint): { toReservoir: bigint; rest: bigint } {
  const owed = owedUnits * BACKING_UNIT
  const back = fee < owed ? fee : owed
  return { toReservoir: back, rest: fee - back }
}

/**
 * A referred stake's part of what its backer paid back when the backer closed early (`paid`, for `liveAtClose` units
 * then open): when the referred stake then forfeits its bonus, this part is shared as a fee, not returned again.
 */
export function repaidShare(units: bigint, paid: bigint, liveAtClose: bigint): bigint {
  return liveAtClose === 0n ? 0n : (units * paid) / liveAtClose
}

/** The UTC day (unix time / 1 day) whose start ends a stake's share of the early-close fees: its release day. */
export function expiryDay(stakeTime: bigint, holdTime: bigint): bigint {
  return (stakeTime + holdTime) / DAY
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
