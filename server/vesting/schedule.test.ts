import fc from 'fast-check'
import { ROUNDS, nextUnlock, unlockSchedule, vestedAt, type Round, type Schedule } from './schedule'

const MONTH = 30 * 86_400
const s: Schedule = { tge: 1_700_000_000, months: 10, monthSeconds: MONTH }
const TOTAL = 1_000_000n * 10n ** 18n + 7n // an odd wei count to exercise rounding

describe.each(Object.keys(ROUNDS) as Round[])('%s round', (round) => {
  const { tgePercent, month1Percent } = ROUNDS[round]
  const atTge = (TOTAL * tgePercent) / 100n
  const atMonth1 = (TOTAL * month1Percent) / 100n
  const rest = TOTAL - atTge - atMonth1

  it('vests nothing before TGE and announces the TGE unlock', () => {
    expect(vestedAt(TOTAL, round, s, s.tge - 1)).toBe(0n)
    expect(nextUnlock(TOTAL, round, s, s.tge - 1)).toEqual({ amount: atTge, date: s.tge })
  })

  it('vests the TGE share at TGE and until month 1', () => {
    expect(vestedAt(TOTAL, round, s, s.tge)).toBe(atTge)
    expect(vestedAt(TOTAL, round, s, s.tge + MONTH - 1)).toBe(atTge)
    expect(nextUnlock(TOTAL, round, s, s.tge)).toEqual({ amount: atMonth1, date: s.tge + MONTH })
  })

  it('adds the month-1 share after month 1, then equal monthly steps', () => {
    expect(vestedAt(TOTAL, round, s, s.tge + MONTH)).toBe(atTge + atMonth1)
    expect(nextUnlock(TOTAL, round, s, s.tge + MONTH)).toEqual({ amount: rest / 10n, date: s.tge + 2 * MONTH })
    expect(vestedAt(TOTAL, round, s, s.tge + 2 * MONTH)).toBe(atTge + atMonth1 + rest / 10n)
    expect(vestedAt(TOTAL, round, s, s.tge + 6 * MONTH + 5)).toBe(atTge + atMonth1 + (rest * 5n) / 10n)
  })

  it('vests exactly the total at the end, to the wei, and has no next unlock', () => {
    const end = s.tge + 11 * MONTH
    expect(vestedAt(TOTAL, round, s, end - 1)).toBe(atTge + atMonth1 + (rest * 9n) / 10n)
    const last = nextUnlock(TOTAL, round, s, end - 1)!
    expect(last.date).toBe(end)
    expect(vestedAt(TOTAL, round, s, end - 1) + last.amount).toBe(TOTAL)
    expect(vestedAt(TOTAL, round, s, end)).toBe(TOTAL)
    expect(vestedAt(TOTAL, round, s, end + 10 * MONTH)).toBe(TOTAL)
    expect(nextUnlock(TOTAL, round, s, end)).toBeNull()
  })
})

it('puts the rest at month 1 when there are no monthly steps, and nothing for a zero allocation', () => {
  const flat = { ...s, months: 0 }
  expect(vestedAt(100n, 'Seed', flat, s.tge + MONTH)).toBe(100n)
  expect(nextUnlock(100n, 'Seed', flat, s.tge)).toEqual({ amount: 90n, date: s.tge + MONTH })
  expect(nextUnlock(0n, 'Public', s, s.tge)).toBeNull()
})

describe('unlockSchedule', () => {
  const ROUND_NAMES = Object.keys(ROUNDS) as Round[]
  const schedule = fc.record({
    tge: fc.integer({ min: 1, max: 4_000_000_000 }),
    months: fc.integer({ min: 0, max: 48 }),
    monthSeconds: fc.integer({ min: 1, max: 400 * 86_400 }),
  })
  // Small totals too, where a monthly step rounds to nothing; up to 10^12 tokens of 18 decimals.
  const total = fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 10n ** 30n }))
  const allocation = fc.record({ round: fc.constantFrom(...ROUND_NAMES), amount: total })

  it('for every round: strictly in date order, nothing of zero, summing to the total to the wei', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROUND_NAMES), total, schedule, (round, amount, s) => {
        const steps = unlockSchedule([{ round, amount }], s)
        steps.forEach((step, i) => {
          expect(step.amount).toBeGreaterThan(0n)
          if (i > 0) expect(step.date).toBeGreaterThan(steps[i - 1].date)
        })
        expect(steps.reduce((sum, step) => sum + step.amount, 0n)).toBe(amount)
        // From TGE (a few wei may have no TGE share) to the last month at most.
        if (amount > 0n) {
          expect(steps[0].date).toBeGreaterThanOrEqual(s.tge)
          expect(steps[steps.length - 1].date).toBeLessThanOrEqual(s.tge + (s.months + 1) * s.monthSeconds)
        }
        if (amount >= 100n) expect(steps[0].date).toBe(s.tge)
      }),
      { numRuns: 500 },
    )
  })

  it('for several allocations in any rounds: one step a date, and what has unlocked by each is what vestedAt says', () => {
    fc.assert(
      fc.property(fc.array(allocation, { maxLength: 4 }), schedule, (allocations, s) => {
        const steps = unlockSchedule(allocations, s)
        const vested = (now: number) => allocations.reduce((sum, a) => sum + vestedAt(a.amount, a.round, s, now), 0n)
        let cumulative = 0n
        steps.forEach((step, i) => {
          if (i > 0) expect(step.date).toBeGreaterThan(steps[i - 1].date)
          // Nothing more unlocks between two steps, and each step is exactly the jump at its date.
          expect(vested(step.date - 1)).toBe(cumulative)
          cumulative += step.amount
          expect(vested(step.date)).toBe(cumulative)
        })
        expect(cumulative).toBe(allocations.reduce((sum, a) => sum + a.amount, 0n))
      }),
      { numRuns: 300 },
    )
  })

  it('lists TGE, month 1 and each month, and the next unlock is always one of its steps', () => {
    const steps = unlockSchedule([{ round: 'Private', amount: TOTAL }], s)
    expect(steps.map((step) => (step.date - s.tge) / MONTH)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    for (const step of steps) expect(nextUnlock(TOTAL, 'Private', s, step.date - 1)).toEqual(step)
  })

  it('merges the same dates of two rounds and leaves out steps of zero', () => {
    const two = unlockSchedule(
      [
        { round: 'Public', amount: 100n },
        { round: 'Seed', amount: 1_000n },
      ],
      { ...s, months: 3 },
    )
    // Public 100: 30 + 30, rest 40 in 13, 13, 14; Seed 1,000: 100 + 200, rest 700 in 233, 233, 234.
    expect(two.map((step) => step.amount)).toEqual([130n, 230n, 246n, 246n, 248n])
    const tiny = unlockSchedule([{ round: 'Seed', amount: 10n }], s)
    // Seed 10 wei: 1 at TGE, 2 at month 1, and a rest of 7 whose cumulative 7*k/10 stands still in months 2, 5 and 8.
    expect(tiny.map((step) => [(step.date - s.tge) / MONTH, Number(step.amount)])).toEqual([
      [0, 1],
      [1, 2],
      [3, 1],
      [4, 1],
      [6, 1],
      [7, 1],
      [9, 1],
      [10, 1],
      [11, 1],
    ])
    expect(unlockSchedule([{ round: 'Public', amount: 0n }], s)).toEqual([])
    expect(unlockSchedule([], s)).toEqual([])
  })
})
