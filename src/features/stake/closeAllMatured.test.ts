import fc from 'fast-check'
import { ONE } from '../../domain/math'
import { DAY, E18, T0, testPool, testStake, tokens } from '../../../test/support/fixtures'
import { closeAllMatured } from './closeAllMatured'
import { stakeRow } from './rows'
import type { StakeEntry } from './slice'

/** The pool's rate up 10% from shared fees (version 1), as the list was read. */
const RATE = (11n * ONE) / 10n
const NOW = T0 + 200 * DAY

/** What the Lens listed for `e` at NOW: what closing it pays, less its fee. */
const paysNow = (e: StakeEntry) => BigInt(e.amountOut) - BigInt(e.fee)

describe('closeAllMatured: which stakes one unstake(ids) closes, and what it pays', () => {
  it('takes only the active stakes held for their whole hold, by id, and pays what each close pays, to the wei', () => {
    const matured = testStake({ id: 7, stakeTime: T0 - 50 * DAY }, NOW, RATE)
    const alsoMatured = testStake({ id: 2, stakeTime: T0, holdTime: 30 * DAY, stakeAmount: tokens(250n) }, NOW, RATE)
    const pending = testStake({ id: 9, stakeTime: T0 + 150 * DAY }, NOW, RATE)
    const closed = testStake({ id: 1, active: false, closeTime: T0 + 120 * DAY, lpAmount: '0' }, T0 + 120 * DAY, ONE)
    const plan = closeAllMatured([pending, matured, closed, alsoMatured], NOW)
    expect(plan.ids).toEqual([2, 7])
    expect(plan.stakes.map((s) => s.received)).toEqual([paysNow(alsoMatured), paysNow(matured)])
    // At maturity there is no fee: amount, bonus, the whole reward and the 10% the rate rose on its shares.
    expect(matured.fee).toBe('0')
    expect(plan.stakes[1]).toEqual({
      id: 7,
      received: 1_610n * E18,
      stakeAmount: 1_000n * E18,
      bonusAndReward: 500n * E18,
      gains: 110n * E18,
    })
    expect(plan.total).toBe(paysNow(matured) + paysNow(alsoMatured))
    expect(plan.total).toBe(plan.stakeAmount + plan.bonusAndReward + plan.gains)
  })

  it("pays what each row lists, not what the pool's rate of now would give: a version 1 stake stops gaining at its release day", () => {
    // Listed with the gains it had when its release day began (the rate was 1.05 then); the pool's rate is 1.1 now.
    const stake = testStake({ id: 7, stakeTime: T0 - 50 * DAY }, NOW, (105n * ONE) / 100n)
    const plan = closeAllMatured([stake], NOW)
    expect(plan.stakes[0]).toMatchObject({ received: 1_555n * E18, gains: 55n * E18 })
    expect(plan.total).toBe(paysNow(stake))
  })

  it('counts a stake matured from the second of its release, not one second before (the rows say the same)', () => {
    const release = T0 + 100 * DAY
    const stake = testStake({ id: 4 }, release, RATE)
    const pool = testPool({ rate: RATE.toString() })
    expect(closeAllMatured([stake], release - 1).ids).toEqual([])
    expect(stakeRow(stake, pool, release - 1).status).toBe('Pending')
    expect(closeAllMatured([stake], release).ids).toEqual([4])
    expect(stakeRow(stake, pool, release).status).toBe('Matured')
  })

  it('closes nothing and pays nothing when no stake is matured', () => {
    const plan = closeAllMatured([testStake({ id: 3 }, T0 + DAY, RATE)], T0 + DAY)
    expect(plan).toEqual({ stakes: [], ids: [], total: 0n, stakeAmount: 0n, bonusAndReward: 0n, gains: 0n })
    expect(closeAllMatured([], NOW).ids).toEqual([])
  })

  it('over any list: exactly the rows marked "Matured", paying the sum of what the Lens lists for them', () => {
    const entry = fc.record({
      start: fc.integer({ min: 0, max: 400 * DAY }),
      days: fc.integer({ min: 1, max: 400 }),
      amount: fc.bigInt({ min: 1n, max: 10n ** 24n }),
      closedAfter: fc.option(fc.integer({ min: 0, max: 400 * DAY }), { nil: null }),
    })
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.integer({ min: 0, max: 800 * DAY }), (drawn, since) => {
        const now = T0 + since
        const stakes = drawn.map((d, id) => {
          const stakeTime = T0 + d.start - 400 * DAY
          const closeTime = d.closedAfter === null ? null : Math.min(stakeTime + d.closedAfter, now)
          const terms = { id, stakeTime, holdTime: d.days * DAY, stakeAmount: d.amount.toString(), lpAmount: d.amount.toString() }
          return closeTime === null
            ? testStake(terms, now, RATE)
            : testStake({ ...terms, active: false, closeTime, lpAmount: '0' }, closeTime, ONE)
        })
        const pool = testPool({ rate: RATE.toString() })
        const plan = closeAllMatured(stakes, now)
        const maturedRows = stakes.filter((e) => stakeRow(e, pool, now).status === 'Matured')
        expect(plan.ids).toEqual(maturedRows.map((e) => e.id))
        expect(plan.total).toBe(maturedRows.reduce((n, e) => n + paysNow(e), 0n))
        expect(maturedRows.every((e) => e.fee === '0')).toBe(true)
      }),
    )
  })
})
