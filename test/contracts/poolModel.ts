import {
  BACKING_UNIT,
  DAY,
  DEFAULT_REFERER_MIN_STAKE,
  expiryDay,
  extendedStreamEnd,
  landedFee,
  MAX_ACCOUNT_TOTAL,
  ONE,
  previewStake,
  referralBonus,
  referralCapacity,
  referralDebtUnits,
  referralPayback,
  repaidShare,
  shareFee,
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
  /** The UTC day whose start ends its share of the fees (its release day). */
  expiry: bigint
  /** Its gains when first seen past its release day's start: they may never grow after. */
  gainsAtExpiry?: bigint
  /** Made through a referral its referer owes for: who, the referer's stake that backs it, what it owes (units). */
  referral?: { referer: string; backerId: bigint; units: bigint }
  /** As a backer: units owed for referred stakes still open; at its early close, what was owed then and paid back. */
  liens: { live: bigint; liveAtClose: bigint; paid: bigint }
}

/** What a referer's referrals cost it over the pool's life (base units and units). */
export interface ModelBacking {
  /** Paid back by its stakes' early closes, and the parts of it later shared as fees when a referral forfeited. */
  paidBack: bigint
  repaidToHolders: bigint
  /** Units of its referrals that did not forfeit their bonus (still open, or closed at maturity). */
  keptUnits: bigint
}

/** One release of the stream: how much, and the day after which stakes still shared it (the last day retired). */
interface Release {
  released: bigint
  atRisk: bigint
  retiredThrough: bigint
}

/** The books at a moment, as the contract's _walk computes them. */
export interface ModelWalk {
  rate: bigint
  sharedFees: bigint
  pending: bigint
  lastRelease: bigint
  atRisk: bigint
  dayDone: bigint
  released: bigint
  toHolders: bigint
  /** Rates at the start of each release day passed. */
  crossed: Map<bigint, bigint>
  releases: Release[]
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
  /** Forfeited bonuses of referred stakes whose backer had already paid them back: shared as fees. */
  repaid: bigint
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
  /** Principal of active stakes whose release day has not begun: the shares fees go to (version 1). */
  atRisk = 0n
  dayDone = 0n
  lastExpiryDay = 0n
  /** UTC day => principal released on it, and the rate at its start once passed. */
  readonly expiries = new Map<bigint, { shares: bigint; rate?: bigint }>()
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

  /** The pool's shares: what getPoolState().totalShares shows (version 2: none at risk). */
  get totalShares(): bigint {
    return this.atRisk
  }

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
    if (!b) this.backing.set(user, (b = { paidBack: 0n, repaidToHolders: 0n, keptUnits: 0n }))
    return b
  }

  /** What stake `s` owes for open referrals, as getReferralBacking shows it (nothing once closed). */
  owedBy(s: ModelStake): bigint {
    return s.active ? s.liens.live * BACKING_UNIT : 0n
  }

  /** The referer's latest stake, when it is active (else a referral names nobody staking). */
  latestActive(referer: string): ModelStake | null {
    const list = this.stakesOf(referer)
    const latest = list[list.length - 1]
    return latest && latest.active ? latest : null
  }

  /** Credits each release of a walk to the stakes that shared it: released x principal / principal at risk. */
  private creditFair(releases: Release[]) {
    for (const r of releases) {
      if (r.released === 0n || r.atRisk === 0n) continue
      for (const list of this.stakes.values())
        for (const s of list) {
          if (!s.active || s.expiry <= r.retiredThrough) continue
          const num = s.fairNum * r.atRisk + r.released * s.stakeAmount * s.fairDen
          const den = s.fairDen * r.atRisk
          const g = gcd(num, den)
          s.fairNum = num / g
          s.fairDen = den / g
        }
    }
  }

  /** An active stake's principal-time-weighted part of the fees released until `time`, as [num, den]. */
  fairAt(stake: ModelStake, time: bigint): [bigint, bigint] {
    let [num, den] = [stake.fairNum, stake.fairDen]
    for (const r of this.walk(time).releases) {
      if (r.released === 0n || r.atRisk === 0n || stake.expiry <= r.retiredThrough) continue
      ;[num, den] = [num * r.atRisk + r.released * stake.stakeAmount * den, den * r.atRisk]
    }
    return [num, den]
  }

  /** The contract's _walk: each release day passed releases the stream to its start, then retires its shares. */
  walk(time: bigint): ModelWalk {
    const w: ModelWalk = {
      rate: this.stream.rate,
      sharedFees: this.stream.sharedFees,
      pending: this.stream.pending,
      lastRelease: this.stream.lastRelease,
      atRisk: this.atRisk,
      dayDone: this.dayDone,
      released: 0n,
      toHolders: 0n,
      crossed: new Map(),
      releases: [],
    }
    if (this.version === 2) return w
    const today = time / DAY
    const last = this.lastExpiryDay < today ? this.lastExpiryDay : today
    let retired = w.dayDone
    const days = [...this.expiries.keys()].filter((d) => d > w.dayDone && d <= last).sort((a, b) => (a < b ? -1 : 1))
    for (const d of days) {
      const e = this.expiries.get(d)!
      if (e.shares === 0n) continue
      this.releaseTo(w, d * DAY, retired)
      w.crossed.set(d, w.rate)
      w.atRisk -= e.shares
      retired = d
    }
    if (today > w.dayDone) w.dayDone = today
    this.releaseTo(w, time, retired)
    return w
  }

  private releaseTo(w: ModelWalk, time: bigint, retiredThrough: bigint) {
    if (w.pending === 0n || time <= w.lastRelease) return
    const end = this.stream.streamEnd
    const released = time >= end ? w.pending : (w.pending * (time - w.lastRelease)) / (end - w.lastRelease)
    if (released === 0n) return
    w.pending -= released
    const shared = shareFee(released, w.rate, w.atRisk)
    w.releases.push({ released, atRisk: w.atRisk, retiredThrough })
    w.rate = shared.rate
    w.sharedFees += shared.toHolders
    w.released += released
    w.toHolders += shared.toHolders
    w.lastRelease = time
  }

  /** The contract's _checkpoint: walks to `time` and keeps it. */
  private checkpoint(time: bigint): ModelWalk {
    const w = this.walk(time)
    if (this.version === 2) return w
    this.creditFair(w.releases)
    for (const [d, rate] of w.crossed) this.expiries.get(d)!.rate = rate
    this.stream = { ...this.stream, rate: w.rate, sharedFees: w.sharedFees, pending: w.pending, lastRelease: w.lastRelease }
    this.atRisk = w.atRisk
    this.dayDone = w.dayDone
    return w
  }

  /** The rate an active stake's gains count to: now while at risk, else its release day's start. */
  rateOf(s: ModelStake, w: ModelWalk): bigint {
    if (this.version === 2 || s.expiry > w.dayDone) return w.rate
    return w.crossed.get(s.expiry) ?? this.expiries.get(s.expiry)!.rate!
  }

  get stakersCount(): bigint {
    return BigInt([...this.stakes.values()].filter((l) => l.some((s) => s.active)).length)
  }

  /** The books as a view at `time` sees them. */
  at(time: bigint) {
    return this.walk(time)
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
    const w = this.at(time)
    return { version: this.version, rate: w.rate, totalShares: w.atRisk, reservoirAvailable, ...this.params }
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
    const units = referralBonus(amount, this.params.refererBonusPercent, hold, this.params.holdTimeMax) / BACKING_UNIT
    if (units === 0n) return null
    if ((s.liens.live + units) * BACKING_UNIT > referralCapacity(s, release)) return 'ReferralNotBacked'
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
    // The referer's latest stake backs it (checked by referralRefusal before anything moves).
    const backer = typeof referer === 'string' ? this.latestActive(referer)! : null
    this.checkpoint(time)
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
      expiry: expiryDay(time, p.holdTime),
      liens: { live: 0n, liveAtClose: 0n, paid: 0n },
    }
    list.push(stake)
    if (backer && typeof referer === 'string') {
      const nominal = referralBonus(amount, this.params.refererBonusPercent, p.holdTime, this.params.holdTimeMax)
      const units = referralDebtUnits(nominal, p.bonus, p.referralBonusPercent, p.bonusPercent)
      if (units !== 0n) {
        stake.referral = { referer, backerId: backer.id, units }
        backer.liens.live += units
        this.backingOf(referer).keptUnits += units
      }
    }
    this.totalStaked += amount
    this.committed += amount + p.bonus + p.reward
    // Version 2 shares no fee: all its active principal counts as its shares.
    this.atRisk += amount
    if (this.version === 1) {
      const e = this.expiries.get(stake.expiry) ?? { shares: 0n }
      e.shares += amount
      this.expiries.set(stake.expiry, e)
      if (stake.expiry > this.lastExpiryDay) this.lastExpiryDay = stake.expiry
    }
    return { stake, preview: p }
  }

  /** What closing `user`'s stake `id` at `time` would pay, without booking it. */
  preview(stake: ModelStake, time: bigint): ClosePreview {
    return unstakePreview(stake, this.rateOf(stake, this.at(time)), time)
  }

  /** A copy to try a transaction on: a refused one leaves the model as it was. */
  clone(): PoolModel {
    return Object.assign(Object.create(PoolModel.prototype) as PoolModel, structuredClone({ ...this }))
  }

  /** Why restake(ids, hold, ...) must revert before it closes anything, or null (then the stake's own refusal). */
  restakeRefusal(user: string, ids: bigint[], time: bigint): StakeRefusal | 'StakeNotMatured' | 'StakeNotActive' {
    const seen = new Set<bigint>()
    for (const id of ids) {
      const s = this.stakesOf(user)[Number(id)]
      if (!s.active || seen.has(id)) return 'StakeNotActive'
      seen.add(id)
      if (time - s.stakeTime < s.holdTime) return 'StakeNotMatured'
    }
    return null
  }

  /** Books closing `ids` of `user` at `time`, one after the other as unstake(ids) does. */
  close(user: string, ids: bigint[], time: bigint): CloseResult {
    const list = this.stakesOf(user)
    const result: CloseResult = { toUser: 0n, toReservoir: 0n, closes: [], paidBack: 0n, otherFees: 0n, repaid: 0n }
    const w = this.checkpoint(time)
    let sharedFees = w.sharedFees
    let newFees = 0n
    for (const id of ids) {
      const s = list[Number(id)]
      const c = unstakePreview(s, this.rateOf(s, w), time)
      const early = time - s.stakeTime < s.holdTime
      this.totalStaked -= s.stakeAmount
      if (this.version === 2) this.atRisk -= s.stakeAmount
      else if (s.expiry > w.dayDone) {
        this.atRisk -= s.stakeAmount
        this.expiries.get(s.expiry)!.shares -= s.stakeAmount
      }
      this.committed -= s.stakeAmount + s.bonus + s.reward
      sharedFees -= c.gains
      if (sharedFees < 0n) throw new Error('model: shared fees went negative')
      result.toUser += c.received
      this.feesEver += c.fee
      // A referred stake takes its referer's debt with it; a forfeited bonus its backer already paid back is a fee.
      let repaid = 0n
      if (s.referral) {
        const backer = this.stakesOf(s.referral.referer)[Number(s.referral.backerId)]
        if (backer.active) backer.liens.live -= s.referral.units
        else if (early) repaid = repaidShare(s.referral.units, backer.liens.paid, backer.liens.liveAtClose)
        const b = this.backingOf(s.referral.referer)
        if (early) b.keptUnits -= s.referral.units
        b.repaidToHolders += repaid
        s.referral = undefined
      }
      result.toReservoir += c.forfeited - repaid
      result.repaid += repaid
      let fee = c.fee
      if (fee !== 0n && s.liens.live !== 0n) {
        const split = referralPayback(fee, s.liens.live)
        s.liens.liveAtClose = s.liens.live
        s.liens.paid = split.toReservoir
        this.backingOf(user).paidBack += split.toReservoir
        result.paidBack += split.toReservoir
        result.toReservoir += split.toReservoir
        fee = split.rest
      }
      result.otherFees += fee
      if (this.version === 1) newFees += fee + repaid
      else result.toReservoir += fee + repaid
      s.active = false
      s.closeTime = time
      s.closed = c
      result.closes.push(c)
    }
    let pending = w.pending + newFees
    if (this.totalStaked === 0n) {
      result.toReservoir += sharedFees + pending
      sharedFees = 0n
      pending = 0n
    }
    if (this.version === 1) {
      const streamEnd =
        newFees !== 0n && pending !== 0n
          ? extendedStreamEnd(w.pending, newFees, this.stream.streamEnd, time)
          : this.stream.streamEnd
      this.stream = { rate: w.rate, sharedFees, pending, lastRelease: time, streamEnd }
    }
    return result
  }
}
