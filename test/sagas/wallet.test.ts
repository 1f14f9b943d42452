import { getAddress } from 'ethers'
import { createMemoryEnv } from '../../src/platform/browserEnv'
import { connectRequested, disconnectRequested, modalOpened, switchChainRequested } from '../../src/features/wallet/slice'
import { selectAllowance } from '../../src/features/token/selectors'
import { selectShellView, selectWalletButton } from '../../src/features/wallet/selectors'
import { contracts } from '../../src/chain/contracts'
import { JsonRpcProvider } from 'ethers'
import { TestWallet } from '../../scripts/lib/testWallet'
import { CHAIN_URL, deployment, installInjectedWallet, makeTestStore, nodeAccounts, waitFor } from '../support/sagaStore'

let accounts: string[]
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
})

describe('connecting a wallet', () => {
  it('connects the development account, names the network, remembers the wallet and reads the token', async () => {
    const { store, env } = makeTestStore()
    await waitFor(store, (s) => s.wallet.ready)
    // No wallet: the pages show the default network's figures (the public view), their reads running.
    expect(selectShellView(store.getState())).toBe('ready')
    await waitFor(store, (st) => st.wallet.readsReady)
    expect(store.getState().wallet.options.map((o) => o.name)).toEqual(['browser', 'mobile', 'walletconnect', 'dev'])

    const d = deployment()
    const pool = d.pools.find((p) => p.id === d.defaultPoolId)!.address
    store.dispatch(connectRequested('dev'))
    // The token figures and the default pool's allowance come with the same read, one action each.
    const s = await waitFor(
      store,
      (st) => st.wallet.address !== null && st.token.symbol !== '' && selectAllowance(st, pool) !== null,
    )
    expect(s.wallet.address).toBe(accounts[0])
    expect(s.wallet.networkId).toBe(31337)
    expect(s.wallet.networkName).toBe('Localhost')
    expect(s.wallet.wallet).toEqual({ name: 'dev', connected: true })
    expect(env.cookies.get('walletName')).toBe('dev')
    expect(selectShellView(s)).toBe('ready')
    expect(selectWalletButton(s).label).toBe(`${accounts[0].slice(0, 4)} ... ${accounts[0].slice(-4)}`)

    const token = contracts.token(d.contracts.token, new JsonRpcProvider(CHAIN_URL(), 31337, { staticNetwork: true }))
    expect(s.token.symbol).toBe(await token.symbol())
    expect(s.token.balance).toBe((await token.balanceOf(accounts[0])).toString())
    expect(selectAllowance(s, pool)).toBe((await token.allowance(accounts[0], pool)).toString())
  })

  it('reconnects eagerly from the walletName cookie, before the spinner goes', async () => {
    const env = createMemoryEnv()
    env.cookies.set('walletName', 'dev')
    const { store } = makeTestStore({ env })
    const s = await waitFor(store, (st) => st.wallet.ready)
    expect(s.wallet.address).toBe(accounts[0])
  })

  it('stays disconnected when the remembered wallet cannot connect, and still becomes ready', async () => {
    const env = createMemoryEnv()
    env.cookies.set('walletName', 'browser') // no injected wallet here
    const { store } = makeTestStore({ env })
    const s = await waitFor(store, (st) => st.wallet.ready)
    expect(s.wallet.address).toBeNull()
  })

  it('opens a remembered modal after connecting and clears the modal cookie', async () => {
    const { store, env } = makeTestStore()
    await waitFor(store, (s) => s.wallet.ready)
    store.dispatch(modalOpened('deposit'))
    await waitFor(store, (s) => s.wallet.openModal === 'connect')
    expect(env.cookies.get('modal')).toBe('deposit')
    store.dispatch(connectRequested('dev'))
    await waitFor(store, (s) => s.wallet.openModal === 'deposit')
    expect(env.cookies.get('modal')).toBeUndefined()
  })

  it('disconnects: the cookie goes and the page reloads', async () => {
    const { store, env } = makeTestStore()
    store.dispatch(connectRequested('dev'))
    await waitFor(store, (s) => s.wallet.address !== null)
    store.dispatch(disconnectRequested())
    await waitFor(store, () => env.reloads === 1)
    expect(env.cookies.get('walletName')).toBeUndefined()
  })

  it('stores a valid ref query parameter, checksummed, and ignores anything else', async () => {
    const ref = accounts[3]
    const ok = makeTestStore({ env: createMemoryEnv({ search: `?ref=${ref.toLowerCase()}` }) })
    await waitFor(ok.store, (s) => s.wallet.referral === ref)
    expect(ok.env.cookies.get('ref')).toBe(ref)
    // A referral stored before stays: anything else in the link neither replaces nor clears it.
    for (const bad of ['?ref=0x123', '?ref=<script>', '?ref=', '?other=1']) {
      const env = createMemoryEnv({ search: bad })
      env.cookies.set('ref', accounts[4])
      const t = makeTestStore({ env })
      await waitFor(t.store, (s) => s.wallet.referral === accounts[4])
      expect(t.env.cookies.get('ref')).toBe(accounts[4])
    }
  })
})

describe('an injected wallet', () => {
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window
  })

  it('follows an account change: new address, token data re-read for it', async () => {
    const wallet = installInjectedWallet(accounts[0])
    const { store } = makeTestStore({ injected: wallet })
    store.dispatch(connectRequested('browser'))
    await waitFor(store, (s) => s.wallet.address === accounts[0] && s.token.symbol !== '')
    const before = store.getState().token.balance
    const d = deployment()
    const pool = d.pools.find((p) => p.id === d.defaultPoolId)!.address
    wallet.switchAccount(accounts[4])
    const s = await waitFor(
      store,
      (st) => st.wallet.address === accounts[4] && st.token.balance !== before && selectAllowance(st, pool) !== null,
    )
    const token = contracts.token(d.contracts.token, new JsonRpcProvider(CHAIN_URL(), 31337, { staticNetwork: true }))
    expect(s.token.balance).toBe((await token.balanceOf(accounts[4])).toString())
    // The allowances are the new account's: the last one's were dropped, and the new read keyed to it.
    expect(s.token.allowances.owner).toBe(accounts[4].toLowerCase())
    expect(selectAllowance(s, pool)).toBe((await token.allowance(accounts[4], pool)).toString())
  })

  it('shows an unsupported network and switches 1 to 4, adding the chain when the wallet answers 4902', async () => {
    const wallet = installInjectedWallet(accounts[0], 1, [1])
    const { store, env } = makeTestStore({ injected: wallet })
    store.dispatch(connectRequested('browser'))
    const s = await waitFor(store, (st) => st.wallet.networkId === 1)
    expect(selectShellView(s)).toBe('unsupported')
    expect(s.wallet.networkName).toBe('Ethereum')

    store.dispatch(switchChainRequested({ chainId: 1 }))
    await waitFor(store, () => env.reloads === 1)
    expect(wallet.chainId).toBe(4)
    expect(wallet.added).toEqual([expect.objectContaining({ chainId: '0x4', chainName: 'Rinkeby' })])
    const switches = wallet.requests
      .filter((r) => r.method === 'wallet_switchEthereumChain')
      .map((r) => (r.params as { chainId: string }[])[0].chainId)
    expect(switches).toEqual(['0x4', '0x4'])
  })

  it('maps 56 to 97, switching directly when the wallet knows the chain', async () => {
    const wallet = installInjectedWallet(accounts[0], 1, [1, 97])
    const { store, env } = makeTestStore({ injected: wallet })
    store.dispatch(connectRequested('browser'))
    await waitFor(store, (st) => st.wallet.networkId === 1)
    store.dispatch(switchChainRequested({ chainId: 56 }))
    await waitFor(store, () => env.reloads === 1)
    expect(wallet.chainId).toBe(97)
    expect(wallet.added).toEqual([])
  })

  it('keeps the page usable when the person rejects the switch', async () => {
    const wallet = installInjectedWallet(accounts[0], 1, [1, 4])
    const { store, env } = makeTestStore({ injected: wallet })
    store.dispatch(connectRequested('browser'))
    await waitFor(store, (st) => st.wallet.networkId === 1)
    wallet.rejectNext('wallet_switchEthereumChain')
    store.dispatch(switchChainRequested({ chainId: 4 }))
    const s = await waitFor(store, (st) => st.wallet.switchingTo === null && st.wallet.error !== null)
    expect(s.wallet.error).toBe('You rejected the network switch in your wallet.')
    expect(env.reloads).toBe(0)
  })

  it('reports a rejected connection without connecting', async () => {
    const wallet = installInjectedWallet(accounts[0])
    const { store } = makeTestStore({ injected: wallet })
    wallet.rejectNext('eth_requestAccounts')
    store.dispatch(connectRequested('browser'))
    const s = await waitFor(store, (st) => st.wallet.error !== null)
    expect(s.wallet.error).toBe('You rejected the connection in your wallet.')
    expect(s.wallet.connecting).toBe(false)
    expect(s.wallet.address).toBeNull()
  })
})

describe('wallets that announce themselves (EIP-6963)', () => {
  const ICON = 'data:image/svg+xml;base64,PHN2Zy8+'
  /** Two extensions in one browser, each with its own provider and account; neither is window.ethereum here. */
  function twoWallets() {
    const first = new TestWallet(CHAIN_URL(), { account: accounts[0] })
    const second = new TestWallet(CHAIN_URL(), { account: accounts[4] })
    const announce = (rdns: string, name: string, provider: TestWallet) => ({
      info: { uuid: rdns, name, icon: ICON, rdns },
      provider,
    })
    return { first, second, firstAnnounced: announce('io.first', 'First Wallet', first), announce }
  }

  it('lists both, and the chosen one is used for the account, its events and the cookie', async () => {
    const { first, second, firstAnnounced, announce } = twoWallets()
    const env = createMemoryEnv({ announced: [firstAnnounced, announce('io.second', 'Second Wallet', second)] })
    const { store } = makeTestStore({ env })
    await waitFor(store, (s) => s.wallet.ready && s.wallet.options.length > 5)
    expect(store.getState().wallet.options.slice(0, 2)).toEqual([
      expect.objectContaining({ name: 'io.first', label: 'First Wallet', icon: ICON }),
      expect.objectContaining({ name: 'io.second', label: 'Second Wallet', icon: ICON }),
    ])
    store.dispatch(connectRequested('io.second'))
    const s = await waitFor(store, (st) => st.wallet.address === accounts[4] && st.token.symbol !== '')
    expect(s.wallet.wallet).toEqual({ name: 'io.second', connected: true })
    expect(env.cookies.get('walletName')).toBe('io.second')
    expect(second.requests.map((r) => r.method)).toContain('eth_requestAccounts')
    expect(first.requests).toEqual([])
    // The first wallet's events are not ours; the second's are.
    first.switchAccount(accounts[2])
    await new Promise((r) => setTimeout(r, 50))
    expect(store.getState().wallet.address).toBe(accounts[4])
    second.switchAccount(accounts[5])
    await waitFor(store, (st) => st.wallet.address === accounts[5])
  })

  it('lists a wallet that announces late, and a declined connect says so', async () => {
    const { second, firstAnnounced, announce } = twoWallets()
    const env = createMemoryEnv({ announced: [firstAnnounced] })
    const { store } = makeTestStore({ env })
    await waitFor(store, (s) => s.wallet.ready)
    env.announce(announce('io.second', 'Second Wallet', second))
    await waitFor(store, (s) => s.wallet.options.some((o) => o.name === 'io.second'))
    second.rejectNext('eth_requestAccounts')
    store.dispatch(connectRequested('io.second'))
    const s = await waitFor(store, (st) => st.wallet.error !== null)
    expect(s.wallet.error).toBe('You rejected the connection in your wallet.')
    expect(s.wallet.connecting).toBe(false)
    expect(s.wallet.address).toBeNull()
  })

  it('reconnects eagerly by the rdns in the walletName cookie, waiting for a late announcement', async () => {
    const { second, firstAnnounced, announce } = twoWallets()
    second.permitted = true
    const env = createMemoryEnv({ announced: [firstAnnounced] })
    env.cookies.set('walletName', 'io.second')
    const { store } = makeTestStore({ env })
    // The extension loads a moment after the page.
    setTimeout(() => env.announce(announce('io.second', 'Second Wallet', second)), 300)
    const s = await waitFor(store, (st) => st.wallet.ready)
    expect(s.wallet.address).toBe(accounts[4])
    expect(s.wallet.wallet.name).toBe('io.second')
  })

  it('a remembered wallet that is gone (never announces): ready, not connected', async () => {
    const env = createMemoryEnv()
    env.cookies.set('walletName', 'io.uninstalled')
    const { store } = makeTestStore({ env })
    const s = await waitFor(store, (st) => st.wallet.ready)
    expect(s.wallet.address).toBeNull()
  })
})
