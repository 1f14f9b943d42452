import { FetchRequest, JsonRpcProvider, type JsonRpcApiProviderOptions } from 'ethers'
import type { Head, HeadSource } from './blockCache'

interface RpcBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
}

const toHead = (b: RpcBlock): Head => ({
  number: Number(b.number),
  hash: b.hash,
  parentHash: b.parentHash,
  timestamp: Number(b.timestamp),
})

/**
 * A JSON-RPC provider to `url` for the service: every HTTP request gives up after `timeoutMs` (ethers' default is five
 * minutes), the chain id is taken as given (no eth_chainId probe) and nothing is cached between calls.
 */
export function timedProvider(
  url: string,
  chainId: number,
  timeoutMs: number,
  options: JsonRpcApiProviderOptions = {},
): JsonRpcProvider {
  const request = new FetchRequest(url)
  request.timeout = timeoutMs
  return new JsonRpcProvider(request, chainId, { staticNetwork: true, cacheTimeout: -1, ...options })
}

/**
 * The service's one connection to the node. Every read of contract state names the block by hash (EIP-1898, with
 * requireCanonical), so an answer is always the state of that exact block: after a reorg or a node restart the read
 * fails instead of quietly returning another branch's state. Requests time out, so a hung node is a 503, not a hang.
 */
export class ChainClient implements HeadSource {
  readonly provider: JsonRpcProvider

  constructor(rpcUrl: string, chainId: number, timeoutMs: number) {
    this.provider = timedProvider(rpcUrl, chainId, timeoutMs)
  }

  async latest(): Promise<Head> {
    return toHead(await this.provider.send('eth_getBlockByNumber', ['latest', false]))
  }

  async genesisHash(): Promise<string> {
    return (await this.blockHashAt(0)) ?? ''
  }

  async blockHashAt(number: number): Promise<string | null> {
    const b: RpcBlock | null = await this.provider.send('eth_getBlockByNumber', ['0x' + number.toString(16), false])
    return b?.hash ?? null
  }

  /** eth_call of `data` on `to` in exactly the block `head` (fails if that block is no longer canonical). */
  callAt(head: Head, to: string, data: string): Promise<string> {
    return this.provider.send('eth_call', [
      { to, data },
      { blockHash: head.hash, requireCanonical: true },
    ])
  }

  /** The code at `address` in exactly the block `head` ('0x' when there is none). */
  codeAt(head: Head, address: string): Promise<string> {
    return this.provider.send('eth_getCode', [address, { blockHash: head.hash, requireCanonical: true }])
  }

  destroy() {
    this.provider.destroy()
  }
}
