import { JsonRpcProvider } from 'ethers'
import type { ProxyNetwork } from './rpcProxy'

/**
 * The networks the browser suite can run under (issue 41): what each client's proxy does (the app's reads, the
 * scripted wallet, the API with its index) and how often the chain makes a block (0: one per transaction, Hardhat's
 * automine).
 */
export interface NetworkProfile {
  blockMs: number
  app: ProxyNetwork
  wallet: ProxyNetwork
  api: ProxyNetwork
}

/** A public load-balanced endpoint: 150 ± 50 ms, a 5,000-block getLogs cap, half the requests 2 blocks behind, 10 calls/s a call. */
const PUBLIC: ProxyNetwork = {
  latencyMs: 150,
  jitterMs: 50,
  logsBlockCap: 5_000,
  lag: { blocks: 2, share: 0.5 },
  rateLimit: { perSecond: 10, count: 'calls' },
}

export const PROFILES = {
  plain: { blockMs: 0, app: {}, wallet: {}, api: {} },
  /** BNB Chain's public RPCs: 3 s blocks, every client behind such an endpoint. */
  publicBsc: { blockMs: 3_000, app: { ...PUBLIC, seed: 1 }, wallet: { ...PUBLIC, seed: 2 }, api: { ...PUBLIC, seed: 3 } },
  /** The app's and the wallet's node always 2 blocks behind the API's. */
  walletBehind: {
    blockMs: 3_000,
    app: { lag: { blocks: 2, share: 1 } },
    wallet: { lag: { blocks: 2, share: 1 } },
    api: {},
  },
} satisfies Record<string, NetworkProfile>

export type ProfileName = keyof typeof PROFILES

/** The proxies of a stack, by their control URLs, and its node. */
export interface ProfiledStack {
  chainUrl: string
  appRpcUrl: string
  walletRpcUrl: string
  apiRpcUrl: string
}

async function setNetwork(proxyUrl: string, network: ProxyNetwork) {
  const r = await fetch(`${proxyUrl}/__proxy/network`, { method: 'POST', body: JSON.stringify(network) })
  if (r.status !== 204) throw new Error(`the proxy at ${proxyUrl} refused the network (${r.status})`)
}

/** Puts `stack` under profile `name`: its proxies' networks and the node's block interval. */
export async function applyProfile(stack: ProfiledStack, name: ProfileName) {
  const profile: NetworkProfile = PROFILES[name]
  await setNetwork(stack.appRpcUrl, profile.app)
  await setNetwork(stack.walletRpcUrl, profile.wallet)
  await setNetwork(stack.apiRpcUrl, profile.api)
  const node = new JsonRpcProvider(stack.chainUrl, undefined, { staticNetwork: true })
  try {
    if (profile.blockMs > 0) {
      await node.send('evm_setAutomine', [false])
      await node.send('evm_setIntervalMining', [profile.blockMs])
    } else {
      await node.send('evm_setIntervalMining', [0])
      await node.send('evm_setAutomine', [true])
    }
  } finally {
    node.destroy()
  }
}
