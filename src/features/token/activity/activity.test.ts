import { runSaga } from 'redux-saga'
import { makeStore } from '../../../app/store'
import { txConfirmed, txEnded, txFailed, txReplaced, txRestored, txSubmitted } from '../../../chain/txActions'
import { createMemoryEnv } from '../../../platform/browserEnv'
import { connectedWallet, walletState } from '../../../../test/support/render'
import { DEV_ADDRESS } from '../../../../test/support/fixtures'
import reducer, {
  activityExportRequested,
  activityFailed,
  activityHolderChanged,
  activityLoaded,
  initialTokenState,
  moreActivityLoaded,
  moreActivityRequested,
  type TokenState,
} from '../slice'
import { fetchActivityPage, IndexReadError, parseActivityPage, serviceRoot, type ActivityItem, type ActivityPage } from './api'
import { activityCsv } from './csv'
import { appendPage, closeResult, mergeFirstPage } from './list'
import { exportActivity } from './sagas'
import { selectActivityView, selectActivityWaiting } from './selectors'

const E18 = 10n ** 18n
const ME = DEV_ADDRESS.toLowerCase()
const POOL = '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd'
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

/** An event at block `block` (log index 0): newest first means the highest block first. */
function item(block: number, over: Partial<ActivityItem> = {}): ActivityItem {
  return {
    kind: 'stake',
    pool: POOL,
    stakeId: String(block),
    amount: (100n * E18).toString(),
    amountOut: null,
    fee: null,
    forfeited: null,
    hold: 90 * 86_400,
    txHash: hash(block),
    logIndex: 0,
    blockNumber: block,
    time: new Date(Date.UTC(2027, 0, 1) + block * 60_000).toISOString(),
    ...over,
  }
}

const page = (items: ActivityItem[], next: string | null, indexedBlock = 100, lag = 0): ActivityPage => ({
  items,
  next,
  indexedBlock,
  headBlock: indexedBlock + lag,
  lag,
})

/** The token slice with the Development account's history on the local chain. */
const holding = (s: TokenState = initialTokenState) => reducer(s, activityHolderChanged({ holder: ME, chainId: 31337 }))

/** A store whose wallet is the Development account on the local chain, with this token slice. */
const storeWith = (token: TokenState) => makeStore({ wallet: connectedWallet(), token: { ...token, symbol: 'PLT' } })

describe('the activity list: pages joining the list', () => {
  it('puts a fresh first page over the list and keeps the older pages already read after it, with their cursor', () => {
    const shown = { items: [item(90), item(80), item(70), item(60)], next: 'after-60' }
    // Two new events; the first page now ends at 80, so 70 and 60 (read by "Load more") stay, as does their cursor.
    expect(mergeFirstPage(shown, { items: [item(95), item(92), item(90), item(80)], next: 'after-80' })).toEqual({
      items: [item(95), item(92), item(90), item(80), item(70), item(60)],
      next: 'after-60',
    })
    // A first page that is the whole history replaces everything (an event a reorg undid goes).
    expect(mergeFirstPage(shown, { items: [item(95), item(80)], next: null })).toEqual({
      items: [item(95), item(80)],
      next: null,
    })
    // Only one page read: the new page and its own cursor.
    expect(mergeFirstPage({ items: [item(90)], next: 'after-90' }, { items: [item(95), item(90)], next: 'after-90b' })).toEqual({
      items: [item(95), item(90)],
      next: 'after-90b',
    })
  })

  it('appends an older page without showing an event twice', () => {
    expect(appendPage([item(90), item(80)], [item(80), item(70)]).map((i) => i.blockNumber)).toEqual([90, 80, 70])
  })

  it('tells what a close received and earned, or what it cost', () => {
    const close = (amountOut: bigint, fee: bigint) =>
      item(5, { kind: 'close', amount: (1000n * E18).toString(), amountOut: amountOut.toString(), fee: fee.toString() })
    expect(closeResult(close(1100n * E18, 0n))).toEqual({ received: 1100n * E18, earned: 100n * E18 })
    expect(closeResult(close(1000n * E18, 250n * E18))).toEqual({ received: 750n * E18, earned: -250n * E18 })
    expect(closeResult(item(5))).toBeNull()
  })

  it('reads pages in order: Load more appends, a page asked for before a refresh moved the cursor is dropped', () => {
    let s = holding()
    s = reducer(s, activityLoaded({ page: page([item(90), item(80)], 'c1'), at: 1 }))
    s = reducer(s, moreActivityRequested())
    expect(s.activity.more).toBe('loading')
    s = reducer(s, moreActivityLoaded({ page: page([item(70)], 'c2'), cursor: 'c1' }))
    expect(s.activity.items.map((i) => i.blockNumber)).toEqual([90, 80, 70])
    expect([s.activity.next, s.activity.more]).toEqual(['c2', 'idle'])
    expect(reducer(s, moreActivityLoaded({ page: page([item(10)], null), cursor: 'stale' }))).toEqual(s)
  })

  it('keeps the list when a read fails, and drops it for another holder', () => {
    let s = reducer(holding(), activityLoaded({ page: page([item(90)], null), at: 1 }))
    s = reducer(s, activityFailed({ error: "Can't reach the activity service.", failure: 'down' }))
    expect(s.activity.items).toHaveLength(1)
    expect(s.activity.status).toBe('failed')
    s = reducer(s, activityHolderChanged({ holder: '0x' + 'b'.repeat(40), chainId: 31337 }))
    expect([s.activity.items, s.activity.status]).toEqual([[], 'idle'])
  })
})

describe('pending transactions from the journal', () => {
  const sent = (s: TokenState, n: number, kind: 'stake' | 'unstake' | 'approve' = 'stake') =>
    reducer(
      s,
      txSubmitted({ kind, hash: hash(n).toUpperCase().replace('0X', '0x'), chainId: 31337, from: DEV_ADDRESS, at: 5_000 }),
    )

  it('sit on top, marked pending, until the index lists them by hash; an approval is no activity', () => {
    let s = sent(sent(holding(), 101), 102, 'approve')
    s = reducer(s, activityLoaded({ page: page([item(90)], null), at: 1 }))
    let view = selectActivityView(storeWith(s).getState())
    expect(view.pending.map((r) => [r.what, r.hash, r.status])).toEqual([['Stake', hash(101), 'Waiting for its receipt']])
    expect(view.rows.map((r) => r.hash)).toEqual([hash(90)])
    expect(selectActivityWaiting(storeWith(s).getState())).toBe(true)
    // Mined, not yet indexed (the index has read to block 100 only): still pending, saying so.
    s = reducer(s, txConfirmed({ kind: 'stake', hash: hash(101), receipt: { blockNumber: 101, status: 'success' } }))
    s = reducer(s, activityLoaded({ page: page([item(90)], null, 100), at: 2 }))
    view = selectActivityView(storeWith(s).getState())
    expect(view.pending[0].status).toBe('Confirmed in block 101; not listed by the index yet')
    // The index lists it: it leaves the pending part and shows once, as the indexed event.
    s = reducer(s, activityLoaded({ page: page([item(101), item(90)], null, 101), at: 3 }))
    view = selectActivityView(storeWith(s).getState())
    expect(view.pending).toEqual([])
    expect(view.rows.map((r) => r.hash)).toEqual([hash(101), hash(90)])
    expect(s.activity.sent).toEqual([])
    expect(selectActivityWaiting(storeWith(s).getState())).toBe(false)
  })

  it('follows a replacement, drops what failed or ended, and shows another sender’s only to them', () => {
    let s = sent(sent(sent(holding(), 1), 2), 3)
    s = reducer(s, txReplaced({ kind: 'stake', oldHash: hash(1), hash: hash(11) }))
    s = reducer(s, txFailed({ kind: 'stake', hash: hash(2), message: 'reverted' }))
    s = reducer(s, txEnded({ kind: 'stake', hash: hash(3), end: 'dropped', message: 'gone' }))
    s = reducer(s, txRestored({ kind: 'unstake', hash: hash(4), chainId: 31337, from: '0x' + 'c'.repeat(40), at: 1 }))
    s = reducer(s, activityLoaded({ page: page([], null), at: 1 }))
    expect(s.activity.sent.map((t) => [t.hash, t.kind])).toEqual([
      [hash(11), 'stake'],
      [hash(4), 'close'],
    ])
    expect(selectActivityView(storeWith(s).getState()).pending.map((r) => r.hash)).toEqual([hash(11)])
  })
})

describe('what the section says', () => {
  const view = (s: TokenState) => selectActivityView(storeWith(s).getState())

  it('says "No activity yet" only when the index is caught up and found nothing', () => {
    expect(view(holding()).empty).toBeNull()
    expect(view(holding()).loading).toBe(true)
    const caughtUp = reducer(holding(), activityLoaded({ page: page([], null, 100, 2), at: 1 }))
    expect([view(caughtUp).empty, view(caughtUp).notice]).toEqual(['No activity yet', null])
    const behind = reducer(holding(), activityLoaded({ page: page([], null, 100, 3), at: 1 }))
    expect(view(behind).empty).toBe('Nothing listed up to block 100 yet.')
    expect(view(behind).notice).toMatchObject({
      kind: 'behind',
      title: 'The activity index is 3 blocks behind the chain',
      retry: false,
    })
  })

  it('says the service is down or starting, never the empty state, and keeps what was read', () => {
    const down = reducer(holding(), activityFailed({ error: "Can't reach the activity service.", failure: 'down' }))
    expect(view(down)).toMatchObject({
      empty: null,
      rows: [],
      notice: { kind: 'down', title: "Can't reach the activity service" },
    })
    const starting = reducer(holding(), activityFailed({ error: 'starting', failure: 'starting' }))
    expect(view(starting).notice?.kind).toBe('starting')
    const read = reducer(holding(), activityLoaded({ page: page([item(9)], null), at: 1 }))
    const thenDown = reducer(read, activityFailed({ error: 'x', failure: 'down' }))
    expect(view(thenDown).rows).toHaveLength(1)
    expect(view(thenDown).notice?.text).toContain('The list shows the history as last read.')
  })

  it('words each kind with its amount and what a close earned or cost', () => {
    const close = item(50, {
      kind: 'close',
      amount: (1000n * E18).toString(),
      amountOut: (1000n * E18).toString(),
      fee: (250n * E18).toString(),
      forfeited: (40n * E18).toString(),
    })
    const claim = item(40, { kind: 'claim', pool: null, stakeId: null, hold: null, amount: (4800n * E18).toString() })
    const s = reducer(holding(), activityLoaded({ page: page([close, item(45, { kind: 'claim-stake' }), claim], null), at: 1 }))
    expect(view(s).rows.map((r) => [r.what, r.detail, r.amount, r.result?.text ?? null])).toEqual([
      ['Close', 'Stake #50 in pool 1: received 750.00 PLT, fee 250.00 PLT', '1,000.00 PLT', '-250.00 PLT'],
      ['Claim and stake', 'Into stake #45 in pool 1, 90 days', '100.00 PLT', null],
      ['Claim', 'To the wallet', '4,800.00 PLT', null],
    ])
    expect(view(s).rows[0].url).toMatch(new RegExp(`/explorer/tx/${hash(50)}$`))
  })

  it('shows nothing without an address to show', () => {
    expect(selectActivityView(makeStore({ wallet: walletState() }).getState()).shown).toBe(false)
  })
})

describe('the activity API', () => {
  const respond = (status: number, body: unknown) =>
    (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch

  it('takes the documented page and refuses any other shape', () => {
    const body = page([item(3)], 'abc', 10, 1)
    expect(parseActivityPage(body)).toEqual(body)
    expect(() => parseActivityPage({ ...body, items: [{ ...item(3), amount: '1.5' }] })).toThrow(IndexReadError)
    expect(() => parseActivityPage({ ...body, items: [{ ...item(3), kind: 'approve' }] })).toThrow(IndexReadError)
    expect(() => parseActivityPage({ ...body, lag: undefined })).toThrow(IndexReadError)
  })

  it('says why a read failed: unreachable, starting, refused', async () => {
    const reason = (f: typeof fetch) =>
      fetchActivityPage('http://api', ME, null, 50, f).then(
        () => null,
        (e: IndexReadError) => [e.reason, e.message],
      )
    const down = (async () => {
      throw new TypeError('fetch failed')
    }) as unknown as typeof fetch
    expect(await reason(down)).toEqual(['down', "Can't reach the activity service."])
    expect(await reason(respond(503, { statusCode: 503, reason: 'index_starting' }))).toEqual([
      'starting',
      'The activity index is starting and has not read the chain yet.',
    ])
    expect((await reason(respond(400, { statusCode: 400 })))?.[0]).toBe('refused')
  })

  it('is served beside the vesting API', () => {
    expect(serviceRoot('http://127.0.0.1:8787/vesting')).toBe('http://127.0.0.1:8787')
    expect(serviceRoot('https://api.example.com')).toBe('https://api.example.com')
  })
})

describe('Export CSV', () => {
  it('reads every page by following next and saves the whole history, not the page shown', async () => {
    const all = Array.from({ length: 450 }, (_, n) => item(1000 - n))
    const asked: string[] = []
    const fetchImpl = (async (url: string) => {
      asked.push(url)
      const q = new URL(url).searchParams
      const from = Number(q.get('cursor') ?? 0)
      const limit = Number(q.get('limit'))
      const items = all.slice(from, from + limit)
      const next = from + limit < all.length ? String(from + limit) : null
      return new Response(JSON.stringify(page(items, next, 1000)), { status: 200 })
    }) as unknown as typeof fetch
    const realFetch = global.fetch
    global.fetch = fetchImpl
    try {
      const env = createMemoryEnv()
      const store = storeWith(holding())
      store.dispatch(activityExportRequested())
      await runSaga({ getState: store.getState, dispatch: store.dispatch, context: { env } }, exportActivity).toPromise()
      expect(asked.map((u) => new URL(u).searchParams.get('cursor'))).toEqual([null, '200', '400'])
      expect(env.saved).toHaveLength(1)
      const lines = env.saved[0].text.trimEnd().split('\r\n')
      expect(env.saved[0].name).toBe(`activity-${ME}.csv`)
      expect(lines).toHaveLength(451)
      expect(lines[0]).toBe('time,kind,amount,received,fee,earned or cost,forfeited,hold days,pool,stake id,block,transaction')
      expect(lines[1]).toBe(`${all[0].time},stake,100.0,,,,,90,${POOL},1000,1000,${hash(1000)}`)
      expect(lines[450]).toContain(hash(551))
      expect(selectActivityView(store.getState()).exporting.message).toBe('Saved 450 events as CSV.')
    } finally {
      global.fetch = realFetch
    }
  })

  it('writes a close with what it received and what it cost, to the last digit', () => {
    const close = item(7, {
      kind: 'close',
      amount: (1000n * E18).toString(),
      amountOut: (1000n * E18 + 1n).toString(),
      fee: (300n * E18).toString(),
      forfeited: '5',
    })
    expect(activityCsv([close]).split('\r\n')[1]).toBe(
      `${close.time},close,1000.0,700.000000000000000001,300.0,-299.999999999999999999,0.000000000000000005,90,${POOL},7,7,${hash(7)}`,
    )
  })
})
