import { getAddress } from 'ethers'
import { lists, setLists, setTimers, timers } from '../../src/config/timers'
import { contracts } from '../../src/chain/contracts'
import { selectActivityView } from '../../src/features/token/activity/selectors'
import { activityExportRequested, activityShown } from '../../src/features/token/slice'
import {
  depositRequested,
  stakingPageOpened,
  statsRangeChosen,
  statsShown,
  unstakeRequested,
} from '../../src/features/stake/slice'
import { selectStatsView } from '../../src/features/stake/selectors'
import { WEEKS_FOR_WEEKLY } from '../../src/features/stake/statsSagas'
import { connectRequested } from '../../src/features/wallet/slice'
import type { RootState } from '../../src/app/store'
import { QUICK_CLOSE_MS, provider } from '../support/api'
import { fetchAllActivity, startIndexedApi, waitCaughtUp } from '../support/indexer'
import { deployment, expectLogged, installInjectedWallet, makeTestStore, nodeAccounts, rpc, waitFor } from '../support/sagaStore'

const E18 = 10n ** 18n
/** Hardhat accounts no other saga test uses: their histories are this file's alone. */
const ME = 16
const EXPORTER = 17

let accounts: string[]
let api: Awaited<ReturnType<typeof startIndexedApi>>
const saved = { ...timers }
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
  api = await startIndexedApi({ idleTimeoutMs: QUICK_CLOSE_MS })
  await waitCaughtUp(api, provider())
  // A re-read a quarter second apart while something waits for the index, as the page does every 3 s.
  setTimers({ ACTIVITY_CATCH_UP_MS: 250 })
})
afterAll(async () => {
  setTimers(saved)
  await api.app.close()
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

const pool = () => deployment().pools.find((p) => p.id === deployment().defaultPoolId)!
const token = () => contracts.token(deployment().contracts.token)

/** `index` gets `tokens` PLT from #0 and approves the default pool for them itself (the node signs). */
async function fundAndApprove(index: number, tokens: bigint) {
  const send = (from: string, to: string, data: string) =>
    rpc('eth_sendTransaction', [{ from, to, data }]).then((hash) => provider().waitForTransaction(hash as string))
  await send(
    accounts[0],
    deployment().contracts.token,
    token().interface.encodeFunctionData('transfer', [accounts[index], tokens * E18]),
  )
  await send(
    accounts[index],
    deployment().contracts.token,
    token().interface.encodeFunctionData('approve', [pool().address, tokens * E18]),
  )
}

/** A store with the app's sagas, connected as Hardhat account `index`, on the staking page, its Activity on screen. */
async function showing(index: number) {
  const wallet = installInjectedWallet(accounts[index])
  const t = makeTestStore({ injected: wallet, apiUrl: api.url })
  t.store.dispatch(connectRequested('browser'))
  await waitFor(t.store, (s) => s.wallet.address === accounts[index])
  t.store.dispatch(stakingPageOpened())
  t.store.dispatch(activityShown())
  await waitFor(t.store, (s) => s.stake.status === 'succeeded' && s.token.activity.status === 'ok')
  return t
}

const view = (s: RootState) => selectActivityView(s)

describe('the Activity section’s sagas against the real index and node', () => {
  it('shows a stake pending until the index lists it, then the stake and its close with what the close cost', async () => {
    await fundAndApprove(ME, 300n)
    const t = await showing(ME)
    expect(view(t.store.getState())).toMatchObject({ rows: [], pending: [], empty: 'No activity yet', notice: null })

    t.store.dispatch(depositRequested({ amount: (300n * E18).toString(), days: 60, referral: null }))
    // Sent: on top at once, marked pending, from the journal's action (the index cannot have it yet).
    const sent = await waitFor(t.store, (s) => view(s).pending.length === 1)
    const hash = view(sent).pending[0].hash
    expect(view(sent).pending[0]).toMatchObject({ what: 'Stake', pending: true, amount: '—' })
    // Listed by the index: it leaves the pending part and shows once, with its figures.
    const listed = await waitFor(t.store, (s) => view(s).rows.some((r) => r.hash === hash))
    expect(view(listed).pending).toEqual([])
    expect(view(listed).rows).toHaveLength(1)
    expect(view(listed).rows[0]).toMatchObject({
      kind: 'stake',
      amount: '300.00 PLT',
      detail: `Stake #0 in pool ${pool().id}, 60 days`,
      result: null,
    })
    expect(listed.token.activity.sent).toEqual([])

    const before = await token().connect(provider()).balanceOf(accounts[ME])
    t.store.dispatch(unstakeRequested(0))
    const closed = await waitFor(t.store, (s) => view(s).rows.some((r) => r.kind === 'close'))
    const received = (await token().connect(provider()).balanceOf(accounts[ME])) - before
    const close = closed.token.activity.items.find((i) => i.kind === 'close')!
    // An early close with a 100% fee falling over 60 days: it cost the fee, less the reward earned so far.
    expect(BigInt(close.amountOut!) - BigInt(close.fee!)).toBe(received)
    expect(close.amount).toBe((300n * E18).toString())
    const row = view(closed).rows.find((r) => r.kind === 'close')!
    expect(row.result?.tone).toBe('loss')
    expect(row.result?.text).toBe(
      `-${(Number((300n * E18 - received) / 10n ** 16n) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} PLT`,
    )
    expect(view(closed).rows.map((r) => r.kind)).toEqual(['close', 'stake'])
  })

  it('exports the whole history by following next, not only the page shown', async () => {
    await fundAndApprove(EXPORTER, 30n)
    const t = await showing(EXPORTER)
    for (let i = 0; i < 3; i++) {
      t.store.dispatch(depositRequested({ amount: (10n * E18).toString(), days: 30, referral: null }))
      await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
      await waitFor(t.store, (s) => s.token.activity.sent.length === 0)
    }
    const pageSize = lists.ACTIVITY_EXPORT_PAGE_SIZE
    // One event a request: three requests, each following the last one's `next`.
    setLists({ ACTIVITY_EXPORT_PAGE_SIZE: 1 })
    try {
      t.store.dispatch(activityExportRequested())
      await waitFor(t.store, (s) => s.token.activity.exporting.status === 'done')
    } finally {
      setLists({ ACTIVITY_EXPORT_PAGE_SIZE: pageSize })
    }
    const file = t.env.saved[0]
    expect(file.name).toBe(`activity-${accounts[EXPORTER].toLowerCase()}.csv`)
    const lines = file.text.trimEnd().split('\r\n')
    const all = await fetchAllActivity(api.url, accounts[EXPORTER])
    expect(lines).toHaveLength(1 + all.length)
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(all.map((i) => i.txHash))
    expect(lines.slice(1).every((l) => l.split(',')[1] === 'stake' && l.split(',')[2] === '10.0')).toBe(true)
  })

  it('says the API is down, never that there is nothing, and keeps trying', async () => {
    const wallet = installInjectedWallet(accounts[ME])
    // Nothing listens on the default API port of the test build.
    const t = makeTestStore({ injected: wallet })
    t.store.dispatch(connectRequested('browser'))
    await waitFor(t.store, (s) => s.wallet.address === accounts[ME])
    t.store.dispatch(activityShown())
    const s = await waitFor(t.store, (st) => st.token.activity.status === 'failed' && st.token.activity.retryAt !== null)
    expect(view(s)).toMatchObject({ empty: null, rows: [], notice: { kind: 'down', title: "Can't reach the activity service" } })
    expectLogged('[activity] the activity index could not be read')
  })

  it('reads the pool statistics for 30 days and all time; the last point is the pool as the chain has it', async () => {
    const t = await showing(ME)
    await waitCaughtUp(api, provider())
    t.store.dispatch(statsShown({ pool: pool().address }))
    const month = await waitFor(t.store, (s) => s.stake.stats.byRange['30d']?.status === 'ok')
    const onChain = await contracts.pool(pool().address, provider()).getPoolState()
    const points = month.stake.stats.byRange['30d']!.points
    expect(points.length).toBeGreaterThan(0)
    expect(points.length).toBeLessThanOrEqual(30)
    expect(points.at(-1)!.totalStaked).toBe(onChain.totalStaked.toString())
    expect(selectStatsView(month).summary?.totalStaked).toMatch(/^[\d,]+\.\d\d PLT$/)
    t.store.dispatch(statsRangeChosen('all'))
    const all = await waitFor(t.store, (s) => s.stake.stats.byRange.all?.status === 'ok')
    // A pool with events in fewer than eight weeks is drawn by day, otherwise by week. The node is shared with the other
    // saga suites, which move its clock by months, so which one depends on the suites run before: ask the index.
    const weekly = (await (await fetch(`${api.url}/stats/pool/${pool().address}?interval=week`)).json()) as {
      points: unknown[]
    }
    expect(all.stake.stats.byRange.all!.interval).toBe(weekly.points.length < WEEKS_FOR_WEEKLY ? 'day' : 'week')
    expect(all.stake.stats.byRange.all!.points.at(-1)!.totalStaked).toBe(onChain.totalStaked.toString())
  })
})
