import { formatDate, formatMonth } from './dates'

describe('formatDate', () => {
  it('shows weekday, day, month and year in UTC from an ISO string or unix seconds', () => {
    expect(formatDate('2026-12-07T23:30:00.000Z')).toBe('Mon, 7 Dec 2026')
    expect(formatDate(1_798_675_200)).toBe('Thu, 31 Dec 2026')
  })
})

describe('formatMonth', () => {
  it('shows the month and year in UTC', () => {
    expect(formatMonth(1_798_675_200)).toBe('Dec 2026')
    // 1 Jan 2027 00:30 UTC is still December west of Greenwich: the axis follows the chain's clock.
    expect(formatMonth(1_798_763_400)).toBe('Jan 2027')
  })
})
