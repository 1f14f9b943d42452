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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * How long to wait before retry `attempt` (0, 1, ...) of a request a node refused with 429: the Retry-After it gave (in
 * seconds, as HTTP says; ethers would read it as milliseconds and retry at once), else a doubling back-off from 250 ms
 * up to 8 s, with a random part so that the clients of one limit do not come back together.
 */
export function throttleDelayMs(attempt: number, retryAfter: string | undefined, random = Math.random): number {
  const backoff = Math.min(8_000, 250 * 2 ** attempt)
  const asked = retryAfter && /^\d+$/.test(retryAfter) ? Math.min(30_000, Number(retryAfter) * 1000) : 0
  return Math.max(asked, Math.round(backoff / 2 + random() * (backoff / 2)))
}

/**
 * At most `perSecond` JSON-RPC calls in any second (each call of a batch counts, as providers that count calls do): a
 * request waits until its calls fit. One budget per endpoint URL in this process, shared by its connections.
 */
export class CallBudget {
  private readonly sent: { at: number; calls: number }[] = []
  private queue: Promise<void> = Promise.resolve()

  /**
   * `windowMs` is a little over a second: requests reach the endpoint after a varying delay, and two sent just over a
   * second apart may arrive within one of its seconds.
   */
  constructor(
    readonly perSecond: number,
    readonly windowMs = 1_250,
  ) {}

  /** Resolves when `calls` more fit the last second (a request larger than the budget waits for an empty second). */
  take(calls: number): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const now = Date.now()
        while (this.sent.length > 0 && this.sent[0].at <= now - this.windowMs) this.sent.shift()
        const used = this.sent.reduce((sum, s) => sum + s.calls, 0)
        if (used === 0 || used + calls <= this.perSecond) {
          this.sent.push({ at: now, calls })
          return
        }
        await sleep(this.sent[0].at + this.windowMs + 1 - now)
      }
    })
    this.queue = turn
    return turn
  }
}

const budgets = new Map<string, CallBudget>()

/** The calls in a JSON-RPC request body (a batch counts each). */
function callsIn(body: Uint8Array | null): number {
  if (!body) return 1
  try {
    const parsed = JSON.parse(Buffer.from(body).toString()) as unknown
    return Array.isArray(parsed) ? parsed.length : 1
  } catch {
    return 1
  }
}

/**
 * A JSON-RPC provider to `url` for the service: every HTTP request gives up after `timeoutMs` (ethers' default is five
 * minutes), the chain id is taken as given (no eth_chainId probe), nothing is cached between calls, and a 429 is
 * retried after throttleDelayMs (ethers' own retry is then immediate). With `callsPerSecond`, requests keep within
 * that many calls a second (the endpoint's limit, API_RPC_CALLS_PER_SECOND), so a provider that counts every call of a
 * batch never has to refuse one.
 */
export function timedProvider(
  url: string,
  chainId: number,
  timeoutMs: number,
  options: JsonRpcApiProviderOptions = {},
  callsPerSecond = 0,
): JsonRpcProvider {
  const request = new FetchRequest(url)
  request.timeout = timeoutMs
  request.retryFunc = async (_req, response, attempt) => {
    await sleep(throttleDelayMs(attempt, response.headers['retry-after']))
    return true
  }
  if (callsPerSecond > 0) {
    const key = `${url} ${callsPerSecond}`
    const budget = budgets.get(key) ?? new CallBudget(callsPerSecond)
    budgets.set(key, budget)
    request.preflightFunc = async (req) => {
      await budget.take(callsIn(req.body))
      return req
    }
  }
  // A batch never holds more calls than the budget lets through in a second.
  const batchMaxCount = callsPerSecond > 0 ? Math.min(options.batchMaxCount ?? 100, callsPerSecond) : options.batchMaxCount
  return new JsonRpcProvider(request, chainId, {
    staticNetwork: true,
    cacheTimeout: -1,
    ...options,
    ...(batchMaxCount ? { batchMaxCount } : {}),
  })
}

/**
 * Whether a node refused a read because it does not have the block yet: a backend behind a load balancer that trails
 * the one that answered the head ("header not found" in geth, "unknown block" in others).
 */
export function isBlockUnknown(err: unknown): boolean {
  const e = err as { error?: { message?: string }; info?: { error?: { message?: string } }; message?: string }
  const text = `${e?.error?.message ?? ''} ${e?.info?.error?.message ?? ''} ${e?.message ?? ''}`
  return /header not found|unknown block|block not found|no such block|could not find block/i.test(text)
}

/** Reads a block another backend may not have yet: retried while it says so, up to `attempts` times. */
export async function whileBlockUnknown<T>(read: () => Promise<T>, attempts = 8, pauseMs = 150): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read()
    } catch (err) {
      if (attempt >= attempts || !isBlockUnknown(err)) throw err
      await sleep(pauseMs)
    }
  }
}

/**
 * The service's one connection to the node. Every read of contract state names the block by hash (EIP-1898, with
 * requireCanonical), so an answer is always the state of that exact block: after a reorg or a node restart the read
 * fails instead of quietly returning another branch's state. Requests time out, so a hung node is a 503, not a hang.
 */
export class ChainClient implements HeadSource {
  readonly provider: JsonRpcProvider

  constructor(rpcUrl: string, chainId: number, timeoutMs: number, callsPerSecond = 0) {
    this.provider = timedProvider(rpcUrl, chainId, timeoutMs, {}, callsPerSecond)
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

  /**
   * eth_call of `data` on `to` in exactly the block `head` (fails if that block is no longer canonical). A backend that
   * has not reached `head` yet is asked again, not believed: the head came from one that has.
   */
  callAt(head: Head, to: string, data: string): Promise<string> {
    return whileBlockUnknown(() =>
      this.provider.send('eth_call', [
        { to, data },
        { blockHash: head.hash, requireCanonical: true },
      ]),
    )
  }

  /** The code at `address` in exactly the block `head` ('0x' when there is none). */
  codeAt(head: Head, address: string): Promise<string> {
    return whileBlockUnknown(() => this.provider.send('eth_getCode', [address, { blockHash: head.hash, requireCanonical: true }]))
  }

  destroy() {
    this.provider.destroy()
  }
}
