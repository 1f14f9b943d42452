import { act, screen, within } from '@testing-library/react'
import { runSaga } from 'redux-saga'
import {
  destroyIntersectionMocking,
  mockAllIsIntersecting,
  setupIntersectionMocking,
} from 'react-intersection-observer/test-utils'
import { txConfirmed, txSubmitted } from '../../../chain/txActions'
import { createMemoryEnv } from '../../../platform/browserEnv'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { DEV_ADDRESS } from '../../../../test/support/fixtures'
import type { ActivityItem, ActivityPage } from '../activity/api'
import { exportActivity } from '../activity/sagas'
import { activityFailed, activityHolderChanged, activityLoaded, initialTokenState, type TokenState } from '../slice'
import reducer from '../slice'
import { ActivitySection } from './ActivitySection'

const E18 = 10n ** 18n
const ME = DEV_ADDRESS.toLowerCase()
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const item = (block: number, over: Partial<ActivityItem> = {}): ActivityItem => ({
  kind: 'stake',
  pool: '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd',
  stakeId: String(block),
  amount: (100n * E18).toString(),
  amountOut: null,
  fee: null,
  forfeited: null,
  hold: 30 * 86_400,
  txHash: hash(block),
  logIndex: 0,
  blockNumber: block,
  time: '2027-01-15T08:00:00.000Z',
  ...over,
})
const page = (items: ActivityItem[], next: string | null, lag = 0): ActivityPage => ({
  items,
  next,
  indexedBlock: 500,
  headBlock: 500 + lag,
  lag,
})

/** The token slice holding the Development account's history on the local chain, after `loads`. */
function token(...steps: Parameters<typeof reducer>[1][]): TokenState {
  let s = reducer({ ...initialTokenState, symbol: 'PLT' }, activityHolderChanged({ holder: ME, chainId: 31337 }))
  for (const step of steps) s = reducer(s, step)
  return s
}

const show = (t: TokenState) =>
  renderWithProviders(<ActivitySection />, { preloadedState: { wallet: connectedWallet({ readsReady: true }), token: t } })

beforeEach(() => setupIntersectionMocking(jest.fn))
afterEach(() => destroyIntersectionMocking())

describe('the Activity section', () => {
  it('asks for its reads once near the screen, and lists each event with its amount, result, time and explorer link', () => {
    const close = item(40, {
      kind: 'close',
      amount: (1000n * E18).toString(),
      amountOut: (1120n * E18).toString(),
      fee: '0',
      forfeited: '0',
    })
    const { dispatched, unmount } = show(token(activityLoaded({ page: page([close, item(30)], null), at: Date.now() })))
    // Far below the fold it waits; within 200 px of the screen it reads.
    expect(dispatched.map((a) => a.type)).not.toContain('token/activityShown')
    act(() => mockAllIsIntersecting(true))
    expect(dispatched.map((a) => a.type)).toContain('token/activityShown')
    const rows = screen.getAllByTestId('activity-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByText('Close')).toBeTruthy()
    expect(within(rows[0]).getByText('+120.00 PLT')).toBeTruthy()
    expect(within(rows[0]).getByText('Stake #40 in pool 1: received 1,120.00 PLT, fee 0.00 PLT')).toBeTruthy()
    expect(within(rows[0]).getByText('15 Jan 2027 08:00 UTC')).toBeTruthy()
    expect(within(rows[1]).getByText('100.00 PLT')).toBeTruthy()
    const link = within(rows[1]).getByRole('link', { name: new RegExp(`^0x.+: transaction ${hash(30)} on Local explorer$`) })
    expect(link.getAttribute('href')).toMatch(new RegExp(`/explorer/tx/${hash(30)}$`))
    expect(screen.queryByTestId('activity-empty')).toBeNull()
    unmount()
    expect(dispatched.at(-1)?.type).toBe('token/activityHidden')
  })

  it('says the API is down, with Retry, and never "No activity yet"', async () => {
    const { user, dispatched } = show(token(activityFailed({ error: "Can't reach the activity service.", failure: 'down' })))
    const alert = screen.getByTestId('activity-down')
    expect(alert.textContent).toContain("Can't reach the activity service")
    expect(screen.queryByText('No activity yet')).toBeNull()
    expect(screen.queryByTestId('activity-empty')).toBeNull()
    expect(screen.queryByTestId('activity-loading')).toBeNull()
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(dispatched.at(-1)?.type).toBe('token/activityRefreshRequested')
  })

  it('says by how many blocks the index is behind, and does not call a list it has not read empty', () => {
    show(token(activityLoaded({ page: page([], null, 12), at: Date.now() })))
    expect(screen.getByTestId('activity-behind').textContent).toContain(
      'The activity index is 12 blocks behind the chainRecent transactions may be missing',
    )
    expect(screen.queryByText('No activity yet')).toBeNull()
    expect(screen.getByTestId('activity-empty').textContent).toContain('Nothing listed up to block 500 yet.')
  })

  it('says "No activity yet" once a caught-up index found nothing', () => {
    show(token(activityLoaded({ page: page([], null, 1), at: Date.now() })))
    expect(screen.getByTestId('activity-empty').textContent).toContain('No activity yet')
    expect(screen.queryByRole('status')).toBeNull()
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('shows a sent stake on top, marked pending, until the index lists it', () => {
    const sent = txSubmitted({ kind: 'stake', hash: hash(501), chainId: 31337, from: DEV_ADDRESS, at: Date.now() })
    const { store } = show(token(activityLoaded({ page: page([item(30)], null), at: Date.now() }), sent))
    const pending = screen.getByTestId('activity-pending')
    expect(within(pending).getByText('Pending')).toBeTruthy()
    expect(within(pending).getByText('Waiting for its receipt')).toBeTruthy()
    expect(screen.getAllByRole('row')[1]).toBe(pending)
    act(() => {
      store.dispatch(txConfirmed({ kind: 'stake', hash: hash(501), receipt: { blockNumber: 501, status: 'success' } }))
    })
    expect(within(screen.getByTestId('activity-pending')).getByText(/Confirmed in block 501/)).toBeTruthy()
    act(() => {
      store.dispatch(activityLoaded({ page: { ...page([item(501), item(30)], null), indexedBlock: 501 }, at: Date.now() }))
    })
    expect(screen.queryByTestId('activity-pending')).toBeNull()
    expect(screen.getAllByTestId('activity-row')).toHaveLength(2)
  })

  it('loads the next page on "Load more" and when the end of the list scrolls into view', async () => {
    const { user, dispatched } = show(token(activityLoaded({ page: page([item(30)], 'next-1'), at: Date.now() })))
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(dispatched.filter((a) => a.type === 'token/moreActivityRequested')).toHaveLength(1)
    const { dispatched: scrolled } = show(token(activityLoaded({ page: page([item(30)], 'next-1'), at: Date.now() })))
    act(() => mockAllIsIntersecting(true))
    expect(scrolled.filter((a) => a.type === 'token/moreActivityRequested')).toHaveLength(1)
  })

  it('exports the whole history as CSV, every page, while the list shows the first', async () => {
    const all = Array.from({ length: 230 }, (_, n) => item(400 - n))
    const fetchImpl = (async (url: string) => {
      const q = new URL(url).searchParams
      const from = Number(q.get('cursor') ?? 0)
      const to = from + Number(q.get('limit'))
      // jsdom has no Response: the shape fetch's callers read.
      const body = page(all.slice(from, to), to < all.length ? String(to) : null)
      return { ok: true, status: 200, json: async () => body }
    }) as unknown as typeof fetch
    const { user, store, dispatched } = show(token(activityLoaded({ page: page(all.slice(0, 50), '50'), at: Date.now() })))
    expect(screen.getAllByTestId('activity-row')).toHaveLength(50)
    await user.click(screen.getByRole('button', { name: 'Export CSV' }))
    expect(dispatched.at(-1)?.type).toBe('token/activityExportRequested')
    expect((screen.getByRole('button', { name: 'Exporting…' }) as HTMLButtonElement).disabled).toBe(true)
    // What the saga does on that action (sagas do not run in component tests): read every page, save one file.
    const env = createMemoryEnv()
    const realFetch = global.fetch
    global.fetch = fetchImpl
    try {
      await act(() =>
        runSaga({ dispatch: store.dispatch, getState: store.getState, context: { env } }, exportActivity).toPromise(),
      )
    } finally {
      global.fetch = realFetch
    }
    const lines = env.saved[0].text.trimEnd().split('\r\n')
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(all.map((i) => i.txHash))
    expect(screen.getByTestId('activity-export-status').textContent).toContain('Saved 230 events as CSV.')
    expect(screen.getAllByTestId('activity-row')).toHaveLength(50)
  })
})
