import { addChainParameters, catalogueEntry, loadCatalogue } from './catalogue'
import { buildNetworks } from './networks'

describe('chain catalogue', () => {
  it('is the maintained list, with the fields of docs/product.md §12.6', async () => {
    const list = await loadCatalogue()
    expect(list.length).toBeGreaterThan(150)
    const bsc = await catalogueEntry(56)
    expect(bsc).toMatchObject({ chainId: 56, networkId: 56, nativeCurrency: { symbol: 'BNB', decimals: 18 } })
    expect(bsc!.explorers![0].url).toBe('https://bscscan.com')
  })

  it('builds wallet_addEthereumChain parameters from our config first', async () => {
    const n = buildNetworks({})
    expect(addChainParameters(n[97], await catalogueEntry(97))).toEqual({
      chainId: '0x61',
      chainName: 'BNB Smart Chain Testnet',
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      rpcUrls: ['https://data-seed-prebsc-1-s1.binance.org:8545'],
      blockExplorerUrls: ['https://testnet.bscscan.com'],
    })
  })

  it('keeps a loopback RPC for the local chain and never mixes in a colliding catalogue entry', async () => {
    const local = { ...buildNetworks({})[31337], rpcUrls: ['http://127.0.0.1:41234'] }
    const params = addChainParameters(local, await catalogueEntry(31337))
    expect(params.rpcUrls).toEqual(['http://127.0.0.1:41234'])
    expect(params).not.toHaveProperty('blockExplorerUrls')
    expect(params.chainName).toBe('Localhost')
  })

  it('falls back to the catalogue RPCs without API-key placeholders when ours is unusable', async () => {
    const rinkeby = { ...buildNetworks({})[4], rpcUrls: ['wss://nope'] }
    const params = addChainParameters(rinkeby, await catalogueEntry(1))
    expect(params.rpcUrls.length).toBeGreaterThan(0)
    expect(params.rpcUrls.every((u) => u.startsWith('https://') && !u.includes('${'))).toBe(true)
  })
})
