import type { JsonRpcProvider } from 'ethers'
import type { FastifyBaseLogger } from 'fastify'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { timedProvider } from '../chain/client'
import { ServiceUnavailableError } from '../chain/errors'
import { openDatabase, type IndexDatabase } from '../db/database'
import { Indexer } from './indexer'

export interface IndexConfig {
  enabled: boolean
  databaseUrl?: string
  dataDir: string
  logsRange: number
  pollMs: number
  rpcUrl: string
  rpcTimeoutMs: number
  chainId: number
  partRows?: number
  confirmations?: number
  rpcCallsPerSecond?: number
}

/** How long a read of the index's tip is shared between requests, ms. */
const TIP_TTL_MS = 200

/**
 * The index as the routes see it: the database opens in the background (the service answers its other routes at
 * once), then the indexer runs in this process while it holds the writer's lock. Reads go to the database whichever
 * replica writes.
 */
export class IndexService {
  private database: IndexDatabase | null = null
  private failure: Error | null = null
  private indexer: Indexer | null = null
  private provider: JsonRpcProvider | null = null
  private readonly opening: Promise<void> | null

  constructor(
    private readonly config: IndexConfig,
    record: DeploymentRecord,
    log: FastifyBaseLogger,
  ) {
    if (!config.enabled) {
      this.opening = null
      return
    }
    this.opening = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).then(
      (database) => {
        this.database = database
        // Its own connection to the node, so the index's long reads never queue behind the requests' calls.
        const provider = (this.provider = timedProvider(
          config.rpcUrl,
          config.chainId,
          Math.max(config.rpcTimeoutMs, 30_000),
          { batchMaxCount: 50 },
          config.rpcCallsPerSecond,
        ))
        this.indexer = new Indexer(database, provider, {
          record,
          chainId: config.chainId,
          logsRange: config.logsRange,
          pollMs: config.pollMs,
          partRows: config.partRows,
          confirmations: config.confirmations,
          log,
          // The writer's answers follow its own writes at once; other replicas read the tip every TIP_TTL_MS.
          onTip: (tip) => (this.tipRead = { at: Date.now(), tip: Promise.resolve(tip) }),
        })
        this.indexer.start()
        log.info({ database: database.kind }, 'index: database open')
      },
      (err: Error) => {
        this.failure = err
        log.error({ err: err.message }, 'index: the database could not be opened')
      },
    )
  }

  /** The database, or a 503 saying why there is none. */
  db() {
    if (!this.config.enabled) throw new ServiceUnavailableError('index_off', 'This service runs without the activity index.')
    if (this.database) return this.database.db
    if (this.failure) throw new ServiceUnavailableError('index_unavailable', 'The activity index is unavailable.')
    throw new ServiceUnavailableError('index_starting', 'The activity index is starting; try again shortly.')
  }

  /** Resolves once the database is open (or failed to open). */
  ready() {
    return this.opening ?? Promise.resolve()
  }

  get writer() {
    return this.indexer?.writer ?? false
  }

  get indexerForTests() {
    return this.indexer
  }

  /** The last block the index has read (-1 before any). */
  async indexedBlock(): Promise<number> {
    return (await this.tip()).number
  }

  private tipRead: { at: number; tip: Promise<{ number: number; hash: string }> } | null = null
  /**
   * The index's tip, read at most every TIP_TTL_MS (requests share the read): the writer's own index moves it, another
   * replica's writer moves it in the database.
   */
  tip(): Promise<{ number: number; hash: string }> {
    const now = Date.now()
    if (!this.tipRead || now - this.tipRead.at >= TIP_TTL_MS) {
      const db = this.db()
      const tip = db
        .selectFrom('index_state')
        .select(['tip_number', 'tip_hash'])
        .where('id', '=', 1)
        .executeTakeFirst()
        .then((r) => (r ? { number: Number(r.tip_number), hash: r.tip_hash } : { number: -1, hash: '' }))
      this.tipRead = { at: now, tip }
      tip.catch(() => (this.tipRead = null))
    }
    return this.tipRead.tip
  }

  async close() {
    await this.opening
    await this.indexer?.stop()
    this.provider?.destroy()
    await this.database?.close()
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The activity index (tests reach its indexer through it). */
    index: IndexService
  }
}
