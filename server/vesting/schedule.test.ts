import { ROUNDS, nextUnlock, vestedAt, type Round, type Schedule } from './schedule'

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
