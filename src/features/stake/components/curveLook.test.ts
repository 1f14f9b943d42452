import { dayTicks } from './curveLook'

describe("the close curve's day axis", () => {
  it('ticks today, whole weeks, months or years, and the release, at most 7 in all', () => {
    expect(dayTicks(1)).toEqual([0, 1])
    expect(dayTicks(30)).toEqual([0, 7, 14, 21, 30])
    expect(dayTicks(75)).toEqual([0, 14, 28, 42, 56, 75])
    expect(dayTicks(120)).toEqual([0, 30, 60, 90, 120])
    expect(dayTicks(365)).toEqual([0, 90, 180, 270, 365])
    expect(dayTicks(1095)).toEqual([0, 365, 730, 1095])
    for (let last = 1; last <= 1200; last++) expect(dayTicks(last).length).toBeLessThanOrEqual(7)
  })
})
