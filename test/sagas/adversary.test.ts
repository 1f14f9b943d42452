/**
 * Adversarial checks of the store's sagas against a real node and the real API (docs/product.md sections 3, 8, 10,
 * 11). Each test states what the app promises; a failing test is a finding, not a test to be loosened.
 */
import { getAddress } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import { selectClaimBlock, selectVestingOutage } from '../../src/features/vesting/selectors'
import { claimPageOpened, claimRequested, vestingRefreshRequested } from '../../src/features/vesting/slice'
import { poolSelected, stakeRefreshRequested, stakingPageOpened } from '../../src/features/stake/slice'
import { connectRequested } from '../../src/features/wallet/slice'
import type { RootState } from '../../src/app/store'
import { allocationsFile, chainNow, provider, startTestApi, QUICK_CLOSE_MS } from '../support/api'
import {
  capturingLogs,
  deployment,
  expectLogged,
  installInjectedWallet,
  makeTestStore,
  nodeAccounts,
  rpc,
  waitFor,
  withFaultProxy,
} from '../support/sagaStore'

const E18 = 10n ** 18n
type Api = Awaited<ReturnType<typeof startTestApi>>
let accounts: string[]
let api: Api
/** Allocations of their own for the wallets these tests claim with (#10, #11), so the other suites' stay whole. */
let allocations: string
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
  const tge = (await chainNow(provider())) - 40 * 86_400
  allocations = allocationsFile({
    tge,
    allocations: Object.fromEntries([10, 11].map((i) => [accounts[i], { round: 'Seed', amount: (1_000n * E18).toString() }])),
  })
  api = await startTestApi({ allocationsFile: allocations, idleTimeoutMs: QUICK_CLOSE_MS })
})
afterAll(async () => {
  await api.app.close()
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Vesting read and last claimed block both in. */
const loaded = (s: RootState) =>
  s.vesting.status !== 'pending' && s.vesting.status !== 'idle' && s.vesting.lastClaimedBlock !== null

async function connectedAs(index: number, apiUrl: string, rpcUrl?: string) {
  const wallet = installInjectedWallet(accounts[index])
  const t = makeTestStore({ injected: wallet, apiUrl, rpcUrl })
  // On the claim page, as the page says when it shows: its reads retry only while it is on screen.
  t.store.dispatch(claimPageOpened())
  t.store.dispatch(connectRequested('browser'))
  await waitFor(t.store, (s) => s.wallet.address === accounts[index])
  await waitFor(t.store, loaded)
  return { ...t, wallet }
}

describe('adversary: vesting after a claim', () => {
  it('an API outage that starts while a claim is mined is retried by itself once the API is back (no reload, no click)', async () => {
    await withFaultProxy(api.url, { RETRY_FIRST_MS: 100, RETRY_MAX_MS: 200 }, async (proxy) => {
      const t = await connectedAs(10, proxy.url)
      expect(selectClaimBlock(t.store.getState())).toBeNull()
      // The service goes down after the figures were read; the claim itself needs only the chain.
      proxy.setFault('down')
      await capturingLogs(async () => {
        t.store.dispatch(claimRequested())
        await waitFor(t.store, (s) => s.vesting.claim.status === 'succeeded')
        const down = await waitFor(t.store, (s) => s.vesting.status === 'failed')
        // The banner promises: "Claims are paused; the page updates by itself when it answers."
        expect(selectVestingOutage(down)?.resumes).toBe('Claims are paused; the page updates by itself when it answers.')
        proxy.setFault('none')
        // Retries are 100-200 ms apart here: 3 s is ample for the page to come back by itself.
        await sleep(3_000)
      })
      const s = t.store.getState()
      // Control: the API does answer now; a Retry click (vestingRefreshRequested) brings the page back at once.
      t.store.dispatch(vestingRefreshRequested())
      await waitFor(t.store, (x) => x.vesting.status === 'succeeded')
      expect({ status: s.vesting.status, outage: selectVestingOutage(s) !== null, retryAt: s.vesting.retryAt }).toEqual({
        status: 'succeeded',
        outage: false,
        retryAt: null,
      })
    })
  })

  it('a service lagging longer than the catch-up window after a claim: the page still updates by itself once it catches up', async () => {
    // The service remembers the block number for 2.5 s; the catch-up window of these tests is 1 s
    // (120 s in production: a service that lags two minutes behind the chain after a claim).
    const lagging = await startTestApi({ allocationsFile: allocations, blockCacheMs: 2_500, idleTimeoutMs: QUICK_CLOSE_MS })
    try {
      const t = await connectedAs(11, lagging.url)
      const { currentBlock } = t.store.getState().vesting.info
      t.store.dispatch(claimRequested())
      await waitFor(t.store, (s) => s.vesting.claim.status === 'succeeded')
      await waitFor(t.store, (s) => loaded(s) && s.vesting.lastClaimedBlock === currentBlock)
      // "Your last claim is still being processed. The claim opens again once the page updates."
      // The service has long caught up after 6 s: the page should have updated and left 'stale'.
      await sleep(6_000)
      const s = t.store.getState()
      // Control: the service has caught up; one more read (what a Retry or a visit would do) shows it.
      t.store.dispatch(vestingRefreshRequested())
      await waitFor(t.store, (x) => loaded(x) && x.vesting.info.lastUpdateBlock === currentBlock)
      expect({ block: selectClaimBlock(s), lastUpdateBlock: s.vesting.info.lastUpdateBlock }).toEqual({
        block: 'nothing',
        lastUpdateBlock: currentBlock,
      })
    } finally {
      await lagging.app.close()
    }
  })
})

describe('adversary: a node behind the last one read (load balancer)', () => {
  it('a read answered by a node behind the block already shown does not silently take the figures back', async () => {
    const me = accounts[0]
    const wallet = installInjectedWallet(me)
    const t = makeTestStore({ injected: wallet })
    t.store.dispatch(connectRequested('browser'))
    await waitFor(t.store, (s) => s.wallet.address === me)
    const poolId = deployment().defaultPoolId
    t.store.dispatch(poolSelected(poolId))
    t.store.dispatch(stakingPageOpened())
    await waitFor(t.store, (s) => s.stake.status === 'succeeded' && s.stake.pool?.id === poolId)
    const countBefore = t.store.getState().stake.userStakesCount

    // The chain as one node of the balancer sees it before the stake...
    const snapshot = (await rpc('evm_snapshot')) as string
    try {
      const pool = deployment().pools.find((p) => p.id === poolId)!.address
      const token = contracts.token(deployment().contracts.token).interface
      const poolI = contracts.pool(pool).interface
      await rpc('eth_sendTransaction', [
        { from: me, to: deployment().contracts.token, data: token.encodeFunctionData('approve', [pool, 10n * E18]) },
      ])
      await rpc('eth_sendTransaction', [
        { from: me, to: pool, data: poolI.encodeFunctionData('stake(uint256,uint256)', [10n * E18, 30n * 86_400n]) },
      ])
      t.store.dispatch(stakeRefreshRequested())
      const ahead = await waitFor(t.store, (s) => s.stake.userStakesCount !== countBefore && s.stake.status === 'succeeded')
      const high = ahead.stake.blockNumber!
      const stakedHigh = ahead.stake.totalStakedByUser
      const readAt = ahead.stake.readAt

      // ...and the next read answered by a node that has not seen those blocks yet.
      await rpc('evm_revert', [snapshot])
      t.store.dispatch(stakeRefreshRequested())
      const behind = await waitFor(
        t.store,
        (s) => (s.stake.readAt !== readAt || s.stake.behindReads > 0) && s.stake.status !== 'pending',
      )
      expectLogged('[stake] a read answered from a block behind the figures on screen; set aside')
      // Either the older answer is not taken, or the page says the figures are not current: never block N-2 shown as
      // the truth after block N, with the stake just confirmed gone from the totals.
      const silentlyBack =
        behind.stake.status === 'succeeded' &&
        (behind.stake.blockNumber ?? 0) < high &&
        behind.stake.totalStakedByUser !== stakedHigh
      expect({
        silentlyBack,
        shownBlock: behind.stake.blockNumber,
        highestSeen: high,
        totalStakedByUser: behind.stake.totalStakedByUser,
        before: stakedHigh,
      }).toMatchObject({ silentlyBack: false })
    } finally {
      // evm_revert consumed the snapshot: the chain is back at the state before the stake.
    }
  })
})
