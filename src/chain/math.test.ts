import {
  DAY,
  ONE,
  PERCENT,
  earlyWithdrawalFee,
  holdLimits,
  inflationDue,
  inflationPaid,
  lengthBonusPercent,
  maxAmountToReceive,
  normalizeHoldTime,
  previewStake,
  progressBasisPoints,
  rate,
  shareOf,
  termApr,
  unstakePreview,
  type PoolMathState,
} from './math'

const T = (n: bigint) => n * ONE
const pool = (over: Partial<PoolMathState> = {}): PoolMathState => ({
  version: 1,
  totalStaked: 0n,
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

describe('rate', () => {
  it('is 1e18 for an empty pool and for version 2', () => {
    expect(rate(1, 0n, 0n)).toBe(ONE)
    expect(rate(2, T(5n), T(1n))).toBe(ONE)
  })
  it('is totalStaked / totalShares, rounded down', () => {
    expect(rate(1, T(3n), T(2n))).toBe((3n * ONE) / 2n)
    expect(rate(1, 10n, 3n)).toBe(3333333333333333333n)
  })
})

describe('bonuses', () => {
  it('length bonus scales with whole days over the maximum', () => {
    expect(lengthBonusPercent(30n * ONE, 365n * DAY + 100n, 1095n * DAY)).toBe(10n * ONE)
    expect(lengthBonusPercent(30n * ONE, 1095n * DAY, 1095n * DAY)).toBe(30n * ONE)
    expect(lengthBonusPercent(30n * ONE, DAY, 0n)).toBe(0n)
  })
  it('hold times round down to whole days and referral raises the minimum', () => {
    expect(normalizeHoldTime(DAY * 2n - 1n)).toBe(DAY)
    expect(holdLimits(pool(), false)).toEqual({ min: DAY, max: 1095n * DAY })
    expect(holdLimits(pool(), true)).toEqual({ min: 30n * DAY, max: 1095n * DAY })
  })
})

describe('previewStake', () => {
  it('mints amount plus funded bonus at the rate (version 1)', () => {
    const p = previewStake(pool({ totalStaked: T(200n), totalShares: T(100n) }), T(1000n), 365n * DAY, true)
    expect(p.bonusPercent).toBe(15n * ONE)
    expect(p.bonus).toBe(T(150n))
    expect(p.rate).toBe(2n * ONE)
    expect(p.shares).toBe(T(575n))
    expect(p.shareOfPool).toBe((T(575n) * ONE) / T(675n))
  })
  it('caps the bonus at what the reservoir can give after inflation', () => {
    const s = pool({ totalStaked: T(1000n), totalShares: T(1000n), reservoirAvailable: T(60n) })
    const p = previewStake(s, T(1000n), 1095n * DAY, false, (365n * DAY) / 100n)
    expect(p.inflation).toBe(T(40n))
    expect(p.bonus).toBe(T(20n))
  })
  it('mints amount plus bonus in version 2 and uses a term bonus when given', () => {
    const v2 = pool({ version: 2, inflationPercent: 0n, refererBonusPercent: 0n, timeBonusPercent: 50n * ONE })
    expect(previewStake(v2, T(100n), 1095n * DAY, false).shares).toBe(T(150n))
    expect(previewStake(v2, T(100n), 90n * DAY, false, 0n, 20n * ONE).shares).toBe(T(120n))
  })
})

describe('inflation', () => {
  it('is simple interest over the elapsed time, zero without shares', () => {
    expect(inflationDue(T(1000n), T(1000n), 400n * ONE, 365n * DAY)).toBe(T(4000n))
    expect(inflationDue(T(1000n), 0n, 400n * ONE, 365n * DAY)).toBe(0n)
    expect(inflationPaid(pool({ totalStaked: T(1000n), totalShares: T(1n), reservoirAvailable: T(7n) }), 365n * DAY)).toBe(T(7n))
  })
})

describe('closing', () => {
  const stake = { stakeAmount: T(100n), lpAmount: T(110n), stakeTime: 1000n, holdTime: 100n * DAY }
  it('charges the linear fee before maturity and none after', () => {
    expect(earlyWithdrawalFee(T(100n), 100n * ONE, 100n, 25n)).toBe(T(75n))
    expect(earlyWithdrawalFee(T(100n), 100n * ONE, 100n, 100n)).toBe(0n)
  })
  it('version 1 pays shares at the rate less the fee', () => {
    const r = unstakePreview(1, stake, 2n * ONE, 50n * ONE, 1000n + 50n * DAY)
    expect(r.amountOut).toBe(T(220n))
    expect(r.fee).toBe(T(55n))
    expect(r.received).toBe(T(165n))
  })
  it('version 2 pays amount plus bonus at maturity, amount less fee before', () => {
    expect(unstakePreview(2, stake, ONE, 100n * ONE, 1000n + 100n * DAY).received).toBe(T(110n))
    expect(unstakePreview(2, stake, ONE, 100n * ONE, 1000n + 75n * DAY).received).toBe(T(75n))
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
  it('max amount to receive is 5 x staked x days / 365', () => {
    expect(maxAmountToReceive(T(100n), 365n)).toBe(T(500n))
    expect(maxAmountToReceive(T(73n), 30n)).toBe(T(30n))
  })
  it('share of a total is 1e18-scaled', () => {
    expect(shareOf(1n, 4n)).toBe(ONE / 4n)
    expect(shareOf(1n, 0n)).toBe(0n)
    expect(PERCENT).toBe(100n * ONE)
  })
})
