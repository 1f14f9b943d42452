import { makeStore, type RootState } from '../../app/store'
import { ONE, previewStake } from '../../domain/math'
import { stakesCsv } from './csv'
import {
  daysLimits,
  depositPreview,
  makeSelectStakeRows,
  poolMath,
  selectApproval,
  selectApprovalInFlight,
  selectFeeStreamNote,
  selectPoolView,
  selectSummaryRow,
} from './selectors'
import { stakeRow } from './rows'
import { initialStakeState, type PoolInfo, type StakeEntry } from './slice'
import { initialTokenState } from '../token/slice'
import { txSubmitted } from '../../chain/txActions'
import { connectedWallet } from '../../../test/support/render'
import { DAY, devAllowances, E18, T0, testPool, testStake, tokens } from '../../../test/support/fixtures'

/** A version 1 pool whose rate has risen 10% from early-close fees shared with the holders. */
const POOL: PoolInfo = testPool({ rate: ((11n * ONE) / 10n).toString(), stakersCount: 1_234 })
const entry = (over: Partial<StakeEntry> = {}, at = T0 + 25 * DAY, rate = BigInt(POOL.rate)) => testStake(over, at, rate)

describe('stake rows', () => {
  it('shows a pending stake with progress to 2 decimals, dates, shares (v1) and its future rewards', () => {
    const row = stakeRow(entry(), POOL, T0 + 25 * DAY + 3_600)
    expect(row).toMatchObject({
      status: 'Pending',
      progressText: '25.04%',
      days: 100,
      created: 'Fri, 15 Jan 2027',
      amount: '1,000.00',
      shares: '1,100.00',
      // Held to the release: the 100 bonus, the 400 reward and the 110 shared with it so far.
      rewards: '610.00',
      rewardParts: 'reward 400.00 + bonus 100.00 + strong hands 110.00',
      releaseEvent: null,
    })
  })

  it('offers the release of a pending stake for a calendar, naming the amount and the token; not a matured or closed one', () => {
    const pending = entry({ id: 4 })
    expect(stakeRow(pending, POOL, T0 + 25 * DAY, 'PLT').releaseEvent).toEqual({
      title: 'Stake release: 1,000.00 PLT (stake #4)',
      start: pending.stakeTime + pending.holdTime,
      fileName: 'stake-4-release',
      label: 'Add to calendar: release of stake #4',
    })
    expect(stakeRow(pending, POOL, pending.stakeTime + pending.holdTime, 'PLT').releaseEvent).toBeNull()
    expect(stakeRow({ ...pending, active: false, closeTime: T0 + 26 * DAY }, POOL, T0 + 27 * DAY, 'PLT').releaseEvent).toBeNull()
  })

  it('splits an early close: the fee, the bonus and the unearned reward forfeited, what is received', () => {
    // A quarter of the way: 100 of the reward earned, a 750 fee (100% falling linearly), 1,000 + 100 + 110 - 750.
    expect(stakeRow(entry(), POOL, T0 + 25 * DAY).close).toEqual({
      early: true,
      rewardEarned: '100.00',
      bonusPaid: '0.00',
      gains: '110.00',
      fee: '750.00',
      bonusForfeited: '100.00',
      rewardForfeited: '300.00',
      toReceive: '460.00',
      hasReward: true,
      hasBonus: true,
    })
  })

  it('caps progress at 100.00% and calls it Matured: no fee, nothing forfeited, bonus and whole reward paid', () => {
    const at = T0 + 400 * DAY
    const row = stakeRow(entry({}, at), POOL, at)
    expect(row).toMatchObject({ status: 'Matured', progressText: '100.00%', rewards: '610.00' })
    expect(row.close).toMatchObject({
      early: false,
      rewardEarned: '400.00',
      bonusPaid: '100.00',
      fee: '0.00',
      bonusForfeited: '0.00',
      rewardForfeited: '0.00',
      toReceive: '1,610.00',
    })
  })

  it('shows what a closed stake earned, negative after an early close, and what it paid', () => {
    const closedAt = T0 + 50 * DAY
    const closed = stakeRow(
      entry({ active: false, closeTime: closedAt, lpAmount: '0', gains: tokens(20n) }, closedAt, ONE),
      POOL,
      T0 + 400 * DAY,
    )
    // Paid 1,000 + 200 reward earned + 20 gains - 500 fee: 280 less than was staked.
    expect(closed).toMatchObject({ status: 'Closed', progressText: '50.00%', rewards: '-280.00', rewardParts: null })
    expect(closed.close).toMatchObject({
      early: true,
      gains: '20.00',
      fee: '500.00',
      bonusForfeited: '100.00',
      toReceive: '720.00',
    })
  })

  it('has no shares column in version 2 and counts the bonus as its future rewards', () => {
    const v2 = { ...POOL, version: 2, rate: ONE.toString(), inflationPercent: '0' }
    const row = stakeRow(entry({ reward: '0' }, T0, ONE), v2, T0)
    expect(row.shares).toBeNull()
    expect(row.rewards).toBe('100.00')
    expect(row.rewardParts).toBeNull()
    expect(row.close).toMatchObject({ hasReward: false, hasBonus: true, fee: '1,000.00', toReceive: '0.00' })
  })

  it('exports exact amounts and ISO dates as CSV', () => {
    const csv = stakesCsv([stakeRow(entry({ stakeAmount: (1_000n * E18 + 1n).toString() }), POOL, T0)])
    expect(csv.split('\r\n')).toEqual([
      'id,created,release,amount,shares,status,rewards or earned',
      '3,2027-01-15T08:00:00.000Z,2027-04-25T08:00:00.000Z,1000.000000000000000001,1100.0,Pending,610.0',
      '',
    ])
  })
})

describe('stake rows on a refresh', () => {
  const closed = entry({ id: 1, active: false, closeTime: T0 + 10 * DAY })
  const stateAt = (time: number, stakes: StakeEntry[], closingId: number | null = null) =>
    makeStore({
      stake: {
        ...initialStakeState,
        pool: POOL,
        status: 'succeeded',
        userStakes: stakes,
        chainTime: time,
        closing: { id: closingId, status: 'idle', error: null },
      },
    }).getState()

  it('keeps the object of a row whose figures did not change, so only the changed rows render again', () => {
    const selectStakeRows = makeSelectStakeRows()
    const first = selectStakeRows(stateAt(T0 + 25 * DAY, [entry({ id: 2 }), closed]))
    // A day later, with a new stake first: the active row moved on, the closed one did not.
    const later = selectStakeRows(
      stateAt(T0 + 26 * DAY, [entry({ id: 4 }, T0 + 26 * DAY), entry({ id: 2 }, T0 + 26 * DAY), closed]),
    )
    expect(later.closed[0]).toBe(first.closed[0])
    expect(later.active.find((r) => r.id === 2)).not.toBe(first.active[0])
    expect(later.active.find((r) => r.id === 2)).toEqual(stakeRow(entry({ id: 2 }, T0 + 26 * DAY), POOL, T0 + 26 * DAY))
  })

  it('remembers rows per selector: another store (or list) neither reuses nor disturbs them', () => {
    const [one, other] = [makeSelectStakeRows(), makeSelectStakeRows()]
    const first = one(stateAt(T0 + 25 * DAY, [closed]))
    // Another selector (another store's list) sees the same stake: it makes its own row...
    const elsewhere = other(stateAt(T0 + 25 * DAY, [closed]))
    expect(elsewhere.closed[0]).toEqual(first.closed[0])
    expect(elsewhere.closed[0]).not.toBe(first.closed[0])
    // ...and a list of other stakes there does not make the first selector forget its row.
    other(stateAt(T0 + 25 * DAY, [entry({ id: 2 })]))
    expect(one(stateAt(T0 + 30 * DAY, [closed])).closed[0]).toBe(first.closed[0])
  })

  it("finds the summary's row by the stake being closed, and keeps it while its figures stay", () => {
    const at = stateAt(T0 + 25 * DAY, [entry({ id: 2 }), closed], 1)
    const row = selectSummaryRow(at)
    expect(row).toEqual(stakeRow(closed, POOL, T0 + 25 * DAY))
    expect(selectSummaryRow(stateAt(T0 + 26 * DAY, [entry({ id: 2 }), closed], 1))).toBe(row)
    expect(selectSummaryRow(stateAt(T0 + 26 * DAY, [entry({ id: 2 }), closed], 9))).toBeNull()
  })
})

describe('approval (docs/product.md §3.3, §11)', () => {
  const OTHER_POOL = '0xd8058efe0198ae9dD7D563e1b4938Dcbc86A1F81'
  const state = (bySpender: Record<string, string>, over: Partial<RootState['stake']> = {}) =>
    makeStore({
      wallet: connectedWallet(),
      token: { ...initialTokenState, symbol: 'PLT', allowances: devAllowances(bySpender) },
      stake: { ...initialStakeState, pool: POOL, status: 'succeeded', ...over },
    }).getState()

  it('is approved only when the allowance to the pool covers the amount, not for any allowance above 0', () => {
    const s = state({ [POOL.address]: (5n * E18).toString() })
    expect(selectApproval(s, (10n * E18).toString())).toMatchObject({
      approved: false,
      short: true,
      allowanceText: '5.00 PLT',
      exact: { amount: (10n * E18).toString(), text: '10.00 PLT' },
    })
    expect(selectApproval(s, (5n * E18).toString())).toMatchObject({ approved: true, short: false })
    expect(selectApproval(state({ [POOL.address]: '0' }), '1')).toMatchObject({ approved: false, short: false })
  })

  it('counts any allowance while there is no amount yet, and offers the spec 1e28 as unlimited', () => {
    expect(selectApproval(state({ [POOL.address]: '1' }), null)).toMatchObject({ approved: true, exact: null })
    expect(selectApproval(state({ [POOL.address]: '0' }), null).approved).toBe(false)
    expect(selectApproval(state({}), null).unlimited).toEqual({ amount: (10n ** 28n).toString(), text: '10,000,000,000.00 PLT' })
  })

  it("reads the allowance to this pool only: another pool's does not approve it, whatever the address's case", () => {
    const other = state({ [OTHER_POOL]: (10n ** 28n).toString() })
    expect(selectApproval(other, (1n * E18).toString())).toMatchObject({ approved: false, allowanceText: '0.00 PLT' })
    const mine = state({ [POOL.address.toUpperCase().replace('0X', '0x')]: (10n ** 28n).toString() })
    expect(selectApproval(mine, (1n * E18).toString()).approved).toBe(true)
    // Without a pool read there is nothing to approve for.
    expect(selectApproval(state({ [POOL.address]: '1' }, { pool: null }), null).approved).toBe(false)
  })

  it('is in flight while the approval is sent or one sent before a reload is still pending', () => {
    expect(selectApprovalInFlight(state({}))).toBe(false)
    expect(selectApprovalInFlight(state({}, { approving: true }))).toBe(true)
    const store = makeStore({ wallet: connectedWallet() })
    store.dispatch(txSubmitted({ kind: 'approve', hash: '0xa', chainId: 31337 }))
    expect(selectApprovalInFlight(store.getState())).toBe(true)
  })
})

describe('pool view', () => {
  it("shows the pool's own count of stakers, and a dash before the first read", () => {
    const loaded = makeStore({ stake: { ...initialStakeState, pool: POOL, status: 'succeeded' } }).getState()
    expect(selectPoolView(loaded)).toMatchObject({ holders: '1,234', apr: '400.00%', loading: false })
    expect(selectPoolView(makeStore().getState())).toMatchObject({ holders: '—', loading: true })
  })

  it('names the early-close fees still being shared and until when; nothing when none (or only dust) is left', () => {
    const note = (over: Partial<PoolInfo>) =>
      selectFeeStreamNote(
        makeStore({
          stake: { ...initialStakeState, pool: { ...POOL, ...over }, status: 'succeeded' },
          token: { ...initialTokenState, symbol: 'PLT' },
        }).getState(),
      )
    expect(note({ feesStreaming: ((1_234_567n * E18) / 1000n).toString(), feeStreamEnd: T0 + 30 * DAY })).toBe(
      '1,234.56 PLT of early-close fees being shared until Sun, 14 Feb 2027',
    )
    expect(note({ feesStreaming: '0', feeStreamEnd: 0 })).toBeNull()
    expect(note({ feesStreaming: (E18 / 1000n).toString(), feeStreamEnd: T0 })).toBeNull()
    expect(selectFeeStreamNote(makeStore().getState())).toBeNull()
  })
})

describe('deposit limits and estimate', () => {
  it('uses 1 to the pool maximum, and the referral minimum with a referral (docs/product.md §4.2)', () => {
    expect(daysLimits(POOL, false)).toEqual({ min: 1, max: 1095 })
    expect(daysLimits(POOL, true)).toEqual({ min: 30, max: 1095 })
    expect(daysLimits(null, false)).toEqual({ min: 1, max: 1095 })
  })

  it('matches previewStake from the shared math to the displayed precision', () => {
    const amount = 1_234n * E18 + 7n
    const p = previewStake(poolMath(POOL), amount, 200n * BigInt(DAY), true)
    const shown = depositPreview(POOL, amount, 200, true)
    const cents = (wei: bigint) =>
      new Intl.NumberFormat('en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        roundingMode: 'trunc',
      } as Intl.NumberFormatOptions).format(Number(wei / 10n ** 14n) / 10_000)
    expect(shown.totalShares).toBe(cents(p.shares))
    expect(shown.bonus).toBe(cents(p.bonus))
    expect(shown.reward).toBe(cents(p.reward))
    expect(shown.atMaturity).toBe(cents(p.atMaturity))
    expect(shown).toMatchObject({
      // 5% x 200 / 1095: the referral bonus grows with the hold, as the length bonus does.
      referralBonus: '0.91%',
      lengthBonus: '5.47%',
      feePercent: '100.00%',
      hasReward: true,
      shortfall: null,
    })
  })

  it('says when the reservoir cannot fund the whole bonus and reward, and how much it funds', () => {
    const short = { ...POOL, reservoirAvailable: tokens(150n) }
    // 1,000 for 365 days: a 100 bonus and a 4,000 reward wanted; the bonus is funded first, the reward gets 50.
    expect(depositPreview(short, 1_000n * E18, 365, false)).toMatchObject({
      bonus: '100.00',
      reward: '50.00',
      atMaturity: '1,150.00',
      shortfall: {
        funded: '150.00',
        wanted: '4,100.00',
        bonus: '100.00',
        bonusWanted: '100.00',
        bonusCut: false,
        reward: '50.00',
        rewardWanted: '4,000.00',
        rewardCut: true,
        // What the stake gets, to the wei, as the minimums the person accepts.
        minimums: { bonus: (100n * E18).toString(), reward: (50n * E18).toString() },
      },
    })
    expect(depositPreview(short, 0n, 365, false).shortfall).toBeNull()
    // An empty reservoir: the stake would get neither.
    expect(depositPreview({ ...POOL, reservoirAvailable: '0' }, 1_000n * E18, 365, false).shortfall).toMatchObject({
      bonusCut: true,
      rewardCut: true,
      minimums: { bonus: '0', reward: '0' },
    })
  })
})
