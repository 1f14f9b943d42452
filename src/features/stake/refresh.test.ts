import { unstakePreview } from '../../domain/math'
import { DAY, E18, T0, testStake } from '../../../test/support/fixtures'
import { CLOSED_VISIBLE_FOR, stakesAt } from './refresh'

describe('stakesAt: the rows on screen brought to a later block without reading them again', () => {
  const rate = (11n * E18) / 10n
  const later = (12n * E18) / 10n

  it('recomputes an active stake from its terms, the pool rate and the time, as the contracts would', () => {
    const read = testStake({ id: 1 }, T0 + 10 * DAY, rate)
    const [next] = stakesAt([read], later, T0 + 40 * DAY)
    const c = unstakePreview(
      {
        stakeAmount: BigInt(read.stakeAmount),
        bonus: BigInt(read.bonus),
        reward: BigInt(read.reward),
        lpAmount: BigInt(read.lpAmount),
        unHoldFee: BigInt(read.unHoldFee),
        entryRate: BigInt(read.entryRate),
        stakeTime: BigInt(read.stakeTime),
        holdTime: BigInt(read.holdTime),
      },
      later,
      BigInt(T0 + 40 * DAY),
    )
    expect([next.amountOut, next.fee, next.forfeited, next.gains]).toEqual([c.amountOut, c.fee, c.forfeited, c.gains].map(String))
    // It is exactly what a fresh read of the same stake at that time and rate gives.
    expect(next).toEqual(testStake({ id: 1 }, T0 + 40 * DAY, later))
    expect(BigInt(next.fee)).toBeLessThan(BigInt(read.fee))
  })

  it('keeps closed stakes and unchanged rows as the same objects, and drops closes older than the Lens shows', () => {
    const active = testStake({ id: 1 }, T0 + 10 * DAY, rate)
    const recent = testStake({ id: 2, active: false, closeTime: T0 + 5 * DAY, lpAmount: '0' }, T0 + 5 * DAY)
    const old = testStake({ id: 3, active: false, closeTime: T0 + DAY, lpAmount: '0' }, T0 + DAY)
    const now = T0 + DAY + CLOSED_VISIBLE_FOR + 1
    const rows = stakesAt([active, recent, old], rate, now)
    expect(rows.map((e) => e.id)).toEqual([1, 2])
    expect(rows[1]).toBe(recent)
    const same = stakesAt([active], rate, T0 + 10 * DAY)
    expect(same[0]).toBe(active)
  })
})
