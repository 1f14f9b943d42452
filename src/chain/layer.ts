import { timers } from '../config/timers'
import type { BrowserEnv } from '../platform/browserEnv'
import { networksFor, type BuildConfig } from '../config/buildConfig'
import type { NetworkConfig } from '../config/networks'
import type { FailoverRpcProvider } from './rpc'
import { Wallets, type SafeAppFinder } from './wallets'

/**
 * Everything sagas use to reach chains and wallets; it sits in the saga context (never in the store), so tests can
 * build one against their own node.
 */
export interface ChainLayer {
  config: BuildConfig
  networks: Record<number, NetworkConfig>
  /**
   * A batching JSON-RPC provider for reads on `chainId` (one per chain, shared): it times out after RPC_TIMEOUT_MS
   * and moves on to the network's next RPC URL when one fails. Available once `loadReads` has resolved.
   */
  readProvider(chainId: number): FailoverRpcProvider
  /**
   * Loads the read provider's code (ethers' JSON-RPC provider, in the lazy "chain" chunk with the sagas that read):
   * the root saga waits for it before it starts them (src/app/rootSaga.ts), so the first view goes without it.
   */
  loadReads(): Promise<void>
  /**
   * The newest block this app has seen on `chainId` hold something it did (a receipt): reads and simulations from a
   * backend behind it (a load balancer's lagging node) are not believed (docs/architecture.md §7, "Never back").
   */
  blockFloor(chainId: number): number
  sawBlock(chainId: number, block: number): void
  wallets: Wallets
}

/** `findSafeApp`: a stand-in for Safe{Wallet} (tests); the app asks its parent window through the Safe Apps SDK. */
export function createChainLayer(config: BuildConfig, env: BrowserEnv, opts: { findSafeApp?: SafeAppFinder } = {}): ChainLayer {
  const networks = networksFor(config)
  const providers = new Map<number, FailoverRpcProvider>()
  const floors = new Map<number, number>()
  let Provider: typeof FailoverRpcProvider | null = null
  return {
    config,
    networks,
    readProvider(chainId) {
      if (!Provider) throw new Error('The read provider is not loaded yet (ChainLayer.loadReads).')
      let p = providers.get(chainId)
      if (!p) {
        const network = networks[chainId]
        if (!network) throw new Error(`Chain ${chainId} is not configured.`)
        p = new Provider(network.rpcUrls, chainId, timers.RPC_TIMEOUT_MS)
        providers.set(chainId, p)
      }
      return p
    },
    blockFloor(chainId) {
      return floors.get(chainId) ?? 0
    },
    sawBlock(chainId, block) {
      if (block > (floors.get(chainId) ?? 0)) floors.set(chainId, block)
    },
    async loadReads() {
      Provider ??= (await import(/* webpackChunkName: "chain" */ './rpc')).FailoverRpcProvider
    },
    wallets: new Wallets(env, networks, {
      walletConnectProjectId: config.walletConnectProjectId,
      localRpcUrl: config.localRpcUrls[0],
      defaultChainId: config.defaultChainId,
      safeAppOrigins: config.safeAppOrigins,
      findSafeApp: opts.findSafeApp,
    }),
  }
}
