import { createMemoryEnv } from '../platform/browserEnv'
import { buildNetworks } from '../config/networks'
import { metaMaskDeepLink, Wallets } from './wallets'
import { LOCAL_RECORD } from '../../test/support/render'

const opts = { walletConnectProjectId: '', localRpcUrl: 'http://127.0.0.1:8545', defaultChainId: 31337, safeAppOrigins: [] }

const provider = { request: async () => null, on: () => provider, removeListener: () => provider }
const announcement = (rdns: string, name: string) => ({
  info: { uuid: rdns, name, icon: 'data:image/svg+xml;base64,PHN2Zy8+', rdns },
  provider: { ...provider },
})

/** Resolves once `done()` holds (the discovery loads its code first, as in the browser). */
async function waitUntil(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(done()).toBe(true)
}

describe('wallet options', () => {
  it('lists each wallet that announces itself (EIP-6963) first, by its own name and icon', async () => {
    const rabby = announcement('io.rabby', 'Rabby Wallet')
    const env = createMemoryEnv({ injected: {}, announced: [rabby] })
    const wallets = new Wallets(env, buildNetworks({}), opts)
    let changes = 0
    wallets.discover(() => changes++)
    // The discovery's code arrives with the connectors' chunk; the installed wallet answers its request then.
    await waitUntil(() => changes === 1)
    env.announce(announcement('io.metamask', 'MetaMask'))
    expect(changes).toBe(2)
    const listed = wallets.options()
    expect(listed.map((o) => o.name)).toEqual(['io.rabby', 'io.metamask', 'browser', 'mobile', 'walletconnect'])
    expect(listed[0]).toMatchObject({ label: 'Rabby Wallet', icon: 'data:image/svg+xml;base64,PHN2Zy8+', unavailable: null })
    expect(wallets.isAnnounced('io.metamask')).toBe(true)
    // The same wallet answering again is no change; garbage dispatched as an announcement is not a wallet.
    env.announce(rabby)
    env.announce({ info: { rdns: 'x.y', name: 'No provider' } })
    expect(wallets.options()).toHaveLength(5)
  })

  it('connects an announced wallet through its own provider, and refuses one that never announced', async () => {
    const rabby = announcement('io.rabby', 'Rabby Wallet')
    const wallets = new Wallets(createMemoryEnv({ announced: [rabby] }), buildNetworks({}), opts)
    let heard = false
    wallets.discover(() => (heard = true))
    await waitUntil(() => heard)
    const loaded = await wallets.load('io.rabby')
    expect(loaded.name).toBe('io.rabby')
    expect(loaded.connector.provider).toBe(rabby.provider)
    await expect(wallets.load('app.phantom')).rejects.toThrow('The wallet app.phantom is not installed in this browser')
  })

  it('offers the development account only when the local chain is deployed', () => {
    const withLocal = new Wallets(createMemoryEnv(), buildNetworks({ 31337: LOCAL_RECORD }), opts)
    expect(withLocal.options().map((o) => o.name)).toEqual(['browser', 'mobile', 'walletconnect', 'dev'])
    const production = new Wallets(createMemoryEnv(), buildNetworks({ 56: { ...LOCAL_RECORD, chainId: 56 } }), opts)
    expect(production.options().map((o) => o.name)).toEqual(['browser', 'mobile', 'walletconnect'])
  })

  it('explains an unconfigured WalletConnect and a missing injected wallet', () => {
    const [browser, mobile, wc] = new Wallets(createMemoryEnv(), buildNetworks({}), opts).options()
    expect(browser.unavailable).toMatch(/No browser wallet found/)
    expect(mobile.unavailable).toMatch(/wallet app/)
    expect(wc.unavailable).toBe('WalletConnect is not configured for this site (no project id).')
    const configured = new Wallets(createMemoryEnv({ injected: {} }), buildNetworks({}), {
      ...opts,
      walletConnectProjectId: 'abc',
    })
    expect(configured.options().every((o) => o.unavailable === null)).toBe(true)
  })

  it('offers a MetaMask deep link on a phone without an injected wallet', () => {
    const env = createMemoryEnv({ isPhone: true, href: 'https://app.example/staking?ref=0x1' })
    const [browser] = new Wallets(env, buildNetworks({}), opts).options()
    expect(browser.deepLink).toBe('https://metamask.app.link/dapp/app.example/staking?ref=0x1')
    expect(metaMaskDeepLink('http://127.0.0.1:3000/')).toBe('https://metamask.app.link/dapp/127.0.0.1:3000/')
  })
})
