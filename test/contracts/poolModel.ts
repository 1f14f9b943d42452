import {
  DAY,
  MAX_ACCOUNT_TOTAL,
  ONE,
  previewStake,
  shareFee,
  unstakePreview,
  type ClosePreview,
  type PoolMathState,
  type PoolVersion,
  type StakeMath,
} from '../../src/chain/math'

/** Pool parameters as setParameters takes them. */
export interface ModelParams {
  inflationPercent: bigint
  refererBonusPercent: bigint
  timeBonusPercent: bigint
  unHoldFee: bigint
  holdTimeRefMin: bigint
  holdTimeMax: bigint
}

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
  | null

/**
 * The books of one pool, kept with the math module (src/chain/math.ts) in the order the contract keeps them. The
 * property test runs every command on the chain and on this model and compares them to the wei.
 */
export class PoolModel {
  rate = ONE
  totalShares = 0n
  totalStaked = 0n
  /** Principal + bonus + reward of active stakes. */
  committed = 0n
  /** Fees shared with holders and not paid yet. */
  sharedFees = 0n
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

  get obligations(): bigint {
    return this.committed + this.sharedFees
  }

  mathState(reservoirAvailable: bigint): PoolMathState {
    return { version: this.version, rate: this.rate, totalShares: this.totalShares, reservoirAvailable, ...this.params }
  }

  /** The refusal stake(amount, holdTime, referer) must meet, checked in the contract's order. */
  stakeRefusal(user: string, amount: bigint, holdTime: bigint, referer: string | null, reservoirAvailable: bigint): StakeRefusal {
    const hold = (holdTime / DAY) * DAY
    let min = DAY
    if (referer) {
      if (referer === user) return 'SelfReferral'
      if (this.activeOf(referer).length === 0) return 'RefererNotStaking'
      if (this.params.holdTimeRefMin > min) min = this.params.holdTimeRefMin
    }
    if (hold < min || hold > this.params.holdTimeMax) return 'InvalidHoldTime'
    return this.commonRefusal(user, amount, holdTime, referer !== null, reservoirAvailable)
  }

  commonRefusal(
    user: string,
    amount: bigint,
    holdTime: bigint,
    hasReferer: boolean,
    reservoirAvailable: bigint,
    term?: bigint,
  ): StakeRefusal {
    if (this.paused) return 'StakingIsPaused'
    if (amount === 0n) return 'ZeroAmount'
    if (amount >= 2n ** 96n) return 'StakeTooLarge'
    const { shares } = previewStake(this.mathState(reservoirAvailable), amount, holdTime, hasReferer, term)
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
    const p = previewStake(this.mathState(reservoirAvailable), amount, holdTime, hasReferer, termBonusPercent)
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
      entryRate: this.rate,
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
    return unstakePreview(stake, this.rate, time)
  }

  /** Books closing `ids` of `user` at `time`, one after the other as unstake(ids) does. */
  close(user: string, ids: bigint[], time: bigint): CloseResult {
    const list = this.stakesOf(user)
    const result: CloseResult = { toUser: 0n, toReservoir: 0n, closes: [] }
    for (const id of ids) {
      const s = list[Number(id)]
      const c = unstakePreview(s, this.rate, time)
      this.totalShares -= s.lpAmount
      this.totalStaked -= s.stakeAmount
      this.committed -= s.stakeAmount + s.bonus + s.reward
      this.sharedFees -= c.gains
      if (this.sharedFees < 0n) throw new Error('model: shared fees went negative')
      result.toUser += c.received
      result.toReservoir += c.forfeited
      if (c.fee !== 0n) {
        this.feesEver += c.fee
        const shared = shareFee(this.version, c.fee, this.rate, this.totalShares)
        this.rate = shared.rate
        this.sharedFees += shared.toHolders
        result.toReservoir += shared.toReservoir
      }
      s.active = false
      s.closeTime = time
      s.closed = c
      result.closes.push(c)
    }
    if (this.totalShares === 0n) {
      result.toReservoir += this.sharedFees
      this.sharedFees = 0n
    }
    return result
  }
}
