import fc from 'fast-check'
import { monthTicks, unlockTimeline } from './timeline'

const TOKEN = 10n ** 18n
const DAY = 86_400
const MONTH = 30 * DAY
const TGE = 1_790_000_000
const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
const tokens = (n: bigint) => (n * TOKEN).toString()

// 100,000 PLT: 30,000 at TGE, 30,000 at month 1, then 4 steps of 10,000.
const SCHEDULE = [30_000n, 30_000n, 10_000n, 10_000n, 10_000n, 10_000n].map((amount, i) => ({
  date: iso(TGE + i * MONTH),
  amount: tokens(amount),
}))

describe('unlockTimeline', () => {
  it('adds up the steps and splits the allocation at now: claimed, claimable, still locked', () => {
    const t = unlockTimeline(SCHEDULE, tokens(20_000n), TGE + MONTH + DAY)
    expect(t.steps.map((s) => [s.at, s.cumulative])).toEqual(
      [30_000n, 60_000n, 70_000n, 80_000n, 90_000n, 100_000n].map((c, i) => [TGE + i * MONTH, tokens(c)]),
    )
    expect(t.split).toEqual({ claimed: tokens(20_000n), claimable: tokens(40_000n), locked: tokens(40_000n) })
  })

  it('says where each step stands: claims cover the oldest unlocks first', () => {
    const states = (claimed: bigint, now: number) => unlockTimeline(SCHEDULE, tokens(claimed), now).steps.map((s) => s.state)
    expect(states(0n, TGE - 1)).toEqual(['locked', 'locked', 'locked', 'locked', 'locked', 'locked'])
    expect(states(0n, TGE)).toEqual(['claimable', 'locked', 'locked', 'locked', 'locked', 'locked'])
    expect(states(45_000n, TGE + 2 * MONTH)).toEqual(['claimed', 'partlyClaimed', 'claimable', 'locked', 'locked', 'locked'])
    expect(states(60_000n, TGE + 2 * MONTH)).toEqual(['claimed', 'claimed', 'claimable', 'locked', 'locked', 'locked'])
    expect(states(100_000n, TGE + 9 * MONTH)).toEqual(['claimed', 'claimed', 'claimed', 'claimed', 'claimed', 'claimed'])
  })

  it('before TGE everything is locked; after the last step nothing is', () => {
    expect(unlockTimeline(SCHEDULE, '0', TGE - 1).split).toEqual({ claimed: '0', claimable: '0', locked: tokens(100_000n) })
    expect(unlockTimeline(SCHEDULE, tokens(70_000n), TGE + 12 * MONTH).split).toEqual({
      claimed: tokens(70_000n),
      claimable: tokens(30_000n),
      locked: '0',
    })
  })

  it('counts a claim above what has unlocked by now (the chain clock ahead) as claimed, never a negative claimable', () => {
    const t = unlockTimeline(SCHEDULE, tokens(70_000n), TGE + MONTH)
    expect(t.split).toEqual({ claimed: tokens(70_000n), claimable: '0', locked: tokens(30_000n) })
    expect(t.steps[2].state).toBe('claimed')
    expect(t.points[3]).toMatchObject({ claimed: 70_000, claimable: 0, locked: 0 })
  })

  it('draws stacked bands: the unlocked total at each step, cut at what is claimed and at now', () => {
    const t = unlockTimeline(SCHEDULE, tokens(20_000n), TGE + MONTH + DAY)
    expect(t.points.map(({ claimed, claimable, locked }) => [claimed, claimable, locked])).toEqual([
      [0, 0, 0],
      [20_000, 10_000, 0],
      [20_000, 40_000, 0],
      [20_000, 40_000, 10_000],
      [20_000, 40_000, 20_000],
      [20_000, 40_000, 30_000],
      [20_000, 40_000, 40_000],
      [20_000, 40_000, 40_000],
    ])
    // The framing points carry no step; the others name theirs, in order.
    expect(t.points.map((p) => p.step)).toEqual([undefined, 0, 1, 2, 3, 4, 5, undefined])
    expect(t.points[0].at).toBeLessThan(TGE)
    expect(t.points[7].at).toBeGreaterThan(TGE + 5 * MONTH)
    expect(t.domain).toEqual([t.points[0].at, t.points[7].at])
  })

  it('keeps now inside the chart when it lies before TGE or after the last step', () => {
    const early = unlockTimeline(SCHEDULE, '0', TGE - 90 * DAY)
    expect(early.domain[0]).toBeLessThan(TGE - 90 * DAY)
    const late = unlockTimeline(SCHEDULE, '0', TGE + 24 * MONTH)
    expect(late.domain[1]).toBeGreaterThan(TGE + 24 * MONTH)
  })

  it('draws fractions of a token, and has nothing to draw for an empty schedule', () => {
    const t = unlockTimeline([{ date: iso(TGE), amount: '1500000000000000000' }], '500000000000000000', TGE)
    expect(t.points[1]).toMatchObject({ claimed: 0.5, claimable: 1, locked: 0 })
    expect(unlockTimeline([], '0', TGE)).toEqual({
      steps: [],
      split: { claimed: '0', claimable: '0', locked: '0' },
      points: [],
      domain: [TGE, TGE],
    })
  })

  it('for any schedule, claim and moment: the split adds up to the total and each band stack to what has unlocked', () => {
    const schedule = fc
      .uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 14 })
      .chain((months) =>
        fc.tuple(
          fc.constant([...months].sort((a, b) => a - b)),
          fc.array(fc.bigInt({ min: 1n, max: 10n ** 27n }), { minLength: months.length, maxLength: months.length }),
        ),
      )
      .map(([months, amounts]) => months.map((m, i) => ({ date: iso(TGE + m * MONTH), amount: amounts[i].toString() })))
    fc.assert(
      fc.property(schedule, fc.bigInt({ min: 0n, max: 10n ** 28n }), fc.integer({ min: -5, max: 45 }), (steps, claimed, m) => {
        const total = steps.reduce((sum, s) => sum + BigInt(s.amount), 0n)
        const t = unlockTimeline(steps, claimed.toString(), TGE + m * MONTH)
        expect(BigInt(t.split.claimed) + BigInt(t.split.claimable) + BigInt(t.split.locked)).toBe(total)
        expect(BigInt(t.split.claimable)).toBeGreaterThanOrEqual(0n)
        t.points.slice(1, -1).forEach((p, i) => {
          const drawn = p.claimed + p.claimable + p.locked
          expect(Math.abs(drawn - Number(BigInt(t.steps[i].cumulative)) / 1e18)).toBeLessThanOrEqual(drawn * 1e-9 + 1e-9)
        })
      }),
      { numRuns: 300 },
    )
  })
})

describe('monthTicks', () => {
  it('puts ticks on the first of a month, spaced so that at most so many fit', () => {
    const domain: [number, number] = [Date.UTC(2026, 9, 20) / 1000, Date.UTC(2027, 9, 5) / 1000]
    const month = (at: number) => new Date(at * 1000).toISOString().slice(0, 10)
    // 13 months touched: every 4th month from the first whole one.
    expect(monthTicks(domain, 4).map(month)).toEqual(['2026-11-01', '2027-03-01', '2027-07-01'])
    expect(monthTicks(domain, 20).map(month)).toHaveLength(12)
    expect(monthTicks([domain[0], domain[0] + DAY], 4)).toEqual([])
  })
})
