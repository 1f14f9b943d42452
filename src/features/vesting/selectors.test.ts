import { makeStore, type RootState } from '../../app/store'
import { initialTokenState, type TrackedTx } from '../token/slice'
import {
  selectCanClaim,
  selectClaimBlock,
  selectClaimView,
  selectHarvestTermRewards,
  selectNextClaimLine,
  selectNextUnlockEvent,
  selectSelectedTerm,
  selectTermOptions,
  selectTimelineAt,
  VESTING_SCHEDULES,
} from './selectors'
import reducer, {
  EMPTY_VESTING_INFO,
  harvestTermsLoaded,
  initialVestingState,
  lastClaimedBlockLoaded,
  vestingChainRead,
  type VestingInfo,
  type VestingState,
} from './slice'

const terms0 = [{ hold: 86_400, bonus: '1' }]

const E18 = 10n ** 18n
const tokens = (n: bigint) => (n * E18).toString()

const SIGNED: VestingInfo = {
  total: tokens(1000n),
  claimed: tokens(300n),
  unlocked: tokens(150n),
  lastUpdateBlock: '40',
  currentBlock: '52',
  deadline: '1795000000',
  message: '0x01',
  signature: '0x02',
  rewardToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  next: null,
  // 1,000 PLT: 300 at TGE, 300 at month 1, then 4 steps of 100.
  schedule: [300n, 300n, 100n, 100n, 100n, 100n].map((amount, i) => ({
    date: new Date(Date.UTC(2026, 9, 8, 10) + i * 30 * 86_400_000).toISOString(),
    amount: tokens(amount),
  })),
}

function state(
  vesting: Omit<Partial<VestingState>, 'info'> & { info?: Partial<VestingInfo> } = {},
  token: Partial<RootState['token']> = {},
): RootState {
  const base = makeStore().getState()
  return {
    ...base,
    token: { ...initialTokenState, symbol: 'PLT', ...token },
    vesting: {
      ...initialVestingState,
      status: 'succeeded',
      chainStatus: 'succeeded',
      loadedAt: Date.now(),
      lastClaimedBlock: '40',
      ...vesting,
      info: { ...SIGNED, ...vesting.info },
    },
  }
}

describe('the next-claim line', () => {
  it('names the next unlock with its amount and date', () => {
    const s = state({ info: { next: { amount: tokens(4800n), date: '2026-12-07T10:00:00.000Z' } } })
    expect(selectNextClaimLine(s)).toEqual({ kind: 'next', amount: '4,800.00 PLT', date: 'Mon, 7 Dec 2026' })
  })

  it("says 'You have last claim of X' when nothing unlocks later but something is still unclaimed", () => {
    expect(selectNextClaimLine(state())).toEqual({ kind: 'last', amount: '150.00 PLT' })
  })

  it("says 'All tokens have been claimed' once claimed reaches the total", () => {
    const s = state({ info: { claimed: tokens(1000n), unlocked: '0', message: null, signature: null } })
    expect(selectNextClaimLine(s)).toEqual({ kind: 'all' })
  })

  it('says nothing for a wallet without an allocation', () => {
    expect(selectNextClaimLine(state({ info: EMPTY_VESTING_INFO }))).toBeNull()
  })
})

describe('the next unlock for a calendar', () => {
  it('names the amount and the token, at the moment of the unlock', () => {
    const s = state({ info: { next: { amount: tokens(4800n), date: '2026-12-07T10:00:00.000Z' } } })
    expect(selectNextUnlockEvent(s)).toEqual({
      title: 'Unlock of 4,800.00 PLT',
      start: Date.UTC(2026, 11, 7, 10) / 1000,
      fileName: 'unlock-2026-12-07',
      label: 'Add to calendar: unlock of 4,800.00 PLT on Mon, 7 Dec 2026',
    })
  })

  it('offers none without a next unlock, or before the token is known', () => {
    expect(selectNextUnlockEvent(state())).toBeNull()
    const next = { amount: tokens(4800n), date: '2026-12-07T10:00:00.000Z' }
    expect(selectNextUnlockEvent(state({ info: { next } }, { symbol: '' }))).toBeNull()
  })
})

describe('the unlock timeline', () => {
  // 9 Dec 2026: two days after the first monthly step (7 Dec); the wall clock in ms, as the component passes it.
  const NOW = Date.UTC(2026, 11, 9)

  it('formats the split at now and every step, with its running total and standing', () => {
    const view = selectTimelineAt(NOW)(state())!
    expect(view.today).toBe('Wed, 9 Dec 2026')
    // Claimed 300 of the 700 unlocked by 9 Dec.
    expect(view.split).toEqual({ claimed: '300.00 PLT', claimable: '400.00 PLT', locked: '300.00 PLT' })
    expect(view.rows.map((r) => [r.date, r.amount, r.cumulative, r.stateText])).toEqual([
      ['Thu, 8 Oct 2026', '300.00', '300.00', 'Claimed'],
      ['Sat, 7 Nov 2026', '300.00', '600.00', 'Claimable'],
      ['Mon, 7 Dec 2026', '100.00', '700.00', 'Claimable'],
      ['Wed, 6 Jan 2027', '100.00', '800.00', 'Locked'],
      ['Fri, 5 Feb 2027', '100.00', '900.00', 'Locked'],
      ['Sun, 7 Mar 2027', '100.00', '1,000.00', 'Locked'],
    ])
    expect(view.symbol).toBe('PLT')
    expect(view.ticks.length).toBeGreaterThan(0)
    expect(view.ticks.length).toBeLessThanOrEqual(4)
  })

  it("runs on the chain's clock once read, moved on by the wall clock since: a dev chain may be ahead", () => {
    // The chain read at 1 Dec (wall clock) found a block of 10 Jan 2027; a day later (wall clock) it is 11 Jan there.
    const chainClock = { chainTime: Date.UTC(2027, 0, 10) / 1000, readAt: Date.UTC(2026, 11, 1) }
    const view = selectTimelineAt(Date.UTC(2026, 11, 2))(state({ chainClock }))!
    expect(view.today).toBe('Mon, 11 Jan 2027')
    expect(view.now).toBe(Date.UTC(2027, 0, 11) / 1000)
    // 800 unlocked by 6 Jan, 300 claimed.
    expect(view.split).toEqual({ claimed: '300.00 PLT', claimable: '500.00 PLT', locked: '200.00 PLT' })
  })

  it('keeps its result for the same state and moment, and has none before an answer or without unlocks', () => {
    const s = state()
    expect(selectTimelineAt(NOW)(s)).toBe(selectTimelineAt(NOW)(s))
    expect(selectTimelineAt(NOW)(state({ loadedAt: null }))).toBeNull()
    expect(selectTimelineAt(NOW)(state({ info: EMPTY_VESTING_INFO }))).toBeNull()
  })
})

describe('the claim rule (docs/product.md §4.5)', () => {
  it('allows a claim when something is unlocked and signed from the last claimed block', () => {
    expect(selectClaimBlock(state())).toBeNull()
    expect(selectCanClaim(state())).toBe(true)
  })

  it('blocks it when nothing is unlocked', () => {
    expect(selectClaimBlock(state({ info: { unlocked: '0', message: null, signature: null } }))).toBe('nothing')
  })

  it('blocks it when the last update block differs from the chain, either way', () => {
    expect(selectClaimBlock(state({ lastClaimedBlock: '41' }))).toBe('stale')
    expect(selectClaimBlock(state({ info: { lastUpdateBlock: '39' } }))).toBe('stale')
    expect(selectClaimBlock(state({ lastClaimedBlock: null }))).toBe('stale')
  })

  it('blocks it while the status loads and while a claim is in flight', () => {
    expect(selectClaimBlock(state({ status: 'pending' }))).toBe('loading')
    expect(selectClaimBlock(state({ claim: { status: 'pending', kind: 'stake', error: null } }))).toBe('claiming')
    expect(selectCanClaim(state({ claim: { status: 'pending', kind: 'wallet', error: null } }))).toBe(false)
  })

  it('blocks it while a claim sent before a reload is still pending, and not once it has ended', () => {
    const sent = (status: TrackedTx['status']): Partial<RootState['token']> => ({
      transactions: [{ hash: '0xab', kind: 'claimStake', chainId: 31337, status, receipt: null, message: null }],
    })
    expect(selectClaimBlock(state({}, sent('pending')))).toBe('claiming')
    expect(selectClaimBlock(state({}, sent('confirmed')))).toBeNull()
    expect(selectClaimBlock(state({}, sent('dropped')))).toBeNull()
  })

  it('allows another try after a failed claim', () => {
    expect(selectClaimBlock(state({ claim: { status: 'failed', kind: 'wallet', error: 'x' } }))).toBeNull()
  })
})

describe('the figures', () => {
  it('shows the three amounts with the symbol, rounded down', () => {
    const s = state({ info: { unlocked: (150n * E18 + 999n).toString() } })
    expect(selectClaimView(s)).toMatchObject({
      loading: false,
      available: '150.00 PLT',
      total: '1,000.00 PLT',
      claimed: '300.00 PLT',
      claiming: null,
    })
  })

  it('shows placeholders before the first answer but keeps the figures during a refresh', () => {
    expect(selectClaimView(state({ status: 'idle', loadedAt: null })).loading).toBe(true)
    expect(selectClaimView(state({ status: 'pending', loadedAt: null, info: EMPTY_VESTING_INFO })).loading).toBe(true)
    expect(selectClaimView(state({ status: 'pending' })).loading).toBe(false)
    // A failure before any answer: not loading, not zeros.
    const failed = selectClaimView(state({ status: 'failed', loadedAt: null, info: EMPTY_VESTING_INFO }))
    expect([failed.loading, failed.available, failed.total, failed.claimed]).toEqual([false, '—', '—', '—'])
    expect(selectClaimBlock(state({ status: 'failed' }))).toBe('unavailable')
    expect(selectClaimBlock(state({ chainStatus: 'failed' }))).toBe('unavailable')
  })
})

describe('the schedules and terms', () => {
  it('words the three schedules as the spec does', () => {
    expect(VESTING_SCHEDULES).toEqual([
      { round: 'Public', text: 'TGE 30% + 1st month 30%' },
      { round: 'Private', text: 'TGE 15% + 1st month 20%' },
      { round: 'Seed', text: 'TGE 10% + 1st month 20%' },
    ])
  })

  const DAY = 86_400
  const terms = [
    { hold: 30 * DAY, bonus: tokens(5n) },
    { hold: 90 * DAY, bonus: tokens(20n) },
    { hold: 365 * DAY, bonus: tokens(100n) },
  ]

  it('lists days, bonus and APR = 31536000 / hold * bonus', () => {
    expect(selectTermOptions(state({ harvestTerms: terms }))).toEqual([
      { index: 0, hold: 30 * DAY, days: 30, bonus: '5.00', apr: '60.83' },
      { index: 1, hold: 90 * DAY, days: 90, bonus: '20.00', apr: '81.11' },
      { index: 2, hold: 365 * DAY, days: 365, bonus: '100.00', apr: '100.00' },
    ])
  })

  it('selects the second term by default, the chosen one after a pick, and the last when fewer are offered', () => {
    expect(selectSelectedTerm(state({ harvestTerms: terms }))?.days).toBe(90)
    expect(selectSelectedTerm(state({ selectedTerm: 2, harvestTerms: terms }))?.days).toBe(365)
    expect(selectSelectedTerm(state({ harvestTerms: terms.slice(0, 1) }))?.days).toBe(30)
    expect(selectSelectedTerm(state({ harvestTerms: [] }))).toBeNull()
  })

  it("gives each term's inflation reward in the harvest pool, none when the pool pays none or it is not known", () => {
    // 400% a year: 30 days earn 32.87%, 365 days 400%.
    expect(selectHarvestTermRewards(state({ harvestTerms: terms, harvestInflationPercent: tokens(400n) }))).toEqual({
      [30 * DAY]: '32.87',
      [90 * DAY]: '98.63',
      [365 * DAY]: '400.00',
    })
    expect(selectHarvestTermRewards(state({ harvestTerms: terms, harvestInflationPercent: '0' }))).toEqual({})
    expect(selectHarvestTermRewards(state({ harvestTerms: terms }))).toEqual({})
  })
})

describe('the vesting slice', () => {
  it('keeps the harvest terms, their pool and the last claimed block the chain read brings', () => {
    let v = reducer(initialVestingState, harvestTermsLoaded({ pool: '0xPool', terms: terms0 }))
    expect(v).toMatchObject({ harvestPool: '0xPool', harvestTerms: terms0, harvestInflationPercent: null })
    v = reducer(v, harvestTermsLoaded({ pool: '0xPool', terms: terms0, inflationPercent: tokens(4n) }))
    expect(v.harvestInflationPercent).toBe(tokens(4n))
    v = reducer(v, lastClaimedBlockLoaded('52'))
    expect(v.lastClaimedBlock).toBe('52')
    expect(JSON.parse(JSON.stringify(v))).toEqual(v)
  })

  it("keeps the chain's clock of the last read that found a block; a failed read leaves it", () => {
    const clock = { chainTime: 1_800_000_000, readAt: 1_795_000_000_000 }
    let v = reducer(initialVestingState, vestingChainRead({ error: null, clock }))
    expect(v).toMatchObject({ chainStatus: 'succeeded', chainClock: clock })
    v = reducer(v, vestingChainRead({ error: "Can't reach the network." }))
    expect(v).toMatchObject({ chainStatus: 'failed', chainClock: clock })
  })
})
