import fc from 'fast-check'
import { formatDate, formatDateTime, formatDayMonth, formatMonth } from './dates'

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

describe('the hand-written dates', () => {
  // Node's ICU is the reference: the app writes its dates from UTC fields (no Intl at load, dates.ts), and must write
  // what Intl's en-GB would.
  const intl = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' })
  const anySecond = fc.integer({ min: 0, max: 4_102_444_800 })

  it('write what Intl writes in en-GB, for any moment from 1970 to 2100', () => {
    const date = intl({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })
    const month = intl({ month: 'short', year: 'numeric' })
    const dayMonth = intl({ day: 'numeric', month: 'short' })
    const dateTime = intl({
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    fc.assert(
      fc.property(anySecond, (s) => {
        const at = new Date(s * 1000)
        expect(formatDate(s)).toBe(date.format(at))
        expect(formatDate(at.toISOString())).toBe(date.format(at))
        expect(formatMonth(s)).toBe(month.format(at))
        expect(formatDayMonth(s)).toBe(dayMonth.format(at))
        const part = Object.fromEntries(dateTime.formatToParts(at).map((p) => [p.type, p.value]))
        expect(formatDateTime(s)).toBe(`${part.day} ${part.month} ${part.year} ${part.hour}:${part.minute} UTC`)
      }),
      { numRuns: 2000 },
    )
  })
})
