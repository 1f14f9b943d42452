import { parseTimerOverrides, type Timers } from './timers'
import type { DeploymentRecord } from '../domain/deploymentRecord'
import { buildNetworks, type ApiHosts, type NetworkConfig } from './networks'

/**
 * What the build knows about the world: deployment records and API hosts, injected by webpack's DefinePlugin
 * (webpack.config.ts) and read from the environment under Jest. Kept to plain values so tests can build their own.
 */
export interface BuildConfig {
  deployments: Record<number, DeploymentRecord>
  api: ApiHosts
  /**
   * RPC endpoints of the local chain, in the order reads try them (LOCAL_RPC_URL, comma-separated; the e2e harness
   * runs the node on a free port). The Development account signs through the first.
   */
  localRpcUrls: string[]
  /** The local chain's explorer: the API's pages unless LOCAL_EXPLORER_URL names another. */
  localExplorerUrl: string
  /** Chain whose data pages show before a wallet says otherwise. */
  defaultChainId: number
  walletConnectProjectId: string
  /**
   * The Safe{Wallet} origins that may open the app as a Safe App (SAFE_APP_ORIGINS, comma-separated): the CSP's
   * frame-ancestors, and the only parents whose answers the Safe Apps SDK takes.
   */
  safeAppOrigins: string[]
  /** Timer overrides compiled into the build (APP_TIMERS; the browser tests shorten the outage timers). */
  timers?: Partial<Timers>
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  if (!text) return fallback
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

/** The build-time settings by name: what webpack.config.ts hands to DefinePlugin (and reads for the CSP). */
export type BuildEnv = Partial<
  Record<
    | 'APP_DEPLOYMENTS'
    | 'APP_API_HOSTS'
    | 'LOCAL_RPC_URL'
    | 'LOCAL_API_URL'
    | 'LOCAL_EXPLORER_URL'
    | 'DEFAULT_CHAIN_ID'
    | 'WALLETCONNECT_PROJECT_ID'
    | 'SAFE_APP_ORIGINS'
    | 'APP_TIMERS',
    string
  >
>

// Spelled out one by one: DefinePlugin replaces exactly these `process.env.X` expressions in the bundle.
const definedEnv = (): BuildEnv => ({
  APP_DEPLOYMENTS: process.env.APP_DEPLOYMENTS,
  APP_API_HOSTS: process.env.APP_API_HOSTS,
  LOCAL_RPC_URL: process.env.LOCAL_RPC_URL,
  LOCAL_API_URL: process.env.LOCAL_API_URL,
  LOCAL_EXPLORER_URL: process.env.LOCAL_EXPLORER_URL,
  DEFAULT_CHAIN_ID: process.env.DEFAULT_CHAIN_ID,
  WALLETCONNECT_PROJECT_ID: process.env.WALLETCONNECT_PROJECT_ID,
  SAFE_APP_ORIGINS: process.env.SAFE_APP_ORIGINS,
  APP_TIMERS: process.env.APP_TIMERS,
})

/**
 * Splits a comma-separated list of URLs (LOCAL_RPC_URL may name several), dropping blanks. Kept here, not beside the
 * read provider (src/chain/rpc.ts), so reading the configuration does not pull ethers' provider into the first view.
 */
function parseUrlList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '')
}

/** Safe{Wallet}'s own site: the parent the app trusts when the build names no other. */
export const SAFE_WALLET_ORIGIN = 'https://app.safe.global'

/** Reads the build-time configuration (every value has a working local default). */
export function readBuildConfig(env: BuildEnv = definedEnv()): BuildConfig {
  const deployments = parseJson<Record<number, DeploymentRecord>>(env.APP_DEPLOYMENTS, {})
  const localApi = env.LOCAL_API_URL || 'http://127.0.0.1:8787'
  const api = parseJson<ApiHosts>(env.APP_API_HOSTS, { vesting: {}, parser: {} })
  api.vesting[31337] ??= `${localApi}/vesting`
  api.parser[31337] ??= localApi
  const fallbackChain = deployments[31337] ? 31337 : 56
  return {
    deployments,
    api,
    localRpcUrls: parseUrlList(env.LOCAL_RPC_URL).length ? parseUrlList(env.LOCAL_RPC_URL) : ['http://127.0.0.1:8545'],
    localExplorerUrl: env.LOCAL_EXPLORER_URL || `${localApi}/explorer`,
    defaultChainId: Number(env.DEFAULT_CHAIN_ID) || fallbackChain,
    walletConnectProjectId: env.WALLETCONNECT_PROJECT_ID ?? '',
    safeAppOrigins: parseUrlList(env.SAFE_APP_ORIGINS).length ? parseUrlList(env.SAFE_APP_ORIGINS) : [SAFE_WALLET_ORIGIN],
    timers: parseTimerOverrides(env.APP_TIMERS),
  }
}

/** The app's network table for a build configuration. */
export function networksFor(config: BuildConfig): Record<number, NetworkConfig> {
  const networks = buildNetworks(config.deployments, config.api)
  networks[31337] = { ...networks[31337], rpcUrls: config.localRpcUrls, explorerUrl: config.localExplorerUrl }
  return networks
}
