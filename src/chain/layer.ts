import { JsonRpcProvider } from 'ethers'
import type { BrowserEnv } from './browserEnv'
import { networksFor, type BuildConfig } from './buildConfig'
import type { NetworkConfig } from './networks'
import { Wallets } from './wallets'

/**
 * Everything sagas use to reach chains and wallets; it sits in the saga context (never in the store), so tests can
 * build one against their own node.
 */
export interface ChainLayer {
  config: BuildConfig
  networks: Record<number, NetworkConfig>
  /** A batching JSON-RPC provider for reads on `chainId` (one per chain, shared). */
  readProvider(chainId: number): JsonRpcProvider
  wallets: Wallets
}

export function createChainLayer(config: BuildConfig, env: BrowserEnv): ChainLayer {
  const networks = networksFor(config)
  const providers = new Map<number, JsonRpcProvider>()
  return {
    config,
    networks,
    readProvider(chainId) {
      let p = providers.get(chainId)
      if (!p) {
        const network = networks[chainId]
        if (!network) throw new Error(`Chain ${chainId} is not configured.`)
        // staticNetwork: no eth_chainId before every call; calls made in the same tick share one HTTP request.
        p = new JsonRpcProvider(network.rpcUrl, chainId, { staticNetwork: true, batchStallTime: 5, cacheTimeout: -1 })
        providers.set(chainId, p)
      }
      return p
    },
    wallets: new Wallets(env, networks, {
      walletConnectProjectId: config.walletConnectProjectId,
      localRpcUrl: config.localRpcUrl,
      defaultChainId: config.defaultChainId,
    }),
  }
}
