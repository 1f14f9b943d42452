import { unstakePreview } from '../../domain/math'
import { DAY, E18, T0, testStake } from '../../../test/support/fixtures'
import { CLOSED_VISIBLE_FOR, releaseDayBegan, releaseDayStart, stakesAt } from './refresh'

describe('stakesAt: the rows on screen brought to a later block without reading them again', () => {
  const rate = (11n * E18) / 10n
  const later = (12n * E18) / 10n

  it('recomputes an active stake from its terms, the pool rate and the time, as the contracts would', () => {
    const read = testStake({ id: 1 }, T0 + 10 * DAY, rate)
    const [next] = stakesAt([read], later, T0 + 40 * DAY, T0 + 10 * DAY)
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
    const rows = stakesAt([active, recent, old], rate, now, T0 + 10 * DAY)
    expect(rows.map((e) => e.id)).toEqual([1, 2])
    expect(rows[1]).toBe(recent)
    const same = stakesAt([active], rate, T0 + 10 * DAY, T0 + 10 * DAY)
    expect(same[0]).toBe(active)
  })

  it('keeps the gains a row was read with once its release day had begun: they stopped growing then', () => {
    // Read on its release day (T0 + 100 days, a 100-day stake), after 00:00 UTC: its gains are final.
    const start = releaseDayStart(testStake({ id: 1 }))
    const read = testStake({ id: 1 }, start + 60, rate)
    const [next] = stakesAt([read], later, start + 5 * DAY, start + 60)
    expect(next.gains).toBe(read.gains)
    // The rest moves on with the time (here past maturity): the same stake at the read's rate, five days later.
    expect(next).toEqual(testStake({ id: 1 }, start + 5 * DAY, rate))
    // A row read before its release day began cannot be brought past it: the rows are read again.
    const early = testStake({ id: 1 }, start - 60, rate)
    expect(releaseDayBegan([early], start - 60, start + 1)).toBe(true)
    expect(releaseDayBegan([early], start - 60, start - 1)).toBe(false)
    expect(releaseDayBegan([read], start + 60, start + 5 * DAY)).toBe(false)
  })
})
