import { testRecord as record } from '../../test/support/fixtures'
import { readBuildConfig } from '../config/buildConfig'
import { connectSources, contentSecurityPolicy, EMPTY_STYLE_HASH, WALLETCONNECT_SOURCES } from './csp'

/** A production-like build: BSC and its test net deployed, APIs on their own hosts, no local chain. */
const live = readBuildConfig({
  APP_DEPLOYMENTS: JSON.stringify({ 56: record(56), 97: record(97) }),
  APP_API_HOSTS: JSON.stringify({
    vesting: { 56: 'https://vesting.example.com/api', 97: 'https://vesting-demo.example.com/api' },
    parser: { 56: 'https://parser.example.com', 97: 'https://parser.example.com' },
  }),
})

/** Splits a policy into its directives' source lists. */
const directives = (csp: string) =>
  Object.fromEntries(
    csp.split('; ').map((d) => {
      const [name, ...sources] = d.split(' ')
      return [name, sources]
    }),
  )

describe('connectSources', () => {
  it("lists the origins of the deployed networks' RPC and APIs, each once, and nothing of networks without contracts", () => {
    expect(connectSources(live).sort()).toEqual(
      [
        'https://bsc-dataseed.binance.org',
        'https://data-seed-prebsc-1-s1.binance.org:8545',
        'https://parser.example.com',
        'https://vesting-demo.example.com',
        'https://vesting.example.com',
      ].sort(),
    )
  })

  it('follows the local stack the build points at', () => {
    const local = readBuildConfig({
      APP_DEPLOYMENTS: JSON.stringify({ 31337: record(31337) }),
      LOCAL_RPC_URL: 'http://127.0.0.1:40123',
      LOCAL_API_URL: 'http://127.0.0.1:40124',
    })
    expect(connectSources(local).sort()).toEqual(['http://127.0.0.1:40123', 'http://127.0.0.1:40124'])
  })

  it("adds WalletConnect's relay, RPC, verify, events and wallet-list hosts only with a project id", () => {
    expect(connectSources(live).some((s) => s.includes('walletconnect'))).toBe(false)
    const wc = connectSources({ ...live, walletConnectProjectId: 'abc' })
    expect(wc).toEqual(expect.arrayContaining(['wss://relay.walletconnect.com', 'wss://relay.walletconnect.org']))
    expect(wc).toEqual(expect.arrayContaining(WALLETCONNECT_SOURCES.connect))
  })
})

describe('contentSecurityPolicy', () => {
  it('allows scripts from the site and inline ones by hash only, framing by Safe{Wallet} only, and styles by hash', () => {
    expect(directives(contentSecurityPolicy(live))['script-src']).toEqual(["'self'"])
    const d = directives(contentSecurityPolicy(live, { inlineStyleHashes: ['sha256-abc='], inlineScriptHashes: ['sha256-def='] }))
    expect(d['script-src']).toEqual(["'self'", "'sha256-def='"])
    expect(d['default-src']).toEqual(["'self'"])
    expect(d['object-src']).toEqual(["'none'"])
    expect(d['base-uri']).toEqual(["'none'"])
    expect(d['frame-ancestors']).toEqual(['https://app.safe.global'])
    expect(d['frame-src']).toEqual(["'none'"])
    expect(d['style-src']).toEqual(["'self'", `'${EMPTY_STYLE_HASH}'`, "'sha256-abc='"])
    expect(d['connect-src']).toEqual(["'self'", ...connectSources(live)])
  })

  it("lets WalletConnect's modal in: its frames, fonts, blob images and inline theme styles, scripts still strict", () => {
    const d = directives(
      contentSecurityPolicy({ ...live, walletConnectProjectId: 'abc' }, { inlineStyleHashes: ['sha256-abc='] }),
    )
    expect(d['script-src']).toEqual(["'self'"])
    // 'unsafe-inline' is ignored next to a hash, so the hashes go.
    expect(d['style-src']).toEqual(["'self'", "'unsafe-inline'"])
    expect(d['frame-src']).toEqual(['https://verify.walletconnect.com', 'https://verify.walletconnect.org'])
    expect(d['font-src']).toEqual(["'self'", 'https://fonts.reown.com'])
    expect(d['img-src']).toContain('blob:')
  })

  it('loosens only what the dev server needs: eval, text styles and its socket', () => {
    const d = directives(contentSecurityPolicy(live, { dev: { socketOrigins: ['ws://127.0.0.1:3000'] } }))
    expect(d['script-src']).toEqual(["'self'", "'unsafe-eval'"])
    expect(d['style-src']).toEqual(["'self'", "'unsafe-inline'"])
    expect(d['connect-src']).toEqual(["'self'", ...connectSources(live), 'ws://127.0.0.1:3000'])
    expect(d['frame-ancestors']).toEqual(['https://app.safe.global'])
  })

  it('lets exactly the Safe{Wallet} origins the build names frame the app (a self-hosted Safe{Wallet})', () => {
    const own = readBuildConfig({ SAFE_APP_ORIGINS: 'https://safe.example.org, https://app.safe.global' })
    expect(directives(contentSecurityPolicy(own))['frame-ancestors']).toEqual([
      'https://safe.example.org',
      'https://app.safe.global',
    ])
    expect(directives(contentSecurityPolicy({ ...own, safeAppOrigins: [] }))['frame-ancestors']).toEqual(["'none'"])
  })
})
