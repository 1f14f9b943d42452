import { getAddress, JsonRpcProvider, parseUnits, Wallet } from 'ethers'
import { claimPageOpened, claimRequested } from '../../src/features/vesting/slice'
import { selectClaimBlock } from '../../src/features/vesting/selectors'
import { connectRequested, modalOpened } from '../../src/features/wallet/slice'
import { approveRequested, depositRequested, poolSelected, stakingPageOpened } from '../../src/features/stake/slice'
import { contracts } from '../../src/chain/contracts'
import { selectAllowance } from '../../src/features/token/selectors'
import type { RootState } from '../../src/app/store'
import { setTimers, timers } from '../../src/config/timers'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { allocationsFile, startTestApi, QUICK_CLOSE_MS } from '../support/api'
import { deployment, installInjectedWallet, makeTestStore, nodeAccounts, rpc, waitFor } from '../support/sagaStore'

/**
 * The app behind the RPCs holders really use (issue 41): its reads go through a load balancer whose backends trail the
 * chain by 2 blocks, while the API reads a node that is up to date ("wallet behind the API") or half the requests lag
 * ("public"). Blocks come every 400 ms, as on a fast chain, so a trailing backend catches up.
 */
let accounts: string[]
const saved = { ...timers }
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
  setTimers({ BEHIND_RETRY_MS: 200, RECEIPT_POLL_MS: 200, VESTING_CATCH_UP_MS: 300 })
  await rpc('evm_setAutomine', [false])
  await rpc('evm_setIntervalMining', [400])
})
afterAll(async () => {
  setTimers(saved)
  await rpc('evm_setIntervalMining', [0])
  await rpc('evm_setAutomine', [true])
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

/** A fresh account the node sends for (impersonated, with gas money): no other saga test touches it. */
async function freshAccount(): Promise<string> {
  const address = Wallet.createRandom().address
  await rpc('hardhat_impersonateAccount', [address])
  await rpc('hardhat_setBalance', [address, '0x' + (10n ** 20n).toString(16)])
  return address
}

async function behindProxy(share: number) {
  return startRpcProxy(process.env.CHAIN_URL!, { lag: { blocks: 2, share }, seed: 41 })
}

describe('the app behind lagging RPC backends', () => {
  it('claims at once when its node trails the API that signed, and never shows the figures from before the claim', async () => {
    const holder = await freshAccount()
    const now = Number(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp)
    const file = allocationsFile({
      tge: now - 86_400,
      months: 3,
      monthSeconds: 30 * 86_400,
      allocations: { [holder]: { round: 'Public', amount: parseUnits('90000', 18).toString() } },
    })
    const api = await startTestApi({ idleTimeoutMs: QUICK_CLOSE_MS, allocationsFile: file })
    const proxy = await behindProxy(1)
    // Slower blocks here: the app's node stays 3 s behind the API's, longer than a click takes.
    await rpc('evm_setIntervalMining', [1_500])
    try {
      const wallet = installInjectedWallet(holder)
      const t = makeTestStore({ injected: wallet, apiUrl: api.url, rpcUrl: proxy.url })
      t.store.dispatch(claimPageOpened())
      t.store.dispatch(connectRequested('browser'))
      await waitFor(t.store, (s) => s.wallet.address === holder)
      const ready = await waitFor(t.store, (s) => selectClaimBlock(s) === null, 20_000)
      const offer = ready.vesting.info
      // Signed at the API's head, which the app's node has not reached: the claim waits for it, it is not refused.
      const appHead = Number(await new JsonRpcProvider(proxy.url, 31337, { staticNetwork: true }).send('eth_blockNumber', []))
      expect(appHead).toBeLessThan(Number(offer.currentBlock))
      const claimed: string[] = []
      const unsubscribe = t.store.subscribe(() => {
        const v = t.store.getState().vesting
        if (claimed[claimed.length - 1] !== v.info.claimed) claimed.push(v.info.claimed)
      })
      t.store.dispatch(claimRequested())
      const done = await waitFor(
        t.store,
        (s) => s.vesting.claim.status !== 'pending' && s.vesting.claim.status !== 'idle',
        30_000,
      )
      expect(done.vesting.claim).toMatchObject({ status: 'succeeded' })
      const after = await waitFor(t.store, (s) => s.vesting.info.claimed === offer.unlocked, 30_000)
      expect(selectClaimBlock(after)).toBe('nothing')
      // A few more blocks: the lagging backend keeps answering, and the page stays where the claim put it.
      await new Promise((r) => setTimeout(r, 1_500))
      unsubscribe()
      expect(claimed.filter((c) => c === '0').length).toBeLessThanOrEqual(1)
      expect(claimed[claimed.length - 1]).toBe(offer.unlocked)
      expect(t.store.getState().token.transactions.filter((x) => x.status === 'failed')).toEqual([])
    } finally {
      await rpc('evm_setIntervalMining', [400])
      await proxy.stop()
      await api.app.close()
    }
  })

  it('stakes right after its approval confirms and shows the new stake from the receipt on', async () => {
    const me = await freshAccount()
    const proxy = await behindProxy(0.5)
    try {
      const token = contracts.token(deployment().contracts.token)
      await rpc('eth_sendTransaction', [
        {
          from: accounts[0],
          to: deployment().contracts.token,
          data: token.interface.encodeFunctionData('mint', [me, 100n * 10n ** 18n]),
        },
      ])
      const wallet = installInjectedWallet(me)
      const t = makeTestStore({ injected: wallet, rpcUrl: proxy.url })
      t.store.dispatch(connectRequested('browser'))
      await waitFor(t.store, (s) => s.wallet.address === me)
      t.store.dispatch(poolSelected(1))
      t.store.dispatch(stakingPageOpened())
      const ready = await waitFor(
        t.store,
        (s) => s.wallet.address === me && s.stake.pool !== null && s.stake.listStatus === 'ok',
        20_000,
      )
      const before = Number(ready.stake.userStakesCount)
      const amount = (25n * 10n ** 18n).toString()
      const allowance = (s: RootState) => (s.stake.pool ? selectAllowance(s, s.stake.pool.address) : null)
      t.store.dispatch(approveRequested({ amount }))
      await waitFor(t.store, (s) => allowance(s) === amount && !s.stake.approving, 20_000)
      // At once: the pool's simulation runs on a backend that has the approval's block, not one that trails it.
      t.store.dispatch(modalOpened('deposit'))
      t.store.dispatch(depositRequested({ amount, days: 30, referral: null }))
      const settled = await waitFor(
        t.store,
        (s) => s.stake.deposit.status === 'succeeded' || s.stake.deposit.status === 'failed',
        30_000,
      )
      expect(settled.stake.deposit).toMatchObject({ status: 'succeeded', error: null })
      // The page's next read is from the receipt's block on: a lagging backend's answer is asked again, not shown.
      const shown = await waitFor(t.store, (s) => s.stake.userStakesCount === String(before + 1), 10_000)
      expect(BigInt(shown.stake.totalStakedByUser ?? '0')).toBeGreaterThanOrEqual(25n * 10n ** 18n)
    } finally {
      await proxy.stop()
    }
  })
})
