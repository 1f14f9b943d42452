import { parseTimerOverrides, type Timers } from '../app/config'
import type { DeploymentRecord } from './deploymentRecord'
import { buildNetworks, type ApiHosts, type NetworkConfig } from './networks'
import { parseUrlList } from './rpc'

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

/** Reads the build-time configuration (every value has a working local default). */
export function readBuildConfig(): BuildConfig {
  const deployments = parseJson<Record<number, DeploymentRecord>>(process.env.APP_DEPLOYMENTS, {})
  const localApi = process.env.LOCAL_API_URL || 'http://127.0.0.1:8787'
  const api = parseJson<ApiHosts>(process.env.APP_API_HOSTS, { vesting: {}, parser: {} })
  api.vesting[31337] ??= `${localApi}/vesting`
  api.parser[31337] ??= localApi
  const fallbackChain = deployments[31337] ? 31337 : 56
  return {
    deployments,
    api,
    localRpcUrls: parseUrlList(process.env.LOCAL_RPC_URL).length
      ? parseUrlList(process.env.LOCAL_RPC_URL)
      : ['http://127.0.0.1:8545'],
    localExplorerUrl: process.env.LOCAL_EXPLORER_URL || `${localApi}/explorer`,
    defaultChainId: Number(process.env.DEFAULT_CHAIN_ID) || fallbackChain,
    walletConnectProjectId: process.env.WALLETCONNECT_PROJECT_ID ?? '',
    timers: parseTimerOverrides(process.env.APP_TIMERS),
  }
}

/** The app's network table for a build configuration. */
export function networksFor(config: BuildConfig): Record<number, NetworkConfig> {
  const networks = buildNetworks(config.deployments, config.api)
  networks[31337] = { ...networks[31337], rpcUrls: config.localRpcUrls, explorerUrl: config.localExplorerUrl }
  return networks
}

/**
 * Every origin the app itself connects to (fetch / JSON-RPC) in a build: each network's RPC endpoints and its two API
 * bases, sorted and without duplicates. Derived from networksFor, the one table of a build's hosts, so a
 * Content-Security-Policy connect-src made from it cannot miss a fallback RPC. Explorer links are navigation, not
 * connections, and are not listed.
 */
export function connectOrigins(config: BuildConfig): string[] {
  const origins = new Set<string>()
  for (const n of Object.values(networksFor(config)))
    for (const url of [...n.rpcUrls, n.vestingApiBase, n.parserApiBase]) {
      try {
        if (url) origins.add(new URL(url).origin)
      } catch {
        // not a URL (an unset base): nothing to connect to
      }
    }
  return [...origins].sort()
}
