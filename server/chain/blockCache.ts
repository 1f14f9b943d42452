/**
 * Shares chain reads between requests. The latest block number is fetched at most once per `ttlMs` and concurrent
 * callers share the fetch in flight; anything read at a given block is immutable, so it is cached by block.
 */
export class BlockCache {
  private latest: { value: number; at: number } | null = null
  private inflight: Promise<number> | null = null
  private readonly byBlock = new Map<number, Map<string, Promise<unknown>>>()

  constructor(
    private readonly fetchBlockNumber: () => Promise<number>,
    private readonly ttlMs: number,
    private readonly keepBlocks = 8,
  ) {}

  /** The latest block number, at most `ttlMs` old. */
  async blockNumber(): Promise<number> {
    if (this.latest && Date.now() - this.latest.at < this.ttlMs) return this.latest.value
    if (!this.inflight) {
      this.inflight = this.fetchBlockNumber()
        .then((value) => {
          this.latest = { value, at: Date.now() }
          return value
        })
        .finally(() => (this.inflight = null))
    }
    return this.inflight
  }

  /** `read()` once per (block, key); a failed read is forgotten so the next request retries it. */
  at<T>(block: number, key: string, read: () => Promise<T>): Promise<T> {
    let entries = this.byBlock.get(block)
    if (!entries) {
      entries = new Map()
      this.byBlock.set(block, entries)
      for (const b of this.byBlock.keys()) if (b < block - this.keepBlocks) this.byBlock.delete(b)
    }
    let p = entries.get(key) as Promise<T> | undefined
    if (!p) {
      p = read()
      entries.set(key, p)
      p.catch(() => entries!.delete(key))
    }
    return p
  }
}
