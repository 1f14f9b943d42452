import fc from 'fast-check'
import {
  BACKING_UNIT,
  boundsOf,
  landedFee,
  referralBonus,
  referralDebtUnits,
  repaidShare,
  expiryDay,
  referralCapacity,
  referralPayback,
  DAY,
  MAX_RATE,
  ONE,
  PERCENT,
  VIRTUAL_SHARES,
  YEAR,
  FEE_STREAM,
  earlyWithdrawalFee,
  lengthBonusPercent,
  normalizeHoldTime,
  poolParams,
  previewStake,
  progressBasisPoints,
  releaseFees,
  rewardFraction,
  shareFee,
  termApr,
  unstakePreview,
  type FeeStream,
  type PoolMathState,
  type StakeMath,
} from './math'

const T = (n: bigint) => n * ONE
const pool = (over: Partial<PoolMathState> = {}): PoolMathState => ({
  version: 1,
  rate: ONE,
  totalShares: 0n,
  inflationPercent: 400n * ONE,
  refererBonusPercent: 5n * ONE,
  timeBonusPercent: 30n * ONE,
  unHoldFee: 100n * ONE,
  holdTimeRefMin: 30n * DAY,
  holdTimeMax: 1095n * DAY,
  reservoirAvailable: T(1_000_000n),
  ...over,
})

describe('bonuses, reward and hold times', () => {
  it('length bonus scales with whole days over the maximum', () => {
    expect(lengthBonusPercent(30n * ONE, 365n * DAY + 100n, 1095n * DAY)).toBe(10n * ONE)
    expect(lengthBonusPercent(30n * ONE, 1095n * DAY, 1095n * DAY)).toBe(30n * ONE)
    expect(lengthBonusPercent(30n * ONE, DAY, 0n)).toBe(0n)
  })
  it('reads the owner-set parameters from strings, numbers or bigints alike', () => {
    const asText = {
      ...pool(),
      holdTimeMax: String(1095n * DAY),
      unHoldFee: (100n * ONE).toString(),
      holdTimeRefMin: 30 * 86_400,
    }
    const { inflationPercent, refererBonusPercent, timeBonusPercent, unHoldFee, holdTimeRefMin, holdTimeMax } = pool()
    const params = { inflationPercent, refererBonusPercent, timeBonusPercent, unHoldFee, holdTimeRefMin, holdTimeMax }
    expect(poolParams(asText)).toEqual(params)
    expect(poolParams(pool())).toEqual(params)
  })
  it('hold times round down to whole days', () => {
    expect(normalizeHoldTime(DAY * 2n - 1n)).toBe(DAY)
  })
  it('the reward is simple interest over the whole hold, as a fraction of the principal', () => {
    // 400% a year: 4x the principal over a year, 1.2x over 109.5 days rounded down to 109 days.
    expect(rewardFraction(400n * ONE, YEAR)).toBe(4n * ONE)
    expect(rewardFraction(400n * ONE, 109n * DAY + DAY / 2n)).toBe((400n * ONE * 109n * DAY) / YEAR / 100n)
    expect(rewardFraction(0n, YEAR)).toBe(0n)
  })
})

describe('previewStake', () => {
  it('funds the length and referral bonus and the reward in full when the reservoir can (version 1)', () => {
    const p = previewStake(pool({ rate: 2n * ONE, totalShares: T(100n) }), T(1000n), 365n * DAY, true)
    expect(p).toMatchObject({
      holdTime: 365n * DAY,
      lengthBonusPercent: 10n * ONE,
      // The referral bonus grows with the hold as the length bonus does: 5% x 365 / 1095.
      referralBonusPercent: (5n * ONE * 365n) / 1095n,
      bonusPercent: 10n * ONE + (5n * ONE * 365n) / 1095n,
      bonusWanted: (T(1000n) * ((10n * ONE + (5n * ONE * 365n) / 1095n) / 100n)) / ONE,
      bonus: (T(1000n) * ((10n * ONE + (5n * ONE * 365n) / 1095n) / 100n)) / ONE,
      rewardWanted: T(4000n),
      reward: T(4000n),
      bonusFraction: (10n * ONE + (5n * ONE * 365n) / 1095n) / 100n,
      rewardFraction: 4n * ONE,
      feeFraction: ONE,
      rate: 2n * ONE,
      // Shares are the principal, whatever the rate: neither the bonus nor the reward earns a share of other
      // stakers' fees.
      shares: T(1000n),
      totalSharesAfter: T(1100n),
      atMaturity: T(5000n) + (T(1000n) * ((10n * ONE + (5n * ONE * 365n) / 1095n) / 100n)) / ONE,
    })
    expect(p.shareOfPool).toBe((T(1000n) * ONE) / T(1100n))
  })

  it('funds the bonus first when the reservoir is short, and the reward gets what is left', () => {
    const wanted = previewStake(pool(), T(1000n), 365n * DAY, false)
    expect([wanted.bonusWanted, wanted.rewardWanted]).toEqual([T(100n), T(4000n)])
    const rewardShort = previewStake(pool({ reservoirAvailable: T(500n) }), T(1000n), 365n * DAY, false)
    expect(rewardShort).toMatchObject({ bonusWanted: T(100n), bonus: T(100n), rewardWanted: T(4000n), reward: T(400n) })
    expect(rewardShort.atMaturity).toBe(T(1500n))
    const bonusShort = previewStake(pool({ reservoirAvailable: T(60n) }), T(1000n), 365n * DAY, false)
    expect(bonusShort).toMatchObject({ bonus: T(60n), reward: 0n, shares: T(1000n) })
    const empty = previewStake(pool({ reservoirAvailable: 0n }), T(1000n), 365n * DAY, true)
    expect(empty).toMatchObject({
      bonusPercent: 10n * ONE + (5n * ONE * 365n) / 1095n,
      bonus: 0n,
      reward: 0n,
      shares: T(1000n),
      atMaturity: T(1000n),
    })
  })

  it('never funds more than the reservoir has or than was wanted, for any amount, hold and reservoir', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 96n - 1n }),
        fc.integer({ min: 1, max: 1095 }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.boolean(),
        (amount, days, reservoir, referred) => {
          const p = previewStake(pool({ reservoirAvailable: reservoir }), amount, BigInt(days) * DAY, referred)
          expect(p.bonus + p.reward).toBeLessThanOrEqual(
            reservoir > p.bonusWanted + p.rewardWanted ? p.bonusWanted + p.rewardWanted : reservoir,
          )
          expect(p.bonus).toBeLessThanOrEqual(p.bonusWanted)
          expect(p.reward).toBeLessThanOrEqual(p.rewardWanted)
          // The stored fractions give back exactly the funded amounts.
          expect((amount * p.bonusFraction) / ONE).toBe(p.bonus)
          expect((amount * p.rewardFraction) / ONE).toBe(p.reward)
        },
      ),
      { numRuns: 300, seed: 12 },
    )
  })

  it('mints the amount in version 2 (rate 1e18, no reward) and uses a harvest term bonus when given', () => {
    const v2 = pool({ version: 2, inflationPercent: 0n, refererBonusPercent: 0n, timeBonusPercent: 50n * ONE })
    expect(previewStake(v2, T(100n), 1095n * DAY, false)).toMatchObject({ shares: T(100n), reward: 0n, atMaturity: T(150n) })
    // A harvest term replaces the length and referral bonus; version 1 adds the reward for the term's hold.
    expect(previewStake(v2, T(100n), 90n * DAY, true, 20n * ONE)).toMatchObject({
      bonusPercent: 20n * ONE,
      lengthBonusPercent: 0n,
      referralBonusPercent: 0n,
      bonus: T(20n),
      shares: T(100n),
    })
    const term = previewStake(pool(), T(100n), 73n * DAY, false, 5n * ONE)
    expect([term.bonus, term.reward]).toEqual([T(5n), T(80n)])
  })

  it('makes no shares of a zero amount', () => {
    expect(previewStake(pool(), 0n, 365n * DAY, false)).toMatchObject({ bonus: 0n, reward: 0n, shares: 0n, shareOfPool: 0n })
  })
})

describe('unstakePreview', () => {
  // 1,000 for 365 days at 400% with a 10% bonus, made at rate 1; the rate has since risen 10% from others' fees.
  const stake: StakeMath = {
    stakeAmount: T(1000n),
    bonus: T(100n),
    reward: T(4000n),
    lpAmount: T(1100n),
    unHoldFee: 100n * ONE,
    entryRate: ONE,
    stakeTime: 1_000n,
    holdTime: 365n * DAY,
  }
  const rate = (11n * ONE) / 10n

  it('an early close pays the principal less the fee, the reward earned so far and the gains; the bonus is forfeited', () => {
    const r = unstakePreview(stake, rate, 1_000n + 73n * DAY)
    expect(r).toEqual({
      rewardEarned: T(800n),
      gains: T(110n),
      fee: T(800n),
      amountOut: T(1000n + 800n + 110n),
      received: T(1110n),
      // The whole bonus and the reward not yet earned go back to the reservoir.
      forfeited: T(100n + 4000n - 800n),
      matured: false,
    })
  })

  it('a close one second in forfeits almost everything and returns less than was put in', () => {
    const r = unstakePreview({ ...stake, lpAmount: T(1100n), entryRate: rate }, rate, 1_001n)
    expect(r.gains).toBe(0n)
    expect(r.received).toBeLessThan(stake.stakeAmount)
    expect(r.forfeited + r.rewardEarned).toBe(stake.bonus + stake.reward)
  })

  it('a matured close pays principal, bonus, the whole reward and the gains, with no fee', () => {
    for (const t of [1_000n + 365n * DAY, 1_000n + 3n * YEAR]) {
      expect(unstakePreview(stake, rate, t)).toEqual({
        amountOut: T(5210n),
        fee: 0n,
        received: T(5210n),
        forfeited: 0n,
        gains: T(110n),
        rewardEarned: T(4000n),
        matured: true,
      })
    }
  })

  it("uses the stake's own fee terms, whatever the pool's are now", () => {
    const lowFee = { ...stake, unHoldFee: 10n * ONE }
    expect(unstakePreview(lowFee, ONE, 1_000n + 73n * DAY).fee).toBe(T(80n))
  })
})

describe('early withdrawal fee', () => {
  it('falls linearly from unHoldFee percent of the principal to 0 at maturity', () => {
    expect(earlyWithdrawalFee(T(100n), 100n * ONE, 100n, 0n)).toBe(T(100n))
    expect(earlyWithdrawalFee(T(100n), 100n * ONE, 100n, 25n)).toBe(T(75n))
    expect(earlyWithdrawalFee(T(100n), 50n * ONE, 100n, 50n)).toBe(T(25n))
    expect(earlyWithdrawalFee(T(100n), 100n * ONE, 100n, 100n)).toBe(0n)
    expect(earlyWithdrawalFee(T(100n), 100n * ONE, 100n, 500n)).toBe(0n)
  })
  it('rounds down', () => {
    expect(earlyWithdrawalFee(10n, 100n * ONE, 3n, 1n)).toBe(6n)
    expect(earlyWithdrawalFee(1n, 100n * ONE, 3n, 1n)).toBe(0n)
  })
})

describe('shareFee', () => {
  it('raises the rate by amount / (shares + virtual shares) and rounds the holders part up', () => {
    const r = shareFee(T(10n), ONE, T(1n))
    expect(r).toEqual({ rate: ONE + T(5n), toHolders: T(5n), unowned: T(5n) })
    const big = shareFee(T(10n), ONE, T(1_000_000n))
    const step = (T(10n) * ONE) / (T(1_000_000n) + VIRTUAL_SHARES)
    expect(big.rate).toBe(ONE + step)
    expect(big.toHolders).toBe((step * T(1_000_000n) + ONE - 1n) / ONE)
    expect(big.toHolders + big.unowned).toBe(T(10n))
    expect(big.toHolders).toBeLessThanOrEqual(T(10n))
  })
  it('gives a dust supply almost nothing: the virtual shares keep the rest, owned by nobody', () => {
    const r = shareFee(T(100_000n), ONE, 1n)
    expect(r.toHolders).toBeLessThanOrEqual(T(100_000n) / ONE + 1n)
    expect(r.unowned).toBeGreaterThan(T(99_999n))
  })
  it('releases nothing to holders in an empty pool, for an amount too small to move the rate, or past the cap', () => {
    expect(shareFee(T(10n), ONE, 0n)).toEqual({ rate: ONE, toHolders: 0n, unowned: T(10n) })
    expect(shareFee(1n, ONE, T(1_000n))).toEqual({ rate: ONE, toHolders: 0n, unowned: 1n })
    expect(shareFee(T(10n), MAX_RATE - 1n, T(1n))).toEqual({ rate: MAX_RATE - 1n, toHolders: 0n, unowned: T(10n) })
    expect(shareFee(0n, ONE, T(1n))).toEqual({ rate: ONE, toHolders: 0n, unowned: 0n })
  })
})

describe('releaseFees (version 1 fee stream)', () => {
  const stream = (over: Partial<FeeStream> = {}): FeeStream => ({
    rate: ONE,
    sharedFees: 0n,
    pending: T(300n),
    lastRelease: 1_000n,
    streamEnd: 1_000n + FEE_STREAM,
    ...over,
  })
  const shares = T(999n)

  it('releases the pending fees linearly from the last release to the end of the stream', () => {
    // A tenth of the stream's time: a tenth of what is pending reaches the holders.
    const r = releaseFees(stream(), shares, 1_000n + FEE_STREAM / 10n)
    expect(r.released).toBe(T(30n))
    expect(r.pending).toBe(T(270n))
    const shared = shareFee(T(30n), ONE, shares)
    expect([r.rate, r.toHolders, r.sharedFees]).toEqual([shared.rate, shared.toHolders, shared.toHolders])
    // The stream's shape is unchanged: the caller records the release time, as the contract does.
    expect([r.lastRelease, r.streamEnd]).toEqual([1_000n, 1_000n + FEE_STREAM])
  })
  it('releases everything left at or after the end, and nothing before the next second or with nothing pending', () => {
    expect(releaseFees(stream(), shares, 1_000n + FEE_STREAM).released).toBe(T(300n))
    expect(releaseFees(stream(), shares, 1_000n + 2n * FEE_STREAM)).toMatchObject({ released: T(300n), pending: 0n })
    expect(releaseFees(stream(), shares, 1_000n)).toMatchObject({ released: 0n, rate: ONE, pending: T(300n) })
    expect(releaseFees(stream({ pending: 0n }), shares, 5_000n)).toMatchObject({ released: 0n, toHolders: 0n })
    // Rounds down: 1 wei over 30 days releases nothing for a while.
    expect(releaseFees(stream({ pending: 1n }), shares, 1_001n).released).toBe(0n)
  })
  it('a stake made just before a close catches only its time-weighted part of the fee', () => {
    // Released in two steps, the fee raises the rate about as much as in one: nobody gains by the timing.
    const half = releaseFees(stream(), shares, 1_000n + FEE_STREAM / 2n)
    const rest = releaseFees({ ...half, lastRelease: 1_000n + FEE_STREAM / 2n }, shares, 1_000n + FEE_STREAM)
    const once = releaseFees(stream(), shares, 1_000n + FEE_STREAM)
    expect(half.released + rest.released).toBe(T(300n))
    expect(once.rate - rest.rate).toBeLessThanOrEqual(1n)
    expect(FEE_STREAM).toBe(30n * DAY)
  })
})

describe('display figures', () => {
  it('progress is capped at 100.00% and floors at 0', () => {
    expect(progressBasisPoints(0n, 3n * DAY, DAY)).toBe(3333n)
    expect(progressBasisPoints(0n, DAY, 5n * DAY)).toBe(10_000n)
    expect(progressBasisPoints(10n, DAY, 5n)).toBe(0n)
  })
  it('term APR is 31536000 / hold * bonus', () => {
    expect(termApr(30n * DAY, 5n * ONE)).toBe((31_536_000n * 5n * ONE) / (30n * DAY))
    expect(termApr(365n * DAY, 40n * ONE)).toBe(40n * ONE)
    expect(termApr(0n, ONE)).toBe(0n)
  })
  it('percentages are 1e18-scaled: 100% is 100e18', () => {
    expect(PERCENT).toBe(100n * ONE)
  })
})

describe('guarded stakes and the referer rule', () => {
  it('bounds a stake by what its preview shows: the fee as it lands, the funded bonus and reward', () => {
    const p = previewStake(
      pool({ unHoldFee: 10n * ONE + 99n, reservoirAvailable: T(10_000_000n) }),
      T(100_000n),
      1095n * DAY,
      false,
    )
    expect(boundsOf(p)).toEqual({ maxFee: 10n * ONE, minBonus: T(30_000n), minReward: T(1_200_000n) })
    expect(landedFee(10n * ONE + 99n)).toBe(10n * ONE)
    const short = previewStake(pool({ reservoirAvailable: T(500n) }), T(1000n), 365n * DAY, false)
    expect(boundsOf(short)).toMatchObject({ minBonus: T(100n), minReward: T(400n) })
  })

  it("backs a referral with what the referer's stake would still pay as a fee at the referred release", () => {
    const referer = { stakeAmount: T(16_000n), unHoldFee: 100n * ONE, stakeTime: 0n, holdTime: 1095n * DAY }
    expect(referralCapacity(referer, 30n * DAY)).toBe((T(16_000n) * 1065n) / 1095n)
    expect(referralCapacity(referer, 1095n * DAY)).toBe(0n)
    expect(referralCapacity(referer, 1096n * DAY)).toBe(0n)
    expect(referralCapacity({ ...referer, unHoldFee: 0n }, DAY)).toBe(0n)
    // A 1,095-day referral at 5% gets 5%; a 30-day one 5% x 30 / 1095.
    expect(referralBonus(T(100_000n), 5n * ONE, 1095n * DAY, 1095n * DAY)).toBe(T(5_000n))
    expect(referralBonus(T(100_000n), 5n * ONE, 30n * DAY, 1095n * DAY)).toBe(
      (T(100_000n) * ((5n * ONE * 30n) / 1095n / 100n)) / ONE,
    )
    expect(referralBonus(1n, 5n * ONE, 1095n * DAY, 1095n * DAY)).toBe(0n)
  })

  it('owes for a referral no more than the bonus the referred stake was funded with, rounded down', () => {
    // Funded in full: the referral's part of a 15% bonus of which 5 points are the referral's.
    expect(referralDebtUnits(T(5_000n), T(15_000n), 5n * ONE, 15n * ONE)).toBe(T(5_000n) / BACKING_UNIT)
    // A reservoir that funded a third of the bonus: a third of the referral's part.
    expect(referralDebtUnits(T(5_000n), T(5_000n), 5n * ONE, 15n * ONE)).toBe((T(5_000n) * 5n) / 15n / BACKING_UNIT)
    // Nothing funded, or a bonus below one unit: nothing owed.
    expect(referralDebtUnits(T(5_000n), 0n, 5n * ONE, 15n * ONE)).toBe(0n)
    expect(referralDebtUnits(BACKING_UNIT - 1n, BACKING_UNIT - 1n, ONE, ONE)).toBe(0n)
    expect(repaidShare(3n, 900n, 9n)).toBe(300n)
    expect(repaidShare(3n, 900n, 0n)).toBe(0n)
  })

  it("ends a stake's share of the fees at the start (UTC) of its release day", () => {
    expect(expiryDay(10n * DAY + 5n, 30n * DAY)).toBe(40n)
    expect(expiryDay(10n * DAY - 1n, DAY)).toBe(10n)
  })

  it("sends to the reservoir only what a backer's early close owes for the referred stakes still open", () => {
    const fee = 990_867_558_768_814_476_577_033n
    expect(referralPayback(fee, 1n)).toEqual({ toReservoir: BACKING_UNIT, rest: fee - BACKING_UNIT })
    expect(referralPayback(fee, 0n)).toEqual({ toReservoir: 0n, rest: fee })
    // A fee smaller than what is owed goes back whole.
    expect(referralPayback(BACKING_UNIT + 1n, 5n)).toEqual({ toReservoir: BACKING_UNIT + 1n, rest: 0n })
    expect(referralPayback(0n, 5n)).toEqual({ toReservoir: 0n, rest: 0n })
  })
})
