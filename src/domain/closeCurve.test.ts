import fc from 'fast-check'
import { breakEven, closeCurve, stakeOfPreview, type CurvePoint } from './closeCurve'
import { DAY, ONE, PERCENT, previewStake, unstakePreview, type PoolMathState, type StakeMath } from './math'

const T = (n: bigint) => n * ONE
const T0 = 1_800_000_000n

/** 1,000 staked at T0 for 100 days with a 100 bonus, a 400 reward and a 100% fee, entered at rate 1. */
const stake = (over: Partial<StakeMath> = {}): StakeMath => ({
  stakeAmount: T(1_000n),
  bonus: T(100n),
  reward: T(400n),
  lpAmount: T(1_000n),
  unHoldFee: PERCENT,
  entryRate: ONE,
  stakeTime: T0,
  holdTime: 100n * DAY,
  ...over,
})

const pool = (over: Partial<PoolMathState> = {}): PoolMathState => ({
  version: 1,
  rate: ONE,
  totalShares: T(10_000n),
  inflationPercent: T(400n),
  refererBonusPercent: T(5n),
  timeBonusPercent: T(30n),
  unHoldFee: PERCENT,
  holdTimeRefMin: 30n * DAY,
  holdTimeMax: 1095n * DAY,
  reservoirAvailable: T(1_000_000n),
  ...over,
})

const pairs = <X>(xs: readonly X[]) => xs.slice(1).map((x, i) => [xs[i], x] as const)

describe('closeCurve', () => {
  const rate = (11n * ONE) / 10n
  const now = T0 + 25n * DAY + 3n * 3600n

  it("starts with today's close, exactly as the preview (the Lens's arithmetic) computes it", () => {
    const [today] = closeCurve(stake(), rate, now)
    const preview = unstakePreview(stake(), rate, now)
    expect(today).toEqual({
      day: 0,
      time: now,
      received: preview.received,
      fee: preview.fee,
      rewardEarned: preview.rewardEarned,
      bonus: 0n,
      gains: preview.gains,
      matured: false,
    })
    // 1,000 less a fee of 748.75 (74.875 days of 100 left), plus 100.50 of reward earned and 100 of shared fees.
    expect(today.received).toBe(T(1_000n) - 748_750n * 10n ** 15n + 100_500n * 10n ** 15n + T(100n))
  })

  it('ends at the release with everything the stake pays there: amount, bonus, reward and the gains at this rate', () => {
    const points = closeCurve(stake(), rate, now)
    const last = points[points.length - 1]
    expect(last.time).toBe(T0 + 100n * DAY)
    expect(last).toMatchObject({ matured: true, fee: 0n, bonus: T(100n), rewardEarned: T(400n), gains: T(100n) })
    expect(last.received).toBe(T(1_600n))
    expect(last.received).toBe(unstakePreview(stake(), rate, T0 + 100n * DAY).received)
  })

  it('has one point a day from now, then the release less than a day after the last', () => {
    const points = closeCurve(stake(), rate, now)
    // 74 days and 21 hours to go: days 0 to 74, then the release as day 75.
    expect(points).toHaveLength(76)
    expect(points.map((p) => p.day)).toEqual([...Array(76).keys()])
    expect(points[74].time).toBe(now + 74n * DAY)
    expect(points.filter((p) => p.matured)).toEqual([points[75]])
  })

  it('a matured stake has one point, today, which pays in full', () => {
    const at = T0 + 130n * DAY
    const points = closeCurve(stake(), ONE, at)
    expect(points).toEqual([
      { day: 0, time: at, received: T(1_500n), fee: 0n, rewardEarned: T(400n), bonus: T(100n), gains: 0n, matured: true },
    ])
    expect(breakEven(points, T(1_000n))).toBe(points[0])
  })

  it('a one-day hold made now: the whole fee today, everything a day later', () => {
    const one = stake({ holdTime: DAY, reward: T(10n), bonus: 0n })
    const points = closeCurve(one, ONE, T0)
    expect(points.map((p) => [p.day, p.received, p.fee])).toEqual([
      [0, 0n, T(1_000n)],
      [1, T(1_010n), 0n],
    ])
    expect(breakEven(points, T(1_000n))?.day).toBe(1)
  })

  it('counts from when the stake was made when asked about an earlier moment', () => {
    expect(closeCurve(stake(), ONE, T0 - 5n * DAY)[0].time).toBe(T0)
  })

  it('a stake without a bonus gains nothing extra at the release beyond the fee gone and the reward completed', () => {
    const points = closeCurve(stake({ bonus: 0n }), ONE, T0)
    expect(points.every((p) => p.bonus === 0n)).toBe(true)
    expect(points[points.length - 1].received).toBe(T(1_400n))
  })

  it('with no fee the principal is never at risk: break-even is today', () => {
    const points = closeCurve(stake({ unHoldFee: 0n }), ONE, now)
    expect(points.every((p) => p.fee === 0n)).toBe(true)
    expect(breakEven(points, T(1_000n))?.day).toBe(0)
  })
})

describe('breakEven', () => {
  it('is the first day on which a close pays back at least the principal', () => {
    // 100% fee falling over 100 days, 400 of reward: received = 1,400 × elapsed / 100 days, ≥ 1,000 from day 72 on
    // (71.43 days).
    const points = closeCurve(stake(), ONE, T0)
    const even = breakEven(points, T(1_000n))!
    expect(even.day).toBe(72)
    expect(even.received).toBeGreaterThanOrEqual(T(1_000n))
    expect(points[71].received).toBeLessThan(T(1_000n))
  })

  it('a version 2 stake (no reward) with a 100% fee breaks even only at the release', () => {
    const points = closeCurve(stake({ reward: 0n, bonus: T(10n) }), ONE, T0)
    expect(breakEven(points, T(1_000n))).toBe(points[points.length - 1])
  })

  it('is none when no day pays back the principal asked about', () => {
    expect(breakEven(closeCurve(stake(), ONE, T0), T(1_501n))).toBeNull()
    expect(breakEven([], 1n)).toBeNull()
  })
})

describe('stakeOfPreview', () => {
  it("the stake being made pays at its release exactly what the preview's 'to receive at release' says", () => {
    const p = previewStake(pool({ rate: (13n * ONE) / 10n }), T(250n), 90n * DAY, false)
    const made = stakeOfPreview(p, T(250n), T0)
    const points = closeCurve(made, p.rate, T0)
    expect(points).toHaveLength(91)
    expect(points[90].received).toBe(p.atMaturity)
    // Entered at today's rate, it has no gains at that rate; the fee starts at the pool's whole fee.
    expect(points[0]).toMatchObject({ gains: 0n, fee: T(250n), received: 0n })
  })

  it('lands with the fee rounded down as the pool stores it, and a harvest term bonus in place of the length bonus', () => {
    const p = previewStake(pool({ unHoldFee: 12_345n }), T(1n), 30n * DAY, false, T(5n))
    const made = stakeOfPreview(p, T(1n), T0)
    expect(made.unHoldFee).toBe(12_300n)
    expect(made.bonus).toBe(T(1n) / 20n)
  })
})

describe('closeCurve properties', () => {
  const arbitraryCase = fc.record({
    amount: fc.bigInt({ min: 1n, max: 10n ** 30n }),
    holdDays: fc.integer({ min: 1, max: 1095 }),
    bonusFraction: fc.bigInt({ min: 0n, max: 5n * ONE }),
    rewardFraction: fc.bigInt({ min: 0n, max: 12n * ONE }),
    feePercent: fc.bigInt({ min: 0n, max: 100n }),
    elapsed: fc.bigInt({ min: 0n, max: 1200n * DAY }),
    rateUp: fc.bigInt({ min: 0n, max: 3n * ONE }),
  })

  it('today is the preview to the wei, the release the matured close; fee falls, received rises, days step by one', () => {
    fc.assert(
      fc.property(arbitraryCase, (c) => {
        const s = stake({
          stakeAmount: c.amount,
          lpAmount: c.amount,
          bonus: (c.amount * c.bonusFraction) / ONE,
          reward: (c.amount * c.rewardFraction) / ONE,
          unHoldFee: (c.feePercent * ONE) / 100n,
          holdTime: BigInt(c.holdDays) * DAY,
        })
        const rate = ONE + c.rateUp
        const now = T0 + c.elapsed
        const points = closeCurve(s, rate, now)
        expect(points[0].received).toBe(unstakePreview(s, rate, now).received)
        expect(points[0].time).toBe(now)
        const last = points[points.length - 1]
        expect(last.matured).toBe(true)
        expect(last.received).toBe(unstakePreview(s, rate, T0 + s.holdTime + 1n).received)
        expect(points.slice(0, -1).every((p) => !p.matured)).toBe(true)
        // One check per pair of days, reported as the first pair that breaks it (an expect per pair is slow).
        const broken = pairs(points).find(
          ([a, b]) =>
            b.day !== a.day + 1 || b.time <= a.time || b.time - a.time > DAY || b.fee > a.fee || b.received < a.received,
        )
        expect(broken).toBeUndefined()
        const even = breakEven(points, s.stakeAmount)
        const firstIndex = points.findIndex((p: CurvePoint) => p.received >= s.stakeAmount)
        expect(even).toBe(firstIndex < 0 ? null : points[firstIndex])
        // Held to the release, a stake never pays back less than its principal.
        expect(even).not.toBeNull()
      }),
      { numRuns: 200 },
    )
  })
})
