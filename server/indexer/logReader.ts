import type { JsonRpcProvider } from 'ethers'
import type { RawLog } from './events'

/** Consecutive reads at a narrowed range before it is doubled again (a node's limit may have been a passing load). */
const GROW_AFTER = 8
/**
 * Logs one answer should hold at most: a busier range is read narrower from then on. Providers refuse more than
 * 10,000; a node that does not (Hardhat) answers a huge range ever slower, and the step holds it all in memory.
 */
const DENSE_LOGS = 5_000

/**
 * Whether a node refused an eth_getLogs for its size: providers say so in many words (Infura's -32005 "query returned
 * more than 10000 results", Alchemy's "block range", BSC's "exceed maximum block range: 5000", "response size",
 * "limit exceeded") or time out on it.
 */
export function isRangeRefusal(err: unknown): boolean {
  const e = err as { code?: unknown; error?: { code?: number; message?: string }; message?: string; shortMessage?: string }
  if (e?.error?.code === -32005) return true
  const text = `${e?.error?.message ?? ''} ${e?.shortMessage ?? ''} ${e?.message ?? ''}`
  return (
    /range|too (many|large|wide|big)|more than|limit|exceed|response size|timeout|timed out/i.test(text) || e?.code === 'TIMEOUT'
  )
}

/**
 * eth_getLogs in block ranges of at most `maxRange`, narrowed by halves while the node refuses a range as too large and
 * widened again after a run of successes. Other failures (the node is down) are thrown as they are.
 */
export class LogReader {
  range: number

  constructor(
    private readonly provider: JsonRpcProvider,
    readonly maxRange: number,
  ) {
    this.range = maxRange
  }

  private successes = 0

  /**
   * The logs of `addresses` with one of `topics` from `from` up to at most `to`, and the last block they cover;
   * `before` runs beside each eth_getLogs with the end it asks for. Made in the same tick, its reads go in the same
   * JSON-RPC batch as the logs, so to the same backend of a load balancer: a backend that has not reached the end (and
   * answers the logs only up to its own head) shows itself there.
   */
  async read(
    addresses: string[],
    topics: string[],
    from: number,
    to: number,
    before: (end: number) => Promise<void> = async () => {},
  ): Promise<{ to: number; logs: RawLog[] }> {
    for (;;) {
      const end = Math.min(to, from + this.range - 1)
      const pinned = before(end)
      try {
        const [logs] = await Promise.all([this.get(addresses, topics, from, end), pinned])
        if (logs.length > DENSE_LOGS && end > from) {
          this.range = Math.max(1, Math.floor((end - from + 1) / 2))
          this.successes = 0
        } else if (this.range < this.maxRange && logs.length < DENSE_LOGS / 4 && ++this.successes >= GROW_AFTER) {
          this.range = Math.min(this.maxRange, this.range * 2)
          this.successes = 0
        }
        return { to: end, logs }
      } catch (err) {
        if (!isRangeRefusal(err) || end === from) throw err
        this.range = Math.max(1, Math.floor((end - from + 1) / 2))
        this.successes = 0
      }
    }
  }

  /** One eth_getLogs over exactly [from, to]. */
  get(addresses: string[], topics: string[], from: number, to: number): Promise<RawLog[]> {
    return this.provider.send('eth_getLogs', [
      { address: addresses, topics: [topics], fromBlock: '0x' + from.toString(16), toBlock: '0x' + to.toString(16) },
    ])
  }
}
