import type { DeploymentRecord } from '../domain/deploymentRecord'

export interface NativeCurrency {
  name: string
  symbol: string
  decimals: number
}

/** Plain JSON, safe to keep in the store. */
export interface NetworkConfig {
  chainId: number
  name: string
  /** Icon family: the Ethereum-style green set for 1, 3, 4, 5, 47; BSC for 56 and 97 (docs/product.md §9). */
  label: 'ethereum' | 'bsc' | 'local'
  explorerUrl: string
  explorerName: string
  /** Read endpoints, tried in order when one fails (src/chain/rpc.ts); the first is the one offered to wallets. */
  rpcUrls: string[]
  nativeCurrency: NativeCurrency
  defaultPoolId: number
  /** Base of the vesting API: GET {base}/address/{wallet}. */
  vestingApiBase: string
  /** Contract-parser API base (ABIs, token holders). */
  parserApiBase: string
  /** null: the chain is known but has no contracts, so it is not supported. */
  contracts: { lens: string; poolsInfo: string; harvest: string; token: string } | null
  pools: { id: number; address: string; version: number }[]
  /** The TimelockController that owns the contracts (real networks) and the block to read its schedule from. */
  timelock: { address: string; fromBlock: number } | null
}

type Base = Omit<NetworkConfig, 'contracts' | 'pools' | 'timelock'>

const ETH = { name: 'Ether', symbol: 'ETH', decimals: 18 }
const BNB = { name: 'BNB', symbol: 'BNB', decimals: 18 }

/** API hosts per chain, set at build time; the local stack serves both APIs on 127.0.0.1:8787. */
export interface ApiHosts {
  vesting: Record<number, string>
  parser: Record<number, string>
}

const LOCAL_API = 'http://127.0.0.1:8787'

function bases(api: ApiHosts): Record<number, Base> {
  const v = (id: number, fallback = '') => api.vesting[id] ?? fallback
  const p = (id: number, fallback = '') => api.parser[id] ?? fallback
  return {
    1: {
      chainId: 1,
      name: 'Ethereum',
      label: 'ethereum',
      explorerUrl: 'https://etherscan.io',
      explorerName: 'Etherscan',
      rpcUrls: ['https://cloudflare-eth.com'],
      nativeCurrency: ETH,
      defaultPoolId: 0,
      vestingApiBase: v(1),
      parserApiBase: p(1),
    },
    4: {
      chainId: 4,
      name: 'Rinkeby',
      label: 'ethereum',
      explorerUrl: 'https://rinkeby.etherscan.io',
      explorerName: 'Etherscan',
      rpcUrls: ['https://rinkeby.infura.io/v3/'],
      nativeCurrency: ETH,
      defaultPoolId: 7,
      vestingApiBase: v(4),
      parserApiBase: p(4),
    },
    56: {
      chainId: 56,
      name: 'BNB Smart Chain',
      label: 'bsc',
      explorerUrl: 'https://bscscan.com',
      explorerName: 'BscScan',
      rpcUrls: ['https://bsc-dataseed.binance.org'],
      nativeCurrency: BNB,
      defaultPoolId: 1,
      vestingApiBase: v(56),
      parserApiBase: p(56),
    },
    97: {
      chainId: 97,
      name: 'BNB Smart Chain Testnet',
      label: 'bsc',
      explorerUrl: 'https://testnet.bscscan.com',
      explorerName: 'BscScan',
      rpcUrls: ['https://data-seed-prebsc-1-s1.binance.org:8545'],
      nativeCurrency: BNB,
      defaultPoolId: 1,
      vestingApiBase: v(97),
      parserApiBase: p(97),
    },
    31337: {
      chainId: 31337,
      name: 'Localhost',
      label: 'local',
      // The build sets the URL (buildConfig.ts): the local API serves a small explorer.
      explorerUrl: '',
      explorerName: 'Local explorer',
      rpcUrls: ['http://127.0.0.1:8545'],
      nativeCurrency: ETH,
      defaultPoolId: 1,
      vestingApiBase: v(31337, `${LOCAL_API}/vesting`),
      parserApiBase: p(31337, LOCAL_API),
    },
  }
}

/** The app's networks: the known chains, each supported only where a deployment record exists. */
export function buildNetworks(deployments: Record<number, DeploymentRecord>, api: ApiHosts = { vesting: {}, parser: {} }) {
  const out: Record<number, NetworkConfig> = {}
  for (const base of Object.values(bases(api))) {
    const d = deployments[base.chainId]
    out[base.chainId] = {
      ...base,
      defaultPoolId: d?.defaultPoolId ?? base.defaultPoolId,
      contracts: d
        ? { lens: d.contracts.lens, poolsInfo: d.contracts.poolsInfo, harvest: d.contracts.harvest, token: d.contracts.token }
        : null,
      pools: d?.pools ?? [],
      timelock: d?.timelock ? { address: d.timelock, fromBlock: d.startBlock } : null,
    }
  }
  return out
}

export const isSupported = (
  n: NetworkConfig | undefined,
): n is NetworkConfig & { contracts: NonNullable<NetworkConfig['contracts']> } => !!n && n.contracts !== null

export function supportedNetworks(networks: Record<number, NetworkConfig>): NetworkConfig[] {
  return Object.values(networks).filter(isSupported)
}

/** Where "switch to chain X" goes: 1 becomes 4 and 56 becomes 97 when the target has no contracts (docs/product.md §3.2). */
export function switchTarget(chainId: number, networks: Record<number, NetworkConfig>): number {
  const fallback: Record<number, number> = { 1: 4, 56: 97 }
  if (!isSupported(networks[chainId]) && fallback[chainId] !== undefined) return fallback[chainId]
  return chainId
}

/** Explorer link for a transaction, or null on a chain without an explorer (the local one). */
export function txUrl(network: NetworkConfig | undefined, hash: string): string | null {
  return network?.explorerUrl ? `${network.explorerUrl}/tx/${hash}` : null
}

/** Explorer link for an address (token contract link on both pages). */
export function addressUrl(network: NetworkConfig | undefined, address: string): string | null {
  return network?.explorerUrl ? `${network.explorerUrl}/address/${address}` : null
}
