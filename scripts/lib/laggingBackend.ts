/**
 * How a node behind a public load balancer answers when it trails the chain head by a few blocks: its `latest` is
 * older, it does not know newer blocks, receipts or logs, and a read pinned to a block it has not reached answers
 * "header not found" (geth's words; Erigon and Nethermind say much the same). The RPC proxy (rpcProxy.ts) sends a share
 * of its HTTP requests, a whole batch at a time, to such a backend by rewriting the calls against the one real node.
 */

export interface RpcCall {
  jsonrpc?: string
  id?: unknown
  method: string
  params?: unknown[]
}

export interface RpcAnswer {
  jsonrpc: '2.0'
  id?: unknown
  result?: unknown
  error?: { code: number; message: string }
}

/** Forwards calls to the real node: one JSON-RPC call in, its answer out. */
export type Forward = (call: RpcCall) => Promise<RpcAnswer>

/** The position of the block parameter of the methods that take one. */
const BLOCK_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_getTransactionCount: 1,
  eth_estimateGas: 1,
}

const TAGS = new Set(['latest', 'pending', 'safe', 'finalized'])

const hex = (n: number) => '0x' + n.toString(16)
const headerNotFound = (call: RpcCall): RpcAnswer => ({
  jsonrpc: '2.0',
  id: call.id,
  error: { code: -32000, message: 'header not found' },
})

/**
 * Answers `call` as a node whose head is block `head` would, from the real node through `forward`. Blocks after
 * `head` do not exist for it: their headers, receipts and transactions' positions are null, their logs absent, and a
 * read at one of them (by number or hash) is refused with "header not found"; `latest` means `head`.
 */
export async function answerBehind(call: RpcCall, head: number, forward: Forward): Promise<RpcAnswer> {
  const params = [...(call.params ?? [])]
  const empty = (result: unknown): RpcAnswer => ({ jsonrpc: '2.0', id: call.id, result })
  /** The number of the block `ref` names (a tag, a number or an EIP-1898 object), or null for a hash it must look up. */
  const numberOf = async (ref: unknown): Promise<number | null> => {
    if (ref === undefined || (typeof ref === 'string' && TAGS.has(ref))) return head
    if (typeof ref === 'string' && ref !== 'earliest') return Number(ref)
    if (ref === 'earliest') return 0
    const o = ref as { blockNumber?: string; blockHash?: string }
    if (o.blockNumber !== undefined) return Number(o.blockNumber)
    if (o.blockHash) {
      const b = await forward({ jsonrpc: '2.0', id: 0, method: 'eth_getBlockByHash', params: [o.blockHash, false] })
      const n = (b.result as { number?: string } | null)?.number
      return n === undefined ? null : Number(n)
    }
    return head
  }
  switch (call.method) {
    case 'eth_blockNumber':
      return empty(hex(head))
    case 'eth_getBlockByNumber': {
      const n = await numberOf(params[0])
      if (n === null || n > head) return empty(null)
      return forward({ ...call, params: [hex(n), ...params.slice(1)] })
    }
    case 'eth_getBlockByHash': {
      const answer = await forward(call)
      const n = (answer.result as { number?: string } | null)?.number
      return n !== undefined && Number(n) > head ? empty(null) : answer
    }
    case 'eth_getTransactionReceipt': {
      const answer = await forward(call)
      const n = (answer.result as { blockNumber?: string } | null)?.blockNumber
      return n !== undefined && Number(n) > head ? empty(null) : answer
    }
    case 'eth_getTransactionByHash': {
      const answer = await forward(call)
      const tx = answer.result as { blockNumber?: string | null } | null
      if (tx?.blockNumber && Number(tx.blockNumber) > head) {
        return empty({ ...tx, blockNumber: null, blockHash: null, transactionIndex: null })
      }
      return answer
    }
    case 'eth_getLogs': {
      const filter = { ...(params[0] as { fromBlock?: string; toBlock?: string; blockHash?: string }) }
      if (filter.blockHash) {
        const n = await numberOf({ blockHash: filter.blockHash })
        return n === null || n > head ? headerNotFound(call) : forward(call)
      }
      const from = await numberOf(filter.fromBlock ?? 'latest')
      const to = await numberOf(filter.toBlock ?? 'latest')
      if (from! > head) return empty([])
      return forward({ ...call, params: [{ ...filter, fromBlock: hex(from!), toBlock: hex(Math.min(to!, head)) }] })
    }
    default: {
      const at = BLOCK_PARAM[call.method]
      if (at === undefined) return forward(call)
      const ref = params[at]
      const n = await numberOf(ref)
      if (n === null || n > head) return headerNotFound(call)
      // A tag means this node's head; a number or a hash it has is read as asked.
      if (ref === undefined || (typeof ref === 'string' && TAGS.has(ref))) params[at] = hex(n)
      return forward({ ...call, params })
    }
  }
}
