import { getAddress } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import { selectActBlock, selectHolderView, selectShellView, selectViewedAddress } from '../../src/features/wallet/selectors'
import { accountParamChanged, connectRequested } from '../../src/features/wallet/slice'
import { depositRequested, poolSelected, stakingPageOpened, unstakeRequested } from '../../src/features/stake/slice'
import { claimRequested, vestingRefreshRequested } from '../../src/features/vesting/slice'
import { ONE } from '../../src/domain/math'
import type { RootState } from '../../src/app/store'
import { startTestApi, QUICK_CLOSE_MS } from '../support/api'
import { deployment, installInjectedWallet, makeTestStore, nodeAccounts, waitFor } from '../support/sagaStore'

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

const poolId = () => deployment().defaultPoolId
const poolLoaded = (s: RootState) => s.stake.status === 'succeeded' && s.stake.pool?.id === poolId()

/** What the Lens says of the default pool for `who`, read beside the app. */
async function lensFor(t: ReturnType<typeof makeTestStore>, who: string) {
  const d = deployment()
  const lens = contracts.lens(d.contracts.lens, t.chain.readProvider(31337))
  return lens.getPoolDataById(d.contracts.poolsInfo, poolId(), who)
}

/** A store on the staking page: the reads start once their sagas run, as the page asks only then. */
async function openStaking(t: ReturnType<typeof makeTestStore>) {
  await waitFor(t.store, (s) => s.wallet.ready && s.wallet.readsReady)
  // /staking without an id: the default network's default pool.
  t.store.dispatch(poolSelected(null))
  t.store.dispatch(stakingPageOpened())
  return waitFor(t.store, poolLoaded)
}

describe('the public view and the ?account= view, against a real node and the real API', () => {
  it('shows the default network’s pool figures with no wallet, and lists nobody’s stakes', async () => {
    const t = makeTestStore({ apiUrl: api.url })
    const s = await openStaking(t)
    expect(selectShellView(s)).toBe('ready')
    expect(selectHolderView(s)).toBe('connect')
    expect(s.wallet.address).toBeNull()
    const lens = await lensFor(t, accounts[0])
    expect(s.stake.pool!.address).toBe(lens.pool)
    expect(s.stake.pool!.totalStaked).toBe(lens.state.totalStaked.toString())
    expect(s.stake.userStakes).toEqual([])
    expect(s.stake.owner).toBeNull()
  })

  it('shows another address read only, with or without a wallet, and sends nothing for it', async () => {
    const wallet = installInjectedWallet(accounts[2])
    const t = makeTestStore({ injected: wallet, apiUrl: api.url })
    await openStaking(t)
    // Lower case, as a link may carry it: it is read as the checksummed address.
    t.store.dispatch(accountParamChanged(accounts[0].toLowerCase()))
    let s = await waitFor(t.store, (st) => st.wallet.viewAccount === accounts[0] && st.stake.owner === accounts[0])
    s = await waitFor(t.store, (st) => poolLoaded(st) && st.stake.listStatus === 'ok' && st.stake.owner === accounts[0])
    const lens = await lensFor(t, accounts[0])
    expect(s.stake.totalStakedByUser).toBe(lens.allUserStakesAmount.toString())
    expect(s.stake.userStakes.length).toBeGreaterThan(0)
    expect(selectViewedAddress(s)).toBe(accounts[0])

    // The vesting status is #0's too.
    t.store.dispatch(vestingRefreshRequested())
    s = await waitFor(t.store, (st) => st.vesting.holder === accounts[0] && st.vesting.status === 'succeeded')
    const answer = (await (await fetch(`${api.url}/vesting/address/${accounts[0]}`)).json()) as { total: string }
    expect(s.vesting.info.total).toBe(answer.total)

    // Now a wallet connects as #2: the page still shows #0, and every write is refused before the wallet is asked.
    t.store.dispatch(connectRequested('browser'))
    await waitFor(t.store, (st) => st.wallet.address === accounts[2])
    expect(selectActBlock(t.store.getState())).toMatch(/^Read only: this page shows 0xf3 \.\.\. 2266\./)
    const active = t.store.getState().stake.userStakes.find((r) => r.active)!
    const sentBefore = wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    t.store.dispatch(unstakeRequested(active.id))
    s = await waitFor(t.store, (st) => st.stake.closing.status === 'failed')
    expect(s.stake.closing.error).toMatch(/^Read only/)
    t.store.dispatch(depositRequested({ amount: (100n * ONE).toString(), days: 30, referral: null }))
    s = await waitFor(t.store, (st) => st.stake.deposit.status === 'failed')
    expect(s.stake.deposit.error).toMatch(/^Read only/)
    t.store.dispatch(claimRequested())
    s = await waitFor(t.store, (st) => st.vesting.claim.status === 'failed')
    expect(s.vesting.claim.error).toMatch(/^Read only/)
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(sentBefore)
    // #0's stakes are as they were on chain.
    expect((await lensFor(t, accounts[0])).allUserStakesAmount).toBe(lens.allUserStakesAmount)

    // Back to one's own: #2's list, and acting works again.
    t.store.dispatch(accountParamChanged(null))
    s = await waitFor(t.store, (st) => st.stake.owner === accounts[2] && st.stake.listStatus === 'ok' && poolLoaded(st))
    expect(selectActBlock(s)).toBeNull()
    expect(s.stake.totalStakedByUser).toBe((await lensFor(t, accounts[2])).allUserStakesAmount.toString())
  })

  it('refuses a link whose account is not an address, and shows nobody’s figures', async () => {
    const t = makeTestStore({ apiUrl: api.url })
    await openStaking(t)
    t.store.dispatch(accountParamChanged('0x1234'))
    let s = await waitFor(t.store, (st) => st.wallet.viewError !== null)
    expect(s.wallet.viewError).toBe(
      `The link's account "0x1234" is not an address: an address is 0x followed by 40 hexadecimal characters.`,
    )
    expect(selectHolderView(s)).toBe('invalid')
    expect(selectViewedAddress(s)).toBeNull()
    // A wrong checksum (one letter's case changed) is named as such.
    const bad = accounts[0].replace('F', 'f')
    t.store.dispatch(accountParamChanged(bad))
    s = await waitFor(t.store, (st) => (st.wallet.viewError ?? '').includes('checksum'))
    expect(s.wallet.viewAccount).toBeNull()
  })
})
