import { formatAge, formatCountdown, formatWait } from './duration'

describe('durations', () => {
  it('counts down to a release', () => {
    expect(formatCountdown(0)).toBeNull()
    expect(formatCountdown(3_661)).toBe('1h 01m 01s')
    expect(formatCountdown(2 * 86_400 + 3_600 * 4 + 300)).toBe('2d 04h 05m')
  })

  it('says how old shown figures are', () => {
    expect(formatAge(-5)).toBe('just now')
    expect(formatAge(9_999)).toBe('just now')
    expect(formatAge(25_000)).toBe('25 s ago')
    expect(formatAge(3 * 60_000 + 59_000)).toBe('3 min ago')
    expect(formatAge(2 * 3_600_000)).toBe('2 h ago')
    expect(formatAge(86_400_000)).toBe('1 day ago')
    expect(formatAge(4 * 86_400_000)).toBe('4 days ago')
  })

  it('says when the next try is due', () => {
    expect(formatWait(0)).toBe('now')
    expect(formatWait(7_200)).toBe('in 8 s')
    expect(formatWait(61_000)).toBe('in 2 min')
  })
})
