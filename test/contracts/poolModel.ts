import {
  DAY,
  extendedStreamEnd,
  MAX_ACCOUNT_TOTAL,
  ONE,
  previewStake,
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
}

export interface CloseResult {
  toUser: bigint
  toReservoir: bigint
  closes: ClosePreview[]
}

/** Why the model expects stake() to revert, or null when it should succeed. */
export type StakeRefusal =
  | 'StakingIsPaused'
  | 'ZeroAmount'
  | 'StakeTooLarge'
  | 'InvalidHoldTime'
  | 'SelfReferral'
  | 'RefererNotStaking'
  | 'ZeroShares'
  | 'AccountLimit'
  | 'RewardsUnavailable'
  | null

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
  readonly stakes = new Map<string, ModelStake[]>()

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
    minimums?: [bigint, bigint],
  ): StakeRefusal {
    const hold = (holdTime / DAY) * DAY
    let min = DAY
    if (referer) {
      if (referer === user) return 'SelfReferral'
      if (this.activeOf(referer).length === 0) return 'RefererNotStaking'
      if (this.params.holdTimeRefMin > min) min = this.params.holdTimeRefMin
    }
    if (hold < min || hold > this.params.holdTimeMax) return 'InvalidHoldTime'
    return this.commonRefusal(user, amount, holdTime, referer !== null, reservoirAvailable, time, undefined, minimums)
  }

  commonRefusal(
    user: string,
    amount: bigint,
    holdTime: bigint,
    hasReferer: boolean,
    reservoirAvailable: bigint,
    time: bigint,
    term?: bigint,
    minimums?: [bigint, bigint],
  ): StakeRefusal {
    if (this.paused) return 'StakingIsPaused'
    if (amount === 0n) return 'ZeroAmount'
    if (amount >= 2n ** 96n) return 'StakeTooLarge'
    const p = previewStake(this.mathState(reservoirAvailable, time), amount, holdTime, hasReferer, term)
    // The floor: the full terms, or the stated minimums (even above what the pool now offers).
    // type(uint256).max stands for the full terms, as the 2/3-argument forms ask.
    const MAX = 2n ** 256n - 1n
    const floor = (stated: bigint | undefined, wanted: bigint) => (stated === undefined || stated === MAX ? wanted : stated)
    const [minBonus, minReward] = [floor(minimums?.[0], p.bonusWanted), floor(minimums?.[1], p.rewardWanted)]
    if (p.bonus < minBonus || p.reward < minReward) return 'RewardsUnavailable'
    const { shares } = p
    if (shares === 0n) return 'ZeroShares'
    const active = this.activeOf(user)
    const staked = active.reduce((sum, s) => sum + s.stakeAmount, amount)
    const allShares = active.reduce((sum, s) => sum + s.lpAmount, shares)
    if (staked > MAX_ACCOUNT_TOTAL || allShares > MAX_ACCOUNT_TOTAL) return 'AccountLimit'
    return null
  }

  /** Books a stake made at `time`; returns it with what the reservoir funded. */
  stake(
    user: string,
    amount: bigint,
    holdTime: bigint,
    hasReferer: boolean,
    reservoirAvailable: bigint,
    time: bigint,
    termBonusPercent?: bigint,
  ) {
    if (this.version === 1) {
      // stake() releases the streamed fees first, but writes only when something is released.
      const st = this.at(time)
      if (st.released !== 0n) this.stream = { ...st, lastRelease: time }
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
    }
    list.push(stake)
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
    const result: CloseResult = { toUser: 0n, toReservoir: 0n, closes: [] }
    const st = this.at(time)
    let { rate, sharedFees } = st
    let newFees = 0n
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
      if (this.version === 1) newFees += c.fee
      else result.toReservoir += c.fee
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
