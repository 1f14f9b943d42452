import fc from 'fast-check'
import { boundsOf, ONE, previewStake } from '../../domain/math'
import { DAY, E18, T0, testPool, testStake, tokens } from '../../../test/support/fixtures'
import { closeAllMatured } from './closeAllMatured'
import { poolMath } from './poolMath'
import { restakePlan, restakeTerms } from './restakePlan'
import { depositPreview } from './selectors'
import type { StakeEntry } from './slice'

/** The pool's rate up 10% from shared fees (version 1), as the list was read. */
const RATE = (11n * ONE) / 10n
const NOW = T0 + 200 * DAY
const POOL = testPool({ rate: RATE.toString(), totalShares: tokens(10_000n) })

/** What the Lens listed for `e` at NOW: what closing it pays, less its fee. */
const paysNow = (e: StakeEntry) => BigInt(e.amountOut) - BigInt(e.fee)

/** Stake #3 matured at day 100, #5 (2,000) at day 150, #6 pending until day 250, #1 closed. */
const list = () => [
  testStake({ id: 6, stakeTime: T0 + 150 * DAY }, NOW, RATE),
  testStake({ id: 5, stakeTime: T0 + 50 * DAY, stakeAmount: tokens(2_000n) }, NOW, RATE),
  testStake({ id: 3 }, NOW, RATE),
  testStake({ id: 1, active: false, closeTime: T0 + 20 * DAY, lpAmount: '0' }, T0 + 20 * DAY, ONE),
]

describe('restakePlan: what one restake(ids, hold, ...) closes, stakes again and on which terms', () => {
  it('stakes exactly what the chosen matured stakes pay now, previewed and bounded as a deposit of that amount', () => {
    const entries = list()
    const plan = restakePlan(entries, [5, 3], POOL, NOW, 90)!
    // By id, as "Close all matured" names them; each pays amount, 100 bonus, 400 reward and 10% on its 1,100 shares.
    expect(plan.ids).toEqual([3, 5])
    expect(plan.stakes.map((s) => s.received)).toEqual([1_610n * E18, 2_610n * E18])
    expect(plan.amount).toBe(paysNow(entries[2]) + paysNow(entries[1]))
    expect(plan.amount).toBe(closeAllMatured(entries, NOW).total)
    expect([plan.days, plan.hold]).toEqual([90, 90n * BigInt(DAY)])
    // No referer: a deposit of that amount for 90 days without a referral.
    const deposit = previewStake(poolMath(POOL), plan.amount, 90n * BigInt(DAY), false)
    expect(plan.preview).toEqual(deposit)
    expect(plan.preview.referralBonusPercent).toBe(0n)
    expect(plan.bounds).toEqual(boundsOf(plan.preview))
    expect(plan.bounds).toEqual({ maxFee: 100n * E18, minBonus: deposit.bonus, minReward: deposit.reward })
  })

  it("stakes what the rows list a version 1 stake paying, whose gains stopped at its release day, not the pool's rate of now", () => {
    const stake = testStake({ id: 3 }, NOW, (105n * ONE) / 100n)
    const plan = restakePlan([stake], [3], POOL, NOW, 90)!
    expect(plan.amount).toBe(paysNow(stake))
    expect(plan.amount).toBe(1_555n * E18)
  })

  it('meets a version 1 pool with its shares as read: a matured stake left them at the start of its release day', () => {
    const plan = restakePlan(list(), [3], POOL, NOW, 30)!
    expect(plan.pool).toEqual(POOL)
    expect(plan.preview.totalSharesAfter).toBe(10_000n * E18 + plan.amount)
  })

  it('meets a version 2 pool without the principal it closes first: the new stake gets its share of what is left', () => {
    const v2 = testPool({ version: 2, rate: ONE.toString(), totalShares: tokens(10_000n), inflationPercent: '0' })
    const entries = [
      testStake({ id: 3, lpAmount: tokens(1_000n) }, NOW, ONE),
      testStake({ id: 4, stakeAmount: tokens(500n) }, NOW, ONE),
    ]
    const plan = restakePlan(entries, [3, 4], v2, NOW, 365)!
    expect(plan.pool.totalShares).toBe(tokens(8_500n))
    expect(plan.preview.totalSharesAfter).toBe(8_500n * E18 + plan.amount)
    // The shown figures are the deposit dialog's for that amount in the pool as the new stake meets it.
    expect(depositPreview(plan.pool, plan.amount, 365, false).shareOfPool).toBe(
      depositPreview({ ...v2, totalShares: tokens(8_500n) }, plan.amount, 365, false).shareOfPool,
    )
  })

  it('plans nothing the pool would refuse: a pending, closed or unlisted stake, a repeated id, no id at all', () => {
    const entries = list()
    expect(restakePlan(entries, [3, 6], POOL, NOW, 90)).toBeNull()
    expect(restakePlan(entries, [1], POOL, NOW, 90)).toBeNull()
    expect(restakePlan(entries, [3, 42], POOL, NOW, 90)).toBeNull()
    expect(restakePlan(entries, [3, 3], POOL, NOW, 90)).toBeNull()
    expect(restakePlan(entries, [], POOL, NOW, 90)).toBeNull()
    // Matured from the second of its release, as the rows say.
    const release = T0 + 100 * DAY
    expect(restakePlan([testStake({ id: 3 }, release - 1, RATE)], [3], POOL, release - 1, 90)).toBeNull()
    expect(restakePlan([testStake({ id: 3 }, release, RATE)], [3], POOL, release, 90)?.ids).toEqual([3])
  })

  it('sends the full terms, or the lower ones accepted when the reservoir runs short, as the deposit does', () => {
    const full = restakePlan(list(), [3], POOL, NOW, 365)!
    expect(restakeTerms(full, null)).toEqual({
      maxFee: full.bounds.maxFee.toString(),
      minBonus: full.bounds.minBonus.toString(),
      minReward: full.bounds.minReward.toString(),
    })
    // The reservoir can fund 50 of the bonus and reward: without accepting, the full terms are asked (and refused).
    const short = restakePlan(list(), [3], { ...POOL, reservoirAvailable: tokens(50n) }, NOW, 365)!
    const shown = depositPreview(short.pool, short.amount, 365, false).shortfall!
    expect(shown.minimums).toEqual({ bonus: short.bounds.minBonus.toString(), reward: short.bounds.minReward.toString() })
    // What the reservoir funds, up to the rounding of the stored fractions.
    expect(50n * E18 - (short.bounds.minBonus + short.bounds.minReward)).toBeLessThan(10n ** 6n)
    expect(restakeTerms(short, null)).toMatchObject({
      minBonus: short.preview.bonusWanted.toString(),
      minReward: short.preview.rewardWanted.toString(),
    })
    expect(restakeTerms(short, shown.minimums)).toEqual({
      maxFee: short.bounds.maxFee.toString(),
      minBonus: shown.minimums.bonus,
      minReward: shown.minimums.reward,
    })
  })

  it('over any list, choice, term and pool: the amount is what the chosen stakes pay, the bounds boundsOf(previewStake(amount))', () => {
    const entry = fc.record({
      start: fc.integer({ min: 0, max: 400 * DAY }),
      days: fc.integer({ min: 1, max: 400 }),
      amount: fc.bigInt({ min: 1n, max: 10n ** 24n }),
      closed: fc.boolean(),
    })
    const pool = fc.record({
      version: fc.constantFrom(1, 2),
      rate: fc.bigInt({ min: ONE, max: 3n * ONE }),
      timeBonusPercent: fc.bigInt({ min: 0n, max: 500n * E18 }),
      inflationPercent: fc.bigInt({ min: 0n, max: 500n * E18 }),
      unHoldFee: fc.bigInt({ min: 0n, max: 100n * E18 }),
      reservoirAvailable: fc.bigInt({ min: 0n, max: 10n ** 27n }),
      maxDays: fc.integer({ min: 1, max: 1095 }),
    })
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 10 }),
        pool,
        fc.integer({ min: 0, max: 800 * DAY }),
        fc.integer({ min: 1, max: 1095 }),
        fc.func(fc.boolean()),
        (drawn, p, since, days, pick) => {
          const now = T0 + since
          const entries = drawn.map((d, id) => {
            const stakeTime = T0 + d.start - 400 * DAY
            const terms = {
              id,
              stakeTime,
              holdTime: d.days * DAY,
              stakeAmount: d.amount.toString(),
              lpAmount: d.amount.toString(),
            }
            return d.closed
              ? testStake({ ...terms, active: false, closeTime: Math.min(stakeTime, now), lpAmount: '0' }, stakeTime, ONE)
              : testStake(terms, now, p.rate)
          })
          const info = testPool({
            version: p.version,
            rate: p.rate.toString(),
            timeBonusPercent: p.timeBonusPercent.toString(),
            inflationPercent: p.inflationPercent.toString(),
            unHoldFee: p.unHoldFee.toString(),
            reservoirAvailable: p.reservoirAvailable.toString(),
            holdTimeMax: p.maxDays * DAY,
            totalShares: entries.reduce((n, e) => n + (e.active ? BigInt(e.stakeAmount) : 0n), 0n).toString(),
          })
          const ids = entries.filter((e) => pick(e.id)).map((e) => e.id)
          const matured = ids.filter((id) => entries[id].active && now >= entries[id].stakeTime + entries[id].holdTime)
          const plan = restakePlan(entries, ids, info, now, days)
          if (ids.length === 0 || matured.length !== ids.length) {
            expect(plan).toBeNull()
            return
          }
          expect(plan).not.toBeNull()
          expect(plan!.ids).toEqual(ids)
          // What the Lens lists each chosen stake paying now (amountOut - fee, no fee at maturity), added up.
          expect(plan!.amount).toBe(ids.reduce((n, id) => n + paysNow(entries[id]), 0n))
          expect(ids.every((id) => entries[id].fee === '0')).toBe(true)
          // Bounds as the deposit dialog would send them for a stake of that amount, whatever the pool's shares.
          const deposit = previewStake(poolMath(info), plan!.amount, BigInt(days * DAY), false)
          expect(plan!.bounds).toEqual(boundsOf(deposit))
          expect(plan!.bounds).toEqual(boundsOf(plan!.preview))
          // Without a shortfall, what is sent is exactly those bounds.
          if (deposit.bonus === deposit.bonusWanted && deposit.reward === deposit.rewardWanted)
            expect(restakeTerms(plan!, null)).toEqual({
              maxFee: plan!.bounds.maxFee.toString(),
              minBonus: plan!.bounds.minBonus.toString(),
              minReward: plan!.bounds.minReward.toString(),
            })
        },
      ),
    )
  })
})
