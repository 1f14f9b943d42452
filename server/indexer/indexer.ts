import type { JsonRpcProvider } from 'ethers'
import type { FastifyBaseLogger } from 'fastify'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import type { IndexDatabase } from '../db/database'
import { INDEXED_TOPICS, rowsOf, type EventRow, type RawLog } from './events'
import { LogReader } from './logReader'
import { MAX_LAG_BLOCKS } from '../chain/blockCache'
import { IndexStore, type Tip } from './store'

interface RpcBlock {
  number: string
  hash: string
  timestamp: string
}
/** Stored hashes compared per round trip when looking for the block a reorg forked from. */
const FORK_SEARCH_BATCH = 32
/** The most lag between backends the index learns to stay behind (blocks). */
const MAX_LAG = MAX_LAG_BLOCKS
/**
 * Steps in a row whose backends do not know the tip before it is taken for a chain that lost it (a reorg to a shorter
 * branch); a node restarted with another genesis, or a head more than MAX_LAG below the tip, is seen at once.
 */
const TIP_UNKNOWN_STEPS = 6

export interface IndexerOptions {
  record: DeploymentRecord
  chainId: number
  logsRange: number
  /** Wait between reads once the index has caught up with the head, ms. */
  pollMs: number
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>
  /** Rows a transaction writes at most (default WRITE_PART_ROWS; tests make it small). */
  partRows?: number
  /**
   * Blocks the index stays behind the newest head seen (default 0), so that every backend of a load-balanced endpoint
   * has what it reads; it grows by itself to the lag it sees between backends (up to MAX_LAG).
   */
  confirmations?: number
  /** Called with each new tip this indexer writes (a range read or a rollback). */
  onTip?: (tip: Tip) => void
}

/** Rows written since the last ANALYZE that make the next one due: at least this many and a fifth of the table. */
const ANALYZE_AFTER_ROWS = 5_000

/** Rows one transaction writes at most (a block's rows are never split). */
const WRITE_PART_ROWS = 2_000

/**
 * `rows` (in chain order) cut at block boundaries into parts of about `size` rows, each with the pools and block
 * hashes up to its end; the last part ends at `to`.
 */
export function partsOf(
  rows: EventRow[],
  pools: { address: string; block: number }[],
  blocks: { number: number; hash: string; time: number }[],
  to: number,
  size: number,
) {
  const ends: number[] = []
  let count = 0
  for (let i = 0; i < rows.length; i++) {
    count++
    const b = Number(rows[i].block_number)
    const last = i === rows.length - 1 || Number(rows[i + 1].block_number) !== b
    if (last && count >= size) {
      ends.push(b)
      count = 0
    }
  }
  if (ends[ends.length - 1] !== to) ends.push(to)
  let lo = -Infinity
  return ends.map((end) => {
    const inPart = (n: number) => n > lo && n <= end
    const part = {
      end,
      rows: rows.filter((r) => inPart(Number(r.block_number))),
      pools: pools.filter((p) => inPart(p.block)),
      blocks: blocks.filter((b) => inPart(b.number)),
    }
    lo = end
    return part
  })
}

/** The chain changed under a read (a reorg between its requests): the range is read again. */
class ChangedUnderRead extends Error {}

/**
 * Reads the deployment's events into the database from its start block, range by range, and follows the head. Each
 * range is written in one transaction that moves the tip, so a restart resumes where the last one stopped and never
 * writes an event twice. Before each range it checks that its tip is still on the canonical chain; if not (a reorg, a
 * node restarted), it finds the newest block it read that still is, forgets everything above it and reads again.
 * Only the replica holding the database's writer lock runs it; the others wait for the lock.
 */
export class Indexer {
  readonly store: IndexStore
  private readonly reader: LogReader
  private stopped = false
  private running: Promise<void> | null = null
  private wake: (() => void) | null = null
  private pools: string[] = []
  private failing = false
  private writtenSinceAnalyze = 0
  private analyzedRows = 0
  writer = false
  /** The newest head any backend answered (for /health's lag): a lagging backend's older head does not lower it. */
  head = -1
  private headHash = ''
  /** The lag between backends seen so far (blocks), and steps in a row whose backends did not know the tip. */
  lag = 0
  private tipUnknown = 0
  private genesis = ''

  constructor(
    private readonly database: IndexDatabase,
    private readonly provider: JsonRpcProvider,
    private readonly opts: IndexerOptions,
  ) {
    this.store = new IndexStore(database.db)
    this.reader = new LogReader(provider, opts.logsRange)
  }

  start() {
    this.running ??= this.loop()
  }

  async stop() {
    this.stopped = true
    this.wake?.()
    await this.running
  }

  /** Reads until caught up with the head; for tests and the benchmark. */
  async catchUp(): Promise<Tip> {
    if (!(await this.ensureWriter())) throw new Error('another process writes this index')
    for (;;) {
      const more = await this.step()
      if (!more) return (await this.store.tip())!
    }
  }

  private async loop() {
    while (!this.stopped) {
      let more = false
      try {
        if (await this.ensureWriter()) more = await this.step()
        if (this.failing) this.opts.log.info('index: reading again')
        this.failing = false
      } catch (err) {
        if (!(err instanceof ChangedUnderRead) && !this.failing) {
          this.opts.log.warn({ err: (err as Error).message }, 'index: reading the chain failed; retrying')
          this.failing = true
        }
      }
      if (!more && !this.stopped) await this.sleep(this.opts.pollMs)
    }
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms)
      this.wake = () => {
        clearTimeout(t)
        resolve()
      }
    })
  }

  private opened = false
  private async ensureWriter(): Promise<boolean> {
    // Asked every time: a PostgreSQL session that held the lock may have ended (a failover, a killed connection), and
    // then another replica may hold it.
    const writer = await this.database.tryWriterLock()
    if (!writer) {
      if (this.writer) this.opts.log.warn('index: the writer lock is lost; another replica writes')
      this.writer = false
      return false
    }
    if (!this.writer) this.opened = false
    this.writer = true
    if (!this.opened) {
      const { record } = this.opts
      const genesis = await this.blockAt(0)
      this.genesis = genesis!.hash
      const before = record.startBlock - 1
      const start = before < 0 ? { number: -1, hash: '' } : { number: before, hash: (await this.blockAt(before))!.hash }
      await this.store.open(
        { chainId: this.opts.chainId, startBlock: record.startBlock, genesisHash: genesis!.hash },
        start,
        record.pools.map((p) => p.address),
      )
      this.pools = await this.store.pools()
      this.opened = true
    }
    return true
  }

  private blockAt(n: number): Promise<RpcBlock | null> {
    return this.provider.send('eth_getBlockByNumber', ['0x' + n.toString(16), false])
  }

  /** One range; true if there is more to read now. */
  async step(): Promise<boolean> {
    const tip = (await this.store.tip())!
    const [head, atTip] = await Promise.all([
      this.provider.send('eth_getBlockByNumber', ['latest', false]) as Promise<RpcBlock>,
      tip.number >= 0 ? this.blockAt(tip.number) : Promise.resolve(null),
    ])
    const answered = Number(head.number)
    if (answered > this.head) {
      this.head = answered
      this.headHash = head.hash
    } else if (this.head - answered > this.lag) {
      // A lower head than one seen: a backend's lag if that newer head is still on the chain (asked once per new
      // depth of lag, so lag the index knows costs nothing more); a chain without it is followed from this head.
      const newer = await this.blockAt(this.head)
      if (newer?.hash === this.headHash) this.learnLag(this.head - answered)
      else if (newer) [this.head, this.headHash] = [answered, head.hash]
    }
    if (tip.number >= 0 && atTip?.hash !== tip.hash) {
      if (!(await this.forked(tip, atTip, answered))) return false
      await this.rollback(tip)
      return true
    }
    this.tipUnknown = 0
    // Up to where every backend has the blocks: the newest head seen, less what the slowest trails it by (and never past
    // the head this backend answered, which may be another branch's).
    const headNumber = Math.min(answered, this.head - Math.max(this.opts.confirmations ?? 0, this.lag))
    if (tip.number >= headNumber) return false

    const from = tip.number + 1
    // The range's end is pinned by its hash in the same batch as its logs (so by the backend that answers them), and
    // checked again after: logs read from a branch that a reorg replaced meanwhile, or from a backend behind a load
    // balancer that had not reached the end (it answers logs only up to its own head), are never written.
    const pinned = new Map<number, string | undefined>()
    const pin = async (end: number) => void pinned.set(end, (await this.blockAt(end))?.hash)
    const read = await this.reader.read(this.addresses(), INDEXED_TOPICS, from, headNumber, pin)
    const to = read.to
    let logs = read.logs
    const { pools: found } = rowsOf(logs, new Map(), this.contracts())
    const fresh = found.filter((p) => !this.pools.includes(p.address))
    if (fresh.length > 0) {
      // A pool created in this range: its own events from the block it appeared in.
      const since = Math.min(...fresh.map((p) => p.block))
      const more = await this.readAll([...new Set(fresh.map((p) => p.address))], since, to)
      logs = [...logs, ...more].sort(
        (a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex),
      )
    }
    const eventBlocks = [...new Set(logs.map((l) => Number(l.blockNumber)))]
    const numbers = [...new Set([...eventBlocks, to])]
    const [tipNow, ...headers] = await Promise.all([
      tip.number >= 0 ? this.blockAt(tip.number) : Promise.resolve(null),
      ...numbers.map((n) => this.blockAt(n)),
    ])
    const byNumber = new Map(numbers.map((n, i) => [n, headers[i]]))
    // Every log must come from the blocks now canonical; the range's end must be the block pinned before the read,
    // and the tip still canonical, so the whole range hangs from the tip on one branch.
    for (const l of logs) if (byNumber.get(Number(l.blockNumber))?.hash !== l.blockHash) throw new ChangedUnderRead()
    const end = byNumber.get(to)
    if (!end || !pinned.get(to) || end.hash !== pinned.get(to)) throw new ChangedUnderRead()
    if (tip.number >= 0 && tipNow?.hash !== tip.hash) throw new ChangedUnderRead()
    const times = new Map(numbers.map((n) => [n, Number(byNumber.get(n)!.timestamp)]))
    const { rows, pools } = rowsOf(logs, times, this.contracts())
    const blocks = numbers.map((n) => ({ number: n, hash: byNumber.get(n)!.hash, time: times.get(n)! }))
    // A range full of events is written in parts that each end at a block boundary and move the tip there, so no
    // transaction holds the database (PGlite: the service's thread) for long; requests are answered between them.
    let at = tip
    for (const part of partsOf(rows, pools, blocks, to, this.opts.partRows ?? WRITE_PART_ROWS)) {
      const next = { number: part.end, hash: byNumber.get(part.end)!.hash }
      if (!(await this.store.write(at, next, part.rows, part.pools, part.blocks))) throw new ChangedUnderRead()
      this.opts.onTip?.(next)
      for (const p of part.pools) if (!this.pools.includes(p.address)) this.pools.push(p.address)
      at = next
      this.writtenSinceAnalyze += part.rows.length
      if (part.end !== to) await new Promise((r) => setImmediate(r))
    }
    if (this.writtenSinceAnalyze >= Math.max(ANALYZE_AFTER_ROWS, this.analyzedRows / 5)) {
      await this.store.analyze()
      this.analyzedRows += this.writtenSinceAnalyze
      this.writtenSinceAnalyze = 0
    }
    return to < headNumber
  }

  private async readAll(addresses: string[], from: number, to: number): Promise<RawLog[]> {
    const out: RawLog[] = []
    for (let at = from; at <= to;) {
      const r = await this.reader.read(addresses, INDEXED_TOPICS, at, to)
      out.push(...r.logs)
      at = r.to + 1
    }
    return out
  }

  private addresses() {
    const c = this.opts.record.contracts
    return [c.harvest, c.factory, ...this.pools]
  }

  private contracts() {
    const c = this.opts.record.contracts
    return { harvest: c.harvest, token: c.token, factory: c.factory, pools: this.pools }
  }

  private learnLag(blocks: number) {
    this.lag = Math.min(MAX_LAG, Math.max(this.lag, blocks))
  }

  /**
   * Whether the tip really left the chain, given what one backend answered at its height (`seen`). Behind a load
   * balancer a backend that trails the others does not know the tip yet (null) and another may answer a moment later:
   * a fork is believed only when a second read names another block there, or the node's genesis changed (a restart);
   * a tip no backend knows for TIP_UNKNOWN_STEPS steps in a row is taken as lost to a shorter branch.
   */
  private async forked(tip: Tip, seen: RpcBlock | null, answered: number): Promise<boolean> {
    if (!seen && answered < tip.number - MAX_LAG) return true
    const [again, genesis] = await Promise.all([this.blockAt(tip.number), seen ? null : this.blockAt(0)])
    if (genesis && genesis.hash !== this.genesis) return true
    if (again?.hash === tip.hash) {
      if (!seen) this.learnLag(this.head - tip.number + 1)
      this.tipUnknown = 0
      return false
    }
    if (again) return true
    if (!seen) return ++this.tipUnknown >= TIP_UNKNOWN_STEPS
    return false
  }

  /** Finds the newest stored block still canonical and forgets everything above it (the whole index if none is). */
  private async rollback(tip: Tip) {
    this.tipUnknown = 0
    // The chain that replaced it may be shorter: heads are learned again.
    this.head = -1
    let below = tip.number
    for (;;) {
      const candidates = await this.store.checkpoints(below, FORK_SEARCH_BATCH)
      if (candidates.length === 0) break
      const canonical = await Promise.all(candidates.map((c) => this.blockAt(c.number)))
      const i = candidates.findIndex((c, k) => canonical[k]?.hash === c.hash)
      if (i >= 0) {
        this.opts.log.warn({ from: tip.number, to: candidates[i].number }, 'index: reorg; events above the fork dropped')
        await this.store.rollbackTo(candidates[i])
        this.opts.onTip?.(candidates[i])
        this.pools = await this.store.pools()
        return
      }
      below = candidates[candidates.length - 1].number - 1
    }
    this.opts.log.warn({ from: tip.number }, 'index: no block read is canonical any more; reading from the start')
    this.opened = false
    await this.database.db.deleteFrom('index_state').execute()
    await this.ensureWriter()
    const start = await this.store.tip()
    if (start) this.opts.onTip?.(start)
  }
}
