import { formatDate } from './dates'

describe('formatDate', () => {
  it('shows weekday, day, month and year in UTC from an ISO string or unix seconds', () => {
    expect(formatDate('2026-12-07T23:30:00.000Z')).toBe('Mon, 7 Dec 2026')
    expect(formatDate(1_798_675_200)).toBe('Thu, 31 Dec 2026')
  })
})
