import { FetchRequest, JsonRpcProvider, type JsonRpcPayload, type JsonRpcResult } from 'ethers'

/**
 * How long a request the endpoint refused with 429 waits before it is sent again (attempt 0, 1, ...): the seconds its
 * Retry-After asks (ethers would read them as milliseconds and send again at once), else 250 ms doubling up to 8 s.
 */
export function throttleWaitMs(attempt: number, retryAfter: string | undefined, random: number): number {
  const asked = retryAfter && /^\d+$/.test(retryAfter) ? Math.min(30_000, Number(retryAfter) * 1000) : 0
  const backoff = Math.min(8_000, 250 * 2 ** Math.min(attempt, 5))
  return Math.max(asked, Math.round(Math.min(8_000, backoff * (0.8 + 0.4 * random))))
}

/**
 * A batching JSON-RPC provider over a list of endpoints, for reads. Each batch (every call made in the same tick) is
 * one HTTP request to the endpoint that answered last; only when that request fails at the transport level (refused,
 * timed out, an HTTP error) is the same batch sent to the next endpoint. So the normal case costs exactly what a
 * single JsonRpcProvider costs, and a dead or hanging endpoint costs one timeout, once, before the next one takes over.
 *
 * Why not ethers' FallbackProvider: before its first call it asks every endpoint for its block number and network and
 * waits for all of them (one hanging endpoint stalls every read until its timeout), and with its default stall
 * timeout it sends a slow call to a second endpoint as well, which multiplies round trips in the normal case.
 * JSON-RPC errors (a revert, a bad request) are answers, not outages: they come back as they are, without failover.
 */
export class FailoverRpcProvider extends JsonRpcProvider {
  readonly urls: readonly string[]
  /** Per HTTP request: a hanging endpoint fails after this instead of ethers' default five minutes. */
  private readonly timeoutMs: number
  /** The endpoint that answered last: batches go there first. */
  private current = 0

  constructor(urls: readonly string[], chainId: number, timeoutMs: number) {
    if (urls.length === 0) throw new Error(`No RPC URL is configured for chain ${chainId}.`)
    const first = new FetchRequest(urls[0])
    first.timeout = timeoutMs
    // staticNetwork: no eth_chainId before every call; calls made in the same tick share one HTTP request.
    super(first, chainId, { staticNetwork: true, batchStallTime: 5, cacheTimeout: -1 })
    this.urls = [...urls]
    this.timeoutMs = timeoutMs
  }

  /** Index of the endpoint batches go to first (for tests and the benchmark). */
  get currentIndex(): number {
    return this.current
  }

  async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    let lastError: unknown = null
    for (let attempt = 0; attempt < this.urls.length; attempt++) {
      const index = (this.current + attempt) % this.urls.length
      const request = new FetchRequest(this.urls[index])
      request.timeout = this.timeoutMs
      // A public endpoint's rate limit: wait and ask the same endpoint again, as ethers does, but for as long as it asks.
      request.retryFunc = async (_req, response, attempt) => {
        await new Promise((r) => setTimeout(r, throttleWaitMs(attempt, response.headers['retry-after'], Math.random())))
        return true
      }
      request.body = JSON.stringify(payload)
      request.setHeader('content-type', 'application/json')
      try {
        const response = await request.send()
        response.assertOk()
        const body = response.bodyJson as JsonRpcResult | JsonRpcResult[]
        this.current = index
        return Array.isArray(body) ? body : [body]
      } catch (err) {
        lastError = err
      }
    }
    throw lastError
  }
}
