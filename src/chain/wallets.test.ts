import { createMemoryEnv } from '../platform/browserEnv'
import { buildNetworks } from '../config/networks'
import { metaMaskDeepLink, Wallets } from './wallets'
import { LOCAL_RECORD } from '../../test/support/render'

const opts = { walletConnectProjectId: '', localRpcUrl: 'http://127.0.0.1:8545', defaultChainId: 31337 }

describe('wallet options', () => {
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
