import { ONE, previewStake, unstakePreview } from '../../chain/math'
import { stakesCsv } from './csv'
import { daysLimits, depositPreview, poolMath, stakeRow } from './selectors'
import type { PoolInfo, StakeEntry } from './slice'
import { DAY, E18, testPool, tokens } from '../../testFixtures'

const POOL: PoolInfo = testPool({
  totalStaked: tokens(3_000n),
  totalShares: tokens(2_000n),
  rate: ((3_000n * E18 * ONE) / (2_000n * E18)).toString(),
})
const T0 = 1_800_000_000

function entry(over: Partial<StakeEntry> = {}): StakeEntry {
  const e = {
    id: 3,
    active: true,
    stakeTime: T0,
    holdTime: 100 * DAY,
    stakeAmount: (1_000n * E18).toString(),
    lpAmount: (700n * E18).toString(),
    closeAmount: '0',
    closeTime: 0,
    ...over,
  }
  const { amountOut, fee } = unstakePreview(
    1,
    {
      stakeAmount: BigInt(e.stakeAmount),
      lpAmount: BigInt(e.lpAmount),
      stakeTime: BigInt(e.stakeTime),
      holdTime: BigInt(e.holdTime),
    },
    BigInt(POOL.rate),
    BigInt(POOL.unHoldFee),
    BigInt(T0 + 25 * DAY),
  )
  return { amountOut: amountOut.toString(), fee: fee.toString(), ...e }
}

describe('stake rows', () => {
  it('shows a pending stake with progress to 2 decimals, dates, shares (v1) and the figures of the contract math', () => {
    const row = stakeRow(entry(), POOL, T0 + 25 * DAY + 3_600)
    expect(row).toMatchObject({
      status: 'Pending',
      progressText: '25.04%',
      days: 100,
      created: 'Fri, 15 Jan 2027',
      amount: '1,000.00',
      shares: '700.00',
      // 700 shares at 1.5 = 1,050: 50 on top of the amount.
      rewards: '50.00',
      earned: '50.00',
      fee: '787.50',
      toReceive: '262.50',
    })
  })

  it('caps progress at 100.00% and calls it Matured; a closed stake shows what it earned, possibly negative', () => {
    expect(stakeRow(entry(), POOL, T0 + 400 * DAY)).toMatchObject({ status: 'Matured', progressText: '100.00%' })
    const closed = stakeRow(
      entry({ active: false, closeAmount: (900n * E18).toString(), closeTime: T0 + 50 * DAY }),
      POOL,
      T0 + 400 * DAY,
    )
    expect(closed).toMatchObject({ status: 'Closed', progressText: '50.00%', rewards: '-100.00', toReceive: '900.00' })
  })

  it('has no shares column in version 2 and counts the bonus shares as its future rewards', () => {
    const row = stakeRow(entry({ lpAmount: (1_100n * E18).toString() }), { ...POOL, version: 2, rate: ONE.toString() }, T0)
    expect(row.shares).toBeNull()
    expect(row.rewards).toBe('100.00')
  })

  it('exports exact amounts and ISO dates as CSV', () => {
    const csv = stakesCsv([stakeRow(entry({ stakeAmount: (1_000n * E18 + 1n).toString() }), POOL, T0)])
    expect(csv.split('\r\n')).toEqual([
      'id,created,release,amount,shares,status,rewards or earned',
      '3,2027-01-15T08:00:00.000Z,2027-04-25T08:00:00.000Z,1000.000000000000000001,700.0,Pending,49.999999999999999999',
      '',
    ])
  })
})

describe('deposit limits and estimate', () => {
  it('uses 1 to the pool maximum, and the referral minimum with a referral (SPEC section 5)', () => {
    expect(daysLimits(POOL, false)).toEqual({ min: 1, max: 1095 })
    expect(daysLimits(POOL, true)).toEqual({ min: 30, max: 1095 })
    expect(daysLimits(null, false)).toEqual({ min: 1, max: 1095 })
  })

  it('matches previewStake from the shared math to the displayed precision', () => {
    const amount = 1_234n * E18 + 7n
    const p = previewStake(poolMath(POOL), amount, 200n * BigInt(DAY), true)
    const shown = depositPreview(POOL, amount, 200, true)
    expect(shown.totalShares).toBe(
      new Intl.NumberFormat('en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        roundingMode: 'trunc',
      } as Intl.NumberFormatOptions).format(Number(p.shares / 10n ** 14n) / 10_000),
    )
    expect(shown).toMatchObject({ referralBonus: '5.00%', lengthBonus: '5.47%' })
  })
})
