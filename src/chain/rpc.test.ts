import { throttleWaitMs } from './rpc'

describe('a read refused by a rate limit (429)', () => {
  it('waits the seconds Retry-After asks, else 250 ms doubling up to 8 s', () => {
    expect(throttleWaitMs(0, '2', 0.5)).toBe(2_000)
    expect(throttleWaitMs(0, '600', 0.5)).toBe(30_000)
    expect([0, 1, 2, 3, 5, 9].map((a) => throttleWaitMs(a, undefined, 0.5))).toEqual([250, 500, 1_000, 2_000, 8_000, 8_000])
    expect(throttleWaitMs(1, 'Wed, 21 Oct 2026 07:28:00 GMT', 0.5)).toBe(500)
  })
})
