import type { DeploymentRecord } from './deploymentRecord'
import { buildNetworks, type ApiHosts, type NetworkConfig } from './networks'

/**
 * What the build knows about the world: deployment records and API hosts, injected by webpack's DefinePlugin
 * (webpack.config.ts) and read from the environment under Jest. Kept to plain values so tests can build their own.
 */
export interface BuildConfig {
  deployments: Record<number, DeploymentRecord>
  api: ApiHosts
  /** RPC of the local chain (the e2e harness runs it on a free port). */
  localRpcUrl: string
  /** The local chain's explorer: the API's pages unless LOCAL_EXPLORER_URL names another. */
  localExplorerUrl: string
  /** Chain whose data pages show before a wallet says otherwise. */
  defaultChainId: number
  walletConnectProjectId: string
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
    localRpcUrl: process.env.LOCAL_RPC_URL || 'http://127.0.0.1:8545',
    localExplorerUrl: process.env.LOCAL_EXPLORER_URL || `${localApi}/explorer`,
    defaultChainId: Number(process.env.DEFAULT_CHAIN_ID) || fallbackChain,
    walletConnectProjectId: process.env.WALLETCONNECT_PROJECT_ID ?? '',
  }
}

/** The app's network table for a build configuration. */
export function networksFor(config: BuildConfig): Record<number, NetworkConfig> {
  const networks = buildNetworks(config.deployments, config.api)
  networks[31337] = { ...networks[31337], rpcUrl: config.localRpcUrl, explorerUrl: config.localExplorerUrl }
  return networks
}
