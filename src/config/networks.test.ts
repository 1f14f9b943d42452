import { addressUrl, buildNetworks, isSupported, supportedNetworks, switchTarget, txUrl } from './networks'
import { connectSources } from '../hosting/csp'
import { networksFor, readBuildConfig } from './buildConfig'
import { testRecord } from '../../test/support/fixtures'

const record = (chainId: number, defaultPoolId = 1) => testRecord(chainId, { defaultPoolId })

describe('networks', () => {
  it('knows 1, 4, 56, 97 and 31337 and supports only those with a deployment', () => {
    const n = buildNetworks({ 31337: record(31337), 97: record(97) })
    expect(
      Object.keys(n)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([1, 4, 56, 97, 31337])
    expect(supportedNetworks(n).map((x) => x.chainId)).toEqual([97, 31337])
    expect(isSupported(n[1])).toBe(false)
    expect(n[97].contracts).toEqual({ lens: '0xL', poolsInfo: '0xP', harvest: '0xH', token: '0xT' })
  })

  it('keeps the spec default pool ids unless the deployment names one', () => {
    const n = buildNetworks({ 4: record(4, 7) })
    expect(n[4].defaultPoolId).toBe(7)
    expect(n[56].defaultPoolId).toBe(1)
    expect(n[31337].defaultPoolId).toBe(1)
  })

  it('maps 1 to 4 and 56 to 97 only when the target has no contracts', () => {
    const n = buildNetworks({ 4: record(4), 97: record(97) })
    expect(switchTarget(1, n)).toBe(4)
    expect(switchTarget(56, n)).toBe(97)
    expect(switchTarget(97, n)).toBe(97)
    const withBsc = buildNetworks({ 56: record(56) })
    expect(switchTarget(56, withBsc)).toBe(56)
  })

  it('labels chains for the icon sets and builds explorer links', () => {
    const n = buildNetworks({})
    expect([n[1].label, n[4].label, n[56].label, n[97].label]).toEqual(['ethereum', 'ethereum', 'bsc', 'bsc'])
    expect(txUrl(n[56], '0xabc')).toBe('https://bscscan.com/tx/0xabc')
    expect(addressUrl(n[97], '0xdef')).toBe('https://testnet.bscscan.com/address/0xdef')
    expect(txUrl(n[31337], '0xabc')).toBeNull()
  })

  it("links the local chain to the explorer the build names: the local API's by default", () => {
    const config = { ...readBuildConfig(), deployments: { 31337: record(31337) } }
    expect(txUrl(networksFor(config)[31337], '0xabc')).toBe('http://127.0.0.1:8787/explorer/tx/0xabc')
    const elsewhere = networksFor({ ...config, localExplorerUrl: 'http://127.0.0.1:4000' })[31337]
    expect(addressUrl(elsewhere, '0xdef')).toBe('http://127.0.0.1:4000/address/0xdef')
    expect(elsewhere.explorerName).toBe('Local explorer')
  })

  it('reads several local RPC URLs from LOCAL_RPC_URL, in order, and lets the CSP connect to each', () => {
    const saved = process.env.LOCAL_RPC_URL
    process.env.LOCAL_RPC_URL = ' http://127.0.0.1:9001 ,http://127.0.0.1:9002/rpc,, '
    try {
      const config = { ...readBuildConfig(), deployments: { 31337: record(31337) } }
      expect(config.localRpcUrls).toEqual(['http://127.0.0.1:9001', 'http://127.0.0.1:9002/rpc'])
      expect(networksFor(config)[31337].rpcUrls).toEqual(['http://127.0.0.1:9001', 'http://127.0.0.1:9002/rpc'])
      // The Content-Security-Policy's connect-src lists every one of them (src/hosting/csp.ts).
      const origins = connectSources(config)
      expect(origins).toEqual(expect.arrayContaining(['http://127.0.0.1:9001', 'http://127.0.0.1:9002', 'http://127.0.0.1:8787']))
      expect(new Set(origins).size).toBe(origins.length)
    } finally {
      if (saved === undefined) delete process.env.LOCAL_RPC_URL
      else process.env.LOCAL_RPC_URL = saved
    }
  })

  it('points the local chain at the local API and takes other hosts from the build', () => {
    const n = buildNetworks({}, { vesting: { 56: 'https://vesting.example/api' }, parser: {} })
    expect(n[31337].vestingApiBase).toBe('http://127.0.0.1:8787/vesting')
    expect(n[56].vestingApiBase).toBe('https://vesting.example/api')
  })
})
