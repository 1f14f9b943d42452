import { LRUCache } from 'lru-cache'

/** The chain's latest block as the service knows it. */
export interface Head {
  number: number
  hash: string
  parentHash: string
  /** Unix seconds. */
  timestamp: number
}

export interface HeadSource {
  latest(): Promise<Head>
  genesisHash(): Promise<string>
  /** Hash of the canonical block at `number`, or null if there is none. */
  blockHashAt(number: number): Promise<string | null>
}

/** Lower heads than the current one by at most this many blocks may be a lagging backend's; lower still is a fork. */
export const MAX_LAG_BLOCKS = 8
/** Refreshes in a row that may find the current head unknown before it counts as gone. */
const LAG_REFRESHES = 6

/** Thrown by a read that noticed its block stopped being canonical while it ran (see `BlockCache.epoch`). */
export class HeadMoved extends Error {
  constructor() {
    super('the chain moved to another branch during the read')
  }
}

/** A head that does not extend the previous one: another branch (reorg) or another chain (node restarted). */
export interface ChainEvent {
  kind: 'reorg' | 'restart'
  from: Head
  to: Head
}

/**
 * Shares chain reads between requests without ever mixing branches. The latest block is fetched at most once per
 * `ttlMs` (concurrent callers share the fetch in flight), and every read is cached under the hash of the block it
 * was made at, never its number, so an answer made on one branch cannot be served on another.
 *
 * When the head moves, the cache keeps only what still belongs to the chain: a new head whose parent is the previous
 * head keeps the previous block's entries (requests still in flight use them); any other new head drops everything,
 * and if the previous head is no longer canonical (a reorg) or the genesis changed (a node restart) `epoch` is bumped,
 * so answers computed across it are recomputed. Each block's entries are bounded (least recently used go first), so a
 * flood of distinct keys in one block cannot grow memory.
 */
export class BlockCache {
  private current: Head | null = null
  private fetchedAt = 0
  private inflight: Promise<Head> | null = null
  private genesis: string | null = null
  private readonly blocks = new Map<string, LRUCache<string, Promise<unknown>>>()
  /** Bumped when what was read may belong to a branch or chain that is gone. */
  epoch = 0
  /** Refreshes in a row whose backends did not know the current head (see observe). */
  private unknownStreak = 0

  constructor(
    private readonly source: HeadSource,
    private readonly ttlMs: number,
    private readonly maxEntriesPerBlock: number,
    private readonly onEvent: (e: ChainEvent) => void = () => {},
  ) {}

  /** The latest block, at most `ttlMs` old. */
  head(): Promise<Head> {
    if (this.current && Date.now() - this.fetchedAt < this.ttlMs) return Promise.resolve(this.current)
    return this.refresh()
  }

  /** Fetches the latest block now (sharing a fetch already in flight) and updates the cache to it. */
  refresh(): Promise<Head> {
    if (!this.inflight) {
      this.inflight = this.source
        .latest()
        .then(async (next) => {
          await this.observe(next)
          this.fetchedAt = Date.now()
          return this.current!
        })
        .finally(() => (this.inflight = null))
    }
    return this.inflight
  }

  /** `read()` once per (block hash, key); a failed read is forgotten so the next request retries it. */
  at<T>(head: Head, key: string, read: () => Promise<T>): Promise<T> {
    const entries = this.blocks.get(head.hash)
    // A block the cache has moved past: answer, but keep nothing for it.
    if (!entries) return read()
    const hit = entries.get(key)
    if (hit) return hit as Promise<T>
    const value = read()
    entries.set(key, value)
    value.catch(() => {
      if (entries.get(key) === value) entries.delete(key)
    })
    return value
  }

  /**
   * `read(head)` at the latest block, shared per (block hash, key). If it fails because its block was dropped (the
   * read at that hash failed and the head is now another block, or it threw HeadMoved), it is made again, once, at
   * the new head: a reorg or restart costs a re-read, not an error or an answer from the dead branch.
   */
  async atHead<T>(key: string, read: (head: Head) => Promise<T>): Promise<{ head: Head; value: T }> {
    let head = await this.head()
    for (let attempt = 0; ; attempt++) {
      try {
        const at = head
        return { head, value: await this.at(head, key, () => read(at)) }
      } catch (err) {
        if (attempt > 0) throw err
        const latest = await this.refresh()
        if (!(err instanceof HeadMoved) && latest.hash === head.hash) throw err
        head = latest
      }
    }
  }

  /** Entries cached across all kept blocks (for tests and health). */
  get size(): number {
    let n = 0
    for (const entries of this.blocks.values()) n += entries.size
    return n
  }

  /**
   * Moves to `next` unless it is older than the current head on the same chain. Behind a load balancer `latest` comes
   * from backends that trail each other by a block or two: a head at or below the current one whose block the chain
   * still holds (or a backend does not know yet) is lag, and the cache keeps the newer head, so no answer goes back in
   * time. A fork is believed only when a second read names another block at the current height (a reorg) or another
   * genesis (a node restarted); lag costs one read, no dropped answers.
   */
  private async observe(next: Head) {
    const prev = this.current
    if (prev?.hash === next.hash) return
    if (!prev) {
      this.genesis = await this.source.genesisHash()
    } else if (next.parentHash === prev.hash) {
      for (const hash of this.blocks.keys()) if (hash !== prev.hash) this.blocks.delete(hash)
    } else {
      const atPrev = await this.source.blockHashAt(prev.number)
      const lagging = next.number <= prev.number
      // A backend that does not know the current head either may lag too, or serve a chain restarted lower.
      const genesis = atPrev === prev.hash ? this.genesis : await this.source.genesisHash()
      // Not known where asked, a little above a lower head: lag, unless it stays so for LAG_REFRESHES refreshes (a
      // reorg to a shorter branch; backends that trail by a block or two rarely answer so many times in a row).
      const unknownByLag =
        atPrev === null && lagging && prev.number - next.number <= MAX_LAG_BLOCKS && ++this.unknownStreak < LAG_REFRESHES
      if (genesis === this.genesis && (atPrev === prev.hash || unknownByLag)) {
        if (atPrev === prev.hash) this.unknownStreak = 0
        // The current head is still on the chain: a lagging backend's head is ignored; a newer one skipped blocks.
        if (lagging) return
        for (const hash of this.blocks.keys()) if (hash !== prev.hash) this.blocks.delete(hash)
      } else {
        this.unknownStreak = 0
        this.blocks.clear()
        this.epoch++
        if (genesis !== this.genesis) {
          this.genesis = genesis
          this.onEvent({ kind: 'restart', from: prev, to: next })
        } else {
          this.onEvent({ kind: 'reorg', from: prev, to: next })
        }
      }
    }
    this.current = next
    if (!this.blocks.has(next.hash)) this.blocks.set(next.hash, new LRUCache({ max: this.maxEntriesPerBlock }))
  }
}
