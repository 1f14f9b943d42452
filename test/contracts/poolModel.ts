import {
  backingUnits,
  BACKING_UNIT,
  DAY,
  DEFAULT_REFERER_MIN_STAKE,
  extendedStreamEnd,
  landedFee,
  MAX_ACCOUNT_TOTAL,
  ONE,
  previewStake,
  referralBacking,
  referralCapacity,
  referralPayback,
  releaseFees,
  unstakePreview,
  type FeeStream,
  type ClosePreview,
  type PoolMathState,
  type PoolParams,
  type PoolVersion,
  type StakeMath,
} from '../../src/domain/math'

/** Pool parameters as setParameters takes them. */
export type ModelParams = PoolParams

export interface ModelStake extends StakeMath {
  id: bigint
  active: boolean
  closeTime: bigint
  /** What the close paid (amountOut, fee, forfeited), once closed. */
  closed?: ClosePreview
  /**
   * Its principal-time-weighted part of the fees released while it was active, as the fraction fairNum / fairDen:
   * each release's amount x its principal / all active principal. Its gains may never exceed it.
   */
  fairNum: bigint
  fairDen: bigint
}

/**
 * A referer account's backing (StakingPoolBase.Account): the BACKING_UNITs of referral bonus it backs and has not paid
 * back (across its stakes; nothing once `backedUntil` has passed), and until when its early-close fees pay them back.
 */
export interface ModelBacking {
  backed: bigint
  backedUntil: bigint
  /**
   * The model's own record since the account last owed nothing at a referral: each referral's units, the referred
   * stake's release and the referer's stake that backed it; and the units paid back since (rounded as the pool does).
   */
  referrals: { units: bigint; release: bigint; backer: ModelStake }[]
  paidUnits: bigint
  /** Over the pool's life: units of referral bonus ever backed, and fees (base units) ever sent back for them. */
  unitsEver: bigint
  paidBackEver: bigint
}

/** The five-argument stake's minimums as the model's bounds. */
export const minimumsBounds = (m?: [bigint, bigint]): ModelBounds | undefined =>
  m ? { minBonus: m[0], minReward: m[1], named: false } : undefined

/** What a stake form accepts: the guarded form names the refused term, the older ones say RewardsUnavailable. */
export interface ModelBounds {
  maxFee?: bigint
  minBonus?: bigint
  minReward?: bigint
  named: boolean
}

export interface CloseResult {
  toUser: bigint
  toReservoir: bigint
  closes: ClosePreview[]
  /** Of the batch's fees: what paid back the referral bonuses the closer backs (to the reservoir), and the rest. */
  paidBack: bigint
  otherFees: bigint
}

/** Why the model expects stake() to revert, or null when it should succeed. */
export type StakeRefusal =
  | 'StakingIsPaused'
  | 'ZeroAmount'
  | 'StakeTooLarge'
  | 'InvalidHoldTime'
  | 'SelfReferral'
  | 'RefererNotStaking'
  | 'RefererStakeTooSmall'
  | 'RefererStakeTooNew'
  | 'RefererReleasedFirst'
  | 'ReferralNotBacked'
  | 'FeeAboveMax'
  | 'BonusBelowMin'
  | 'RewardBelowMin'
  | 'AccountLimit'
  | 'RewardsUnavailable'
  | 'TermNotOffered'
  | null

const MAX_UINT = 2n ** 256n - 1n
const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

/**
 * The books of one pool, kept with the math module (src/domain/math.ts) in the order the contract keeps them. The
 * property test runs every command on the chain and on this model and compares them to the wei.
 */
export class PoolModel {
  /** The stored fee stream (version 1); views release what is due at their own time. */
  stream: FeeStream = { rate: ONE, sharedFees: 0n, pending: 0n, lastRelease: 0n, streamEnd: 0n }
  totalShares = 0n
  totalStaked = 0n
  /** Principal + bonus + reward of active stakes. */
  committed = 0n
  /** Every early-close fee ever charged: the rate can never have risen by more. */
  feesEver = 0n
  paused = false
  refererMinStake = DEFAULT_REFERER_MIN_STAKE
  /** The harvest terms stakeFor offers (hold in seconds, bonus percent). */
  terms: { hold: bigint; bonus: bigint }[] = []
  readonly stakes = new Map<string, ModelStake[]>()
  readonly backing = new Map<string, ModelBacking>()

  constructor(
    readonly version: PoolVersion,
    public params: ModelParams,
  ) {}

  stakesOf(user: string): ModelStake[] {
    let list = this.stakes.get(user)
    if (!list) this.stakes.set(user, (list = []))
    return list
  }

  activeOf(user: string): ModelStake[] {
    return this.stakesOf(user).filter((s) => s.active)
  }

  backingOf(user: string): ModelBacking {
    let b = this.backing.get(user)
    if (!b)
      this.backing.set(user, (b = { backed: 0n, backedUntil: 0n, referrals: [], paidUnits: 0n, unitsEver: 0n, paidBackEver: 0n }))
    return b
  }

  /** The units of referral bonus `user` backs and has not paid back at `time` (none once all it referred is released). */
  owedAt(user: string, time: bigint): bigint {
    const b = this.backingOf(user)
    return time < b.backedUntil ? b.backed : 0n
  }

  /** The referer's latest stake, when it is active (else a referral names nobody staking). */
  latestActive(referer: string): ModelStake | null {
    const list = this.stakesOf(referer)
    const latest = list[list.length - 1]
    return latest && latest.active ? latest : null
  }

  /**
   * Credits the fees released at `time` to the active stakes' principal-time-weighted parts: each gets released x
   * its principal / all active principal (what the chain's release shares by shares = principal).
   */
  private creditFair(released: bigint) {
    if (released === 0n || this.totalShares === 0n) return
    for (const list of this.stakes.values())
      for (const s of list) {
        if (!s.active) continue
        // fair += released * P / S
        const num = s.fairNum * this.totalShares + released * s.stakeAmount * s.fairDen
        const den = s.fairDen * this.totalShares
        const g = gcd(num, den)
        s.fairNum = num / g
        s.fairDen = den / g
      }
  }

  /** An active stake's principal-time-weighted part of the fees released until `time`, as [num, den]. */
  fairAt(stake: ModelStake, time: bigint): [bigint, bigint] {
    const released = this.version === 1 ? this.at(time).released : 0n
    if (released === 0n || this.totalShares === 0n) return [stake.fairNum, stake.fairDen]
    return [stake.fairNum * this.totalShares + released * stake.stakeAmount * stake.fairDen, stake.fairDen * this.totalShares]
  }

  get stakersCount(): bigint {
    return BigInt([...this.stakes.values()].filter((l) => l.some((s) => s.active)).length)
  }

  /** The stream as a view at `time` sees it. */
  at(time: bigint) {
    return releaseFees(this.stream, this.totalShares, time)
  }

  /** What the pool owes, as getPoolState() shows it at `time`. */
  obligationsAt(time: bigint): bigint {
    const st = this.at(time)
    return this.committed + st.sharedFees + st.pending
  }

  /** What the pool owes by its stored books (what sweep() keeps). */
  get storedObligations(): bigint {
    return this.committed + this.stream.sharedFees + this.stream.pending
  }

  mathState(reservoirAvailable: bigint, time: bigint): PoolMathState {
    return { version: this.version, rate: this.at(time).rate, totalShares: this.totalShares, reservoirAvailable, ...this.params }
  }

  /** The refusal stake(amount, holdTime, referer) must meet, checked in the contract's order. */
  stakeRefusal(
    user: string,
    amount: bigint,
    holdTime: bigint,
    referer: string | null,
    reservoirAvailable: bigint,
    time: bigint,
    bounds?: ModelBounds,
  ): StakeRefusal {
    const hold = (holdTime / DAY) * DAY
    let min = DAY
    if (referer) {
      if (referer === user) return 'SelfReferral'
      if (this.params.holdTimeRefMin > min) min = this.params.holdTimeRefMin
    }
    if (hold < min || hold > this.params.holdTimeMax) return 'InvalidHoldTime'
    return this.commonRefusal(user, amount, holdTime, referer, reservoirAvailable, time, undefined, bounds)
  }

  /** The refusal of a referral of `amount` held `hold` from `time` by `referer`'s latest stake, or null. */
  referralRefusal(referer: string, amount: bigint, hold: bigint, time: bigint): StakeRefusal {
    const s = this.latestActive(referer)
    if (!s) return 'RefererNotStaking'
    if (s.stakeAmount < this.refererMinStake) return 'RefererStakeTooSmall'
    if (s.stakeTime >= time) return 'RefererStakeTooNew'
    const release = time + (hold / DAY) * DAY
    if (s.stakeTime + s.holdTime < release) return 'RefererReleasedFirst'
    const bonus = referralBacking(amount, this.params.refererBonusPercent)
    if (bonus === 0n) return null
    const units = this.owedAt(referer, time) + backingUnits(bonus)
    if (units * BACKING_UNIT > referralCapacity(s, release)) return 'ReferralNotBacked'
    return null
  }

  commonRefusal(
    user: string,
    amount: bigint,
    holdTime: bigint,
    referer: string | boolean | null,
    reservoirAvailable: bigint,
    time: bigint,
    term?: bigint,
    bounds?: ModelBounds,
  ): StakeRefusal {
    // A referer's address is checked against its latest stake; `true` (a snapshot without stakes) only adds the bonus.
    const hasReferer = referer !== null && referer !== false
    if (this.paused) return 'StakingIsPaused'
    if (amount === 0n) return 'ZeroAmount'
    if (amount >= 2n ** 96n) return 'StakeTooLarge'
    if (bounds?.maxFee !== undefined && landedFee(this.params.unHoldFee) > bounds.maxFee) return 'FeeAboveMax'
    if (typeof referer === 'string') {
      const r = this.referralRefusal(referer, amount, holdTime, time)
      if (r) return r
    }
    const p = previewStake(this.mathState(reservoirAvailable, time), amount, holdTime, hasReferer, term)
    // The floor: the full terms, or the stated minimums (even above what the pool now offers).
    // type(uint256).max stands for the full terms, as the 2/3-argument forms ask.
    const floor = (stated: bigint | undefined, wanted: bigint) => (stated === undefined || stated === MAX_UINT ? wanted : stated)
    const [minBonus, minReward] = [floor(bounds?.minBonus, p.bonusWanted), floor(bounds?.minReward, p.rewardWanted)]
    if (p.bonus < minBonus || p.reward < minReward) {
      // A reservoir short of the full terms says what it can fund; otherwise the guarded forms name the term.
      const short = p.bonus + p.reward < p.bonusWanted + p.rewardWanted
      if (!bounds?.named || short) return 'RewardsUnavailable'
      return p.bonus < minBonus ? 'BonusBelowMin' : 'RewardBelowMin'
    }
    const active = this.activeOf(user)
    const staked = active.reduce((sum, s) => sum + s.stakeAmount, amount)
    if (staked > MAX_ACCOUNT_TOTAL) return 'AccountLimit'
    return null
  }

  /** Books a stake made at `time`; returns it with what the reservoir funded. */
  stake(
    user: string,
    amount: bigint,
    holdTime: bigint,
    referer: string | boolean | null,
    reservoirAvailable: bigint,
    time: bigint,
    termBonusPercent?: bigint,
  ) {
    const hasReferer = typeof referer === 'string' || referer === true
    if (typeof referer === 'string') {
      // The referer's latest stake backs the referral and what the referer still owes (checked by referralRefusal).
      const bonus = referralBacking(amount, this.params.refererBonusPercent)
      if (bonus !== 0n) {
        const b = this.backingOf(referer)
        if (time >= b.backedUntil) Object.assign(b, { backed: 0n, referrals: [], paidUnits: 0n })
        const units = backingUnits(bonus)
        b.backed += units
        b.unitsEver += units
        const release = time + (holdTime / DAY) * DAY
        if (release > b.backedUntil) b.backedUntil = release
        b.referrals.push({ units, release, backer: this.latestActive(referer)! })
      }
    }
    if (this.version === 1) {
      // stake() releases the streamed fees first, but writes only when something is released.
      const st = this.at(time)
      if (st.released !== 0n) {
        this.creditFair(st.released)
        this.stream = { ...st, lastRelease: time }
      }
    }
    const p = previewStake(this.mathState(reservoirAvailable, time), amount, holdTime, hasReferer, termBonusPercent)
    const list = this.stakesOf(user)
    const stake: ModelStake = {
      id: BigInt(list.length),
      active: true,
      closeTime: 0n,
      stakeAmount: amount,
      bonus: p.bonus,
      reward: p.reward,
      lpAmount: p.shares,
      unHoldFee: p.feeFraction * 100n,
      entryRate: this.stream.rate,
      stakeTime: time,
      holdTime: p.holdTime,
      fairNum: 0n,
      fairDen: 1n,
    }
    list.push(stake)
    // Its new stake is the user's latest; what the user owes as a referer stays until paid back or released.
    this.totalShares += p.shares
    this.totalStaked += amount
    this.committed += amount + p.bonus + p.reward
    return { stake, preview: p }
  }

  /** What closing `user`'s stake `id` at `time` would pay, without booking it. */
  preview(stake: ModelStake, time: bigint): ClosePreview {
    return unstakePreview(stake, this.at(time).rate, time)
  }

  /** Books closing `ids` of `user` at `time`, one after the other as unstake(ids) does. */
  close(user: string, ids: bigint[], time: bigint): CloseResult {
    const list = this.stakesOf(user)
    const result: CloseResult = { toUser: 0n, toReservoir: 0n, closes: [], paidBack: 0n, otherFees: 0n }
    const st = this.at(time)
    this.creditFair(st.released)
    let { rate, sharedFees } = st
    let newFees = 0n
    const backing = this.backingOf(user)
    for (const id of ids) {
      const s = list[Number(id)]
      const c = unstakePreview(s, rate, time)
      this.totalShares -= s.lpAmount
      this.totalStaked -= s.stakeAmount
      this.committed -= s.stakeAmount + s.bonus + s.reward
      sharedFees -= c.gains
      if (sharedFees < 0n) throw new Error('model: shared fees went negative')
      result.toUser += c.received
      result.toReservoir += c.forfeited
      this.feesEver += c.fee
      // A referer's fee first pays back the referral bonuses it still owes, to the reservoir that funded them.
      const owed = this.owedAt(user, time)
      const split = referralPayback(c.fee, owed)
      backing.paidUnits += owed - split.owedUnits
      if (time < backing.backedUntil) backing.backed = split.owedUnits
      backing.paidBackEver += split.toReservoir
      result.paidBack += split.toReservoir
      result.otherFees += split.rest
      result.toReservoir += split.toReservoir
      if (this.version === 1) newFees += split.rest
      else result.toReservoir += split.rest
      s.active = false
      s.closeTime = time
      s.closed = c
      result.closes.push(c)
    }
    let pending = st.pending + newFees
    if (this.totalShares === 0n) {
      result.toReservoir += sharedFees + pending
      sharedFees = 0n
      pending = 0n
    }
    rate = st.rate
    const streamEnd =
      newFees !== 0n && pending !== 0n
        ? extendedStreamEnd(st.pending, newFees, this.stream.streamEnd, time)
        : this.stream.streamEnd
    this.stream = { rate, sharedFees, pending, lastRelease: time, streamEnd }
    return result
  }
}
