import { retryDelayMs } from './backoff'

describe('retryDelayMs', () => {
  it('doubles from the first delay up to the cap, with the middle of the spread', () => {
    const schedule = Array.from({ length: 8 }, (_, i) => retryDelayMs(i, 0.5, 2_000, 60_000))
    expect(schedule).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
  })

  it('spreads each delay over 80-120% without passing the cap', () => {
    expect(retryDelayMs(0, 0, 2_000, 60_000)).toBe(1_600)
    expect(retryDelayMs(0, 1, 2_000, 60_000)).toBe(2_400)
    expect(retryDelayMs(2, 0, 2_000, 60_000)).toBe(6_400)
    expect(retryDelayMs(10, 0, 2_000, 60_000)).toBe(48_000)
    expect(retryDelayMs(10, 1, 2_000, 60_000)).toBe(60_000)
  })

  it('stays finite and sane for odd input', () => {
    expect(retryDelayMs(10_000, 0.5, 2_000, 60_000)).toBe(60_000)
    expect(retryDelayMs(-3, 0.5, 2_000, 60_000)).toBe(2_000)
    expect(retryDelayMs(1, 7, 2_000, 60_000)).toBe(4_800)
  })
})
