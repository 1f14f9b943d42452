import { getAddress } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import {
  selectClaimBlock,
  selectClaimView,
  selectSelectedTerm,
  selectTermOptions,
  selectVestingOutage,
} from '../../src/features/vesting/selectors'
import {
  claimPageOpened,
  claimRequested,
  stakingRequested,
  EMPTY_VESTING_INFO,
  vestingRefreshRequested,
} from '../../src/features/vesting/slice'
import { accountViewSet, connectRequested, feeQuoteRequested } from '../../src/features/wallet/slice'
import { feeQuoteKey, type FeePurpose } from '../../src/features/wallet/feeQuote'
import type { RootState } from '../../src/app/store'
import { startTestApi, QUICK_CLOSE_MS } from '../support/api'
import { createMemoryEnv } from '../../src/platform/browserEnv'
import { setTimers } from '../../src/config/timers'
import {
  capturingLogs,
  deployment,
  installInjectedWallet,
  makeTestStore,
  nodeAccounts,
  rpc,
  waitFor,
  withFaultProxy,
} from '../support/sagaStore'

type Api = Awaited<ReturnType<typeof startTestApi>>
let accounts: string[]
let api: Api
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
  api = await startTestApi({ idleTimeoutMs: QUICK_CLOSE_MS })
})
afterAll(async () => {
  await api.app.close()
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

/** Vesting read and last claimed block both in: what the claim page waits for before enabling its buttons. */
const loaded = (s: RootState) =>
  s.vesting.status !== 'pending' && s.vesting.status !== 'idle' && s.vesting.lastClaimedBlock !== null

/** A store connected through an injected wallet for Hardhat account `index`, talking to `apiUrl`. */
async function connectedAs(index: number, apiUrl: string) {
  const wallet = installInjectedWallet(accounts[index])
  const t = makeTestStore({ injected: wallet, apiUrl })
  // On the claim page, as the page says when it shows: its reads retry only while it is on screen.
  t.store.dispatch(claimPageOpened())
  t.store.dispatch(connectRequested('browser'))
  await waitFor(t.store, (s) => s.wallet.address === accounts[index])
  await waitFor(t.store, loaded)
  return { ...t, wallet }
}

const balanceOf = (t: Awaited<ReturnType<typeof connectedAs>>, who: string) =>
  contracts.token(deployment().contracts.token, t.chain.readProvider(31337)).balanceOf(who)

describe('vesting sagas against a real node and the real API service', () => {
  it('claims to the wallet: the balance goes up by exactly the unlocked amount, then the status and last block refresh', async () => {
    const t = await connectedAs(1, api.url)
    const before = t.store.getState().vesting.info
    expect(BigInt(before.unlocked)).toBeGreaterThan(0n)
    expect(selectClaimBlock(t.store.getState())).toBeNull()
    const balance = await balanceOf(t, accounts[1])

    t.store.dispatch(claimRequested())
    expect(selectClaimBlock(t.store.getState())).toBe('claiming')
    const s = await waitFor(t.store, (s) => s.vesting.claim.status === 'succeeded')
    expect(s.token.transactions[0]).toMatchObject({ kind: 'claim', status: 'confirmed' })
    expect(await balanceOf(t, accounts[1])).toBe(balance + BigInt(before.unlocked))

    // RewardHarvest records the block the claim was signed for; the service now starts the next claim from it.
    const after = await waitFor(t.store, (s) => loaded(s) && s.vesting.info.claimed === before.unlocked)
    expect(after.vesting.lastClaimedBlock).toBe(before.currentBlock)
    expect(after.vesting.info).toMatchObject({ unlocked: '0', lastUpdateBlock: before.currentBlock, signature: null })
    expect(selectClaimBlock(after)).toBe('nothing')
  })

  it('claims into a stake on the default pool with the chosen term (the second by default)', async () => {
    const t = await connectedAs(2, api.url)
    const { unlocked } = t.store.getState().vesting.info
    const terms = selectTermOptions(t.store.getState())
    expect(terms.length).toBeGreaterThanOrEqual(2)
    const term = selectSelectedTerm(t.store.getState())!
    expect(term).toEqual(terms[1])
    const poolAddress = t.store.getState().vesting.harvestPool!
    const defaultPool = deployment().pools.find((p) => p.id === deployment().defaultPoolId)!
    expect(poolAddress).toBe(defaultPool.address)
    const pool = contracts.pool(poolAddress, t.chain.readProvider(31337))
    const stakesBefore = await pool.getAllUserStakes(accounts[2])

    // The term chooser's fee line first: a quote of this very claim, from the node, before anything is signed.
    const purpose: FeePurpose = { kind: 'claimStake', hold: term.hold, unlocked }
    t.store.dispatch(feeQuoteRequested({ key: feeQuoteKey(31337, accounts[2], purpose), purpose }))
    const quote = (await waitFor(t.store, (s) => s.wallet.feeQuote?.status === 'ready')).wallet.feeQuote!
    expect(BigInt(quote.fee!)).toBeGreaterThan(0n)

    t.store.dispatch(stakingRequested({ hold: term.hold }))
    const s = await waitFor(t.store, (s) => s.vesting.claim.status === 'succeeded')
    expect(s.token.transactions[0]).toMatchObject({ kind: 'claimStake', status: 'confirmed' })
    // What it cost stays within what the quote said the wallet must hold for it.
    const receipt = (await t.chain.readProvider(31337).getTransactionReceipt(s.token.transactions[0].hash))!
    expect(receipt.gasUsed * receipt.gasPrice).toBeLessThanOrEqual(BigInt(quote.need!))

    const stakes = await pool.getAllUserStakes(accounts[2])
    expect(stakes).toHaveLength(stakesBefore.length + 1)
    const stake = stakes[stakes.length - 1]
    expect(stake.active).toBe(true)
    expect(stake.stakeAmount).toBe(BigInt(unlocked))
    expect(stake.holdTime).toBe(BigInt(term.hold))
    await waitFor(t.store, (s) => loaded(s) && s.vesting.info.claimed === unlocked)
  })

  it('leaves the claim usable after the person rejects it in the wallet', async () => {
    const t = await connectedAs(3, api.url)
    t.wallet.rejectNext('eth_sendTransaction')
    t.store.dispatch(claimRequested())
    const s = await waitFor(t.store, (s) => s.vesting.claim.status === 'failed')
    // A rejection is the wallet notice only; the page has no error to show for it.
    expect(s.vesting.claim.error).toBeNull()
    expect(s.token.rejection).toBe('You rejected the transaction in your wallet.')
    expect(s.token.transactions).toHaveLength(0)
    await waitFor(t.store, loaded)
    expect(selectClaimBlock(t.store.getState())).toBeNull()
  })

  it('replaces a claim the contract refuses as expired with a fresh one, which then pays', async () => {
    const shortLived = await startTestApi({ claimTtlSeconds: 30, idleTimeoutMs: QUICK_CLOSE_MS })
    try {
      const t = await connectedAs(3, shortLived.url)
      const before = t.store.getState().vesting.info
      expect(Number(before.deadline)).toBeGreaterThan(0)
      // The person takes a while in the wallet: the chain moves past the claim's deadline before it is sent.
      await rpc('evm_increaseTime', [60])
      await rpc('evm_mine')
      const { value: fresh, logged } = await capturingLogs(async () => {
        t.store.dispatch(claimRequested())
        const failed = await waitFor(t.store, (s) => s.vesting.claim.status === 'failed')
        expect(failed.vesting.claim.error).toBe('This claim has expired; a new one is being loaded.')
        return waitFor(t.store, (s) => loaded(s) && s.vesting.info.currentBlock !== before.currentBlock)
      })
      expect(logged).toEqual(['[tx] claim was not sent'])
      expect(Number(fresh.vesting.info.deadline)).toBeGreaterThan(Number(before.deadline) + 30)
      expect(selectClaimBlock(fresh)).toBeNull()
      const balance = await balanceOf(t, accounts[3])
      t.store.dispatch(claimRequested())
      await waitFor(t.store, (s) => s.vesting.claim.status === 'succeeded')
      expect(await balanceOf(t, accounts[3])).toBe(balance + BigInt(fresh.vesting.info.unlocked))
      await waitFor(t.store, (s) => loaded(s) && s.vesting.info.claimed === fresh.vesting.info.unlocked)
    } finally {
      await shortLived.app.close()
    }
  })

  it('records an API that is down (no zeros passed off as figures) and blocks claims, without crashing the saga', async () => {
    const { value: t, logged } = await capturingLogs(() => connectedAs(0, 'http://127.0.0.1:1'))
    expect(logged).toEqual(['[vesting] vesting API unavailable; keeping the last answer'])
    const s = t.store.getState()
    expect(s.vesting.status).toBe('failed')
    expect(s.vesting.error).toBe("Can't reach the vesting service.")
    expect(s.vesting.loadedAt).toBeNull()
    expect(s.vesting.info).toEqual(EMPTY_VESTING_INFO)
    expect(selectClaimView(s).available).toBe('—')
    expect(selectClaimBlock(s)).toBe('unavailable')
    // The harvest terms still come from the chain.
    expect(s.vesting.harvestTerms.length).toBeGreaterThan(0)
    t.store.dispatch(claimRequested())
    expect(t.store.getState().vesting.claim).toEqual({ status: 'failed', kind: 'wallet', error: 'There is nothing to claim.' })
  })

  it('keeps the last answer through an API outage and comes back by itself, with backoff, when the API answers', async () => {
    await withFaultProxy(api.url, { RETRY_FIRST_MS: 100, RETRY_MAX_MS: 200 }, async (proxy) => {
      const t = await connectedAs(1, proxy.url)
      const good = t.store.getState().vesting
      expect(good.status).toBe('succeeded')
      proxy.setFault('down')
      const { logged } = await capturingLogs(async () => {
        t.store.dispatch(vestingRefreshRequested())
        const down = await waitFor(t.store, (s) => s.vesting.status === 'failed' && s.vesting.retryAt !== null)
        expect(down.vesting.info).toEqual(good.info)
        expect(down.vesting.loadedAt).toBe(good.loadedAt)
        expect(selectVestingOutage(down)).toMatchObject({
          title: "Can't reach the vesting service",
          shown: { readAt: good.loadedAt },
        })
        // Retries go on quietly while it is down (the proxy drops them before counting).
        await new Promise((r) => setTimeout(r, 600))
        expect(t.store.getState().vesting.status).toBe('failed')
      })
      expect(logged).toEqual(['[vesting] vesting API unavailable; keeping the last answer'])
      proxy.setFault('none')
      const back = await waitFor(t.store, (s) => s.vesting.status === 'succeeded')
      expect(back.vesting.loadedAt).toBeGreaterThan(good.loadedAt!)
      expect(back.vesting.retryAt).toBeNull()
      expect(selectVestingOutage(back)).toBeNull()
    })
  })

  it("asks the API once when several triggers ask for the same holder together (a returning wallet's load)", async () => {
    await withFaultProxy(api.url, {}, async (proxy) => {
      const t = await connectedAs(1, proxy.url)
      const before = t.store.getState().vesting.loadedAt!
      proxy.reset()
      // What a returning wallet's load sends within a moment: the account link read, the page's own request, Retry.
      t.store.dispatch(accountViewSet({ address: null, error: null }))
      t.store.dispatch(vestingRefreshRequested())
      t.store.dispatch(vestingRefreshRequested())
      const after = await waitFor(t.store, (s) => s.vesting.loadedAt! > before && loaded(s))
      expect(after.vesting.status).toBe('succeeded')
      expect(proxy.counts.roundTrips).toBe(1)
    })
  })

  it('reads nothing again for what changes neither holder nor network, nor for the page shown while its figures are fresh', async () => {
    await withFaultProxy(api.url, { VESTING_FRESH_MS: 60_000 }, async (proxy) => {
      const t = await connectedAs(1, proxy.url)
      const answered = t.store.getState().vesting.loadedAt!
      proxy.reset()
      // A returning wallet's first render, after the wallet's read answered: the link check finds no `?account=`, and
      // the page shows.
      t.store.dispatch(accountViewSet({ address: null, error: null }))
      t.store.dispatch(claimPageOpened())
      await new Promise((r) => setTimeout(r, 300))
      expect(proxy.counts.roundTrips).toBe(0)
      expect(t.store.getState().vesting.loadedAt).toBe(answered)
      // Another holder (`?account=`) is read at once, and back to the wallet's own figures is a read too: the figures on
      // screen were the other holder's.
      t.store.dispatch(accountViewSet({ address: accounts[2], error: null }))
      await waitFor(t.store, (s) => s.vesting.holder === accounts[2] && loaded(s) && s.vesting.status === 'succeeded')
      t.store.dispatch(accountViewSet({ address: null, error: null }))
      await waitFor(t.store, (s) => s.vesting.holder === accounts[1] && loaded(s) && s.vesting.status === 'succeeded')
      expect(proxy.counts.roundTrips).toBe(2)
      // Once the figures are older than VESTING_FRESH_MS, the page shown again reads them again.
      setTimers({ VESTING_FRESH_MS: 1 })
      const before = t.store.getState().vesting.loadedAt!
      await new Promise((r) => setTimeout(r, 5))
      t.store.dispatch(claimPageOpened())
      await waitFor(t.store, (s) => s.vesting.loadedAt! > before && loaded(s))
      expect(proxy.counts.roundTrips).toBe(3)
    })
  })

  it('does not keep retrying for a claim page that is not on screen (a wallet connected on the staking page)', async () => {
    await withFaultProxy(api.url, { RETRY_FIRST_MS: 50, RETRY_MAX_MS: 100 }, async (proxy) => {
      proxy.setFault('down')
      const wallet = installInjectedWallet(accounts[2])
      const t = makeTestStore({ injected: wallet, apiUrl: proxy.url })
      // Every retry is announced with its time (vestingRetryScheduled) before it waits: none may come.
      const retries: number[] = []
      t.store.subscribe(() => {
        const at = t.store.getState().vesting.retryAt
        if (at !== null && !retries.includes(at)) retries.push(at)
      })
      const { logged } = await capturingLogs(async () => {
        t.store.dispatch(connectRequested('browser'))
        await waitFor(t.store, (s) => s.vesting.status === 'failed')
        await new Promise((r) => setTimeout(r, 500))
      })
      expect(retries).toEqual([])
      // Once the page shows, it reads again and retries while it is down.
      t.store.dispatch(claimPageOpened())
      t.store.dispatch(vestingRefreshRequested())
      await capturingLogs(() => waitFor(t.store, (s) => s.vesting.retryAt !== null))
      expect(retries.length).toBeGreaterThan(0)
      expect(logged).toEqual(['[vesting] vesting API unavailable; keeping the last answer'])
    })
  })

  it('re-reads after a claim until a briefly lagging API has caught up', async () => {
    // The block number is cached for 400 ms: the first read after the receipt still sees the block before the claim.
    const lagging = await startTestApi({ blockCacheMs: 400, idleTimeoutMs: QUICK_CLOSE_MS })
    try {
      const t = await connectedAs(0, lagging.url)
      const { currentBlock, unlocked } = t.store.getState().vesting.info
      t.store.dispatch(claimRequested())
      const s = await waitFor(t.store, (s) => loaded(s) && s.vesting.info.lastUpdateBlock === currentBlock)
      expect(s.vesting.info).toMatchObject({ claimed: unlocked, unlocked: '0' })
      expect(selectClaimBlock(s)).toBe('nothing')
    } finally {
      await lagging.app.close()
    }
  })

  it('follows a claim still pending when the page reloads, and refreshes the figures when it is mined', async () => {
    // A month on, account #1 (which claimed above) has a new unlocked amount.
    await rpc('evm_increaseTime', [31 * 86_400])
    await rpc('evm_mine')
    const first = await connectedAs(1, api.url)
    const before = first.store.getState().vesting.info
    expect(BigInt(before.unlocked)).toBeGreaterThan(0n)
    await rpc('evm_setAutomine', [false])
    try {
      first.store.dispatch(claimRequested())
      await waitFor(first.store, (s) => s.token.transactions[0]?.status === 'pending')
      first.store.close()
      const wallet = installInjectedWallet(accounts[1])
      const again = makeTestStore({ env: createMemoryEnv({ injected: wallet, storage: first.env.stored }), apiUrl: api.url })
      again.store.dispatch(connectRequested('browser'))
      const restored = await waitFor(again.store, (s) => s.token.transactions[0]?.restored === true)
      expect(restored.token.transactions[0]).toMatchObject({ kind: 'claim', status: 'pending' })
      await rpc('evm_mine')
      const after = await waitFor(
        again.store,
        (s) =>
          s.token.transactions[0]?.status === 'confirmed' &&
          loaded(s) &&
          s.vesting.info.claimed === (BigInt(before.claimed) + BigInt(before.unlocked)).toString(),
      )
      expect(after.vesting.info.unlocked).toBe('0')
    } finally {
      await rpc('evm_setAutomine', [true])
    }
  })

  it('disables the claim while the API still answers with a lastUpdateBlock older than the chain', async () => {
    // This service remembers the block number for 10 minutes, as a lagging production service would.
    const lagging = await startTestApi({ blockCacheMs: 600_000, idleTimeoutMs: QUICK_CLOSE_MS })
    try {
      const t = await connectedAs(4, lagging.url)
      expect(selectClaimBlock(t.store.getState())).toBeNull()
      const { currentBlock } = t.store.getState().vesting.info
      t.store.dispatch(claimRequested())
      await waitFor(t.store, (s) => s.vesting.claim.status === 'succeeded')
      const after = await waitFor(t.store, (s) => loaded(s) && s.vesting.lastClaimedBlock === currentBlock)
      // The service still signs for the old state; sending it would revert, so the buttons stay disabled.
      expect(after.vesting.info.lastUpdateBlock).toBe('0')
      expect(BigInt(after.vesting.info.unlocked)).toBeGreaterThan(0n)
      expect(selectClaimBlock(after)).toBe('stale')
    } finally {
      await lagging.app.close()
    }
  })
})
