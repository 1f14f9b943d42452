import { sql, type Kysely } from 'kysely'
import type { IndexTables } from '../db/schema'
import type { EventRow } from './events'

export interface Tip {
  number: number
  hash: string
}
export interface IndexIdentity {
  chainId: number
  startBlock: number
  genesisHash: string
}

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters a statement (15 columns a row). */
const INSERT_CHUNK = 2_000

const stakeKey = (pool: string | null, account: string | null, id: string | null) => `${pool}|${account}|${id}`

/**
 * Gives each close in `rows` its stake's principal and hold (the activity lists what a close paid against what was
 * staked), from a Staked row earlier in `rows` or, for older stakes, from the database: one query a chunk of closes.
 */
async function withPrincipals(tx: Kysely<IndexTables>, rows: EventRow[]) {
  const staked = new Map<string, EventRow>()
  const missing: EventRow[] = []
  for (const r of rows) {
    if (r.event === 'Staked') staked.set(stakeKey(r.pool, r.account, r.stake_id), r)
    if (r.event !== 'Unstaked') continue
    const s = staked.get(stakeKey(r.pool, r.account, r.stake_id))
    if (s) Object.assign(r, { amount: s.amount, hold: s.hold })
    else missing.push(r)
  }
  for (let i = 0; i < missing.length; i += INSERT_CHUNK) {
    const part = missing.slice(i, i + INSERT_CHUNK)
    // The keys as three arrays joined to the stakes' partial index: one plan whatever their number (an IN list of
    // row values is compared row by row).
    const { rows: found } = await sql<{ pool: string; account: string; stake_id: string; amount: string; hold: string | number }>`
      select s.pool, s.account, s.stake_id, s.amount, s.hold
      from unnest(${part.map((r) => r.pool)}::text[], ${part.map((r) => r.account)}::text[], ${part.map((r) => r.stake_id)}::numeric[])
        as k(pool, account, stake_id)
      join events s on s.event = 'Staked' and s.pool = k.pool and s.account = k.account and s.stake_id = k.stake_id`.execute(tx)
    const byKey = new Map(found.map((s) => [stakeKey(s.pool, s.account, String(s.stake_id)), s]))
    for (const r of part) {
      const s = byKey.get(stakeKey(r.pool, r.account, r.stake_id))
      if (s) Object.assign(r, { amount: s.amount, hold: s.hold })
    }
  }
}

/** The index writer's side of the database: the tip, one range written at once, and a rollback to a fork. */
export class IndexStore {
  constructor(readonly db: Kysely<IndexTables>) {}

  async tip(): Promise<Tip | null> {
    const row = await this.db.selectFrom('index_state').select(['tip_number', 'tip_hash']).where('id', '=', 1).executeTakeFirst()
    return row ? { number: Number(row.tip_number), hash: row.tip_hash } : null
  }

  /**
   * The tip, after making sure the index belongs to this chain and deployment: an index of another chain, another
   * deployment or a node restarted with a new genesis is emptied and begins again at `start` (the block before the
   * deployment's first).
   */
  async open(identity: IndexIdentity, start: Tip, seedPools: string[]): Promise<Tip> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('index_state').selectAll().where('id', '=', 1).forUpdate().executeTakeFirst()
      const same =
        row &&
        row.chain_id === identity.chainId &&
        Number(row.start_block) === identity.startBlock &&
        row.genesis_hash === identity.genesisHash
      if (same) return { number: Number(row.tip_number), hash: row.tip_hash }
      await sql`truncate events, pools, blocks, index_state`.execute(tx)
      await tx
        .insertInto('index_state')
        .values({
          id: 1,
          chain_id: identity.chainId,
          start_block: identity.startBlock,
          genesis_hash: identity.genesisHash,
          tip_number: start.number,
          tip_hash: start.hash,
        })
        .execute()
      // The deployment record's pools, from the start: never rolled back.
      if (seedPools.length > 0)
        await tx
          .insertInto('pools')
          .values(seedPools.map((a) => ({ address: a.toLowerCase(), block_number: -1 })))
          .onConflict((c) => c.doNothing())
          .execute()
      return start
    })
  }

  async pools(): Promise<string[]> {
    return (await this.db.selectFrom('pools').select('address').orderBy('address').execute()).map((r) => r.address)
  }

  /**
   * Writes one range read from the chain, in one transaction, moving the tip from `from` to `to`: if the tip is not
   * `from` any more the write is refused (false), so a range is never written twice. A close takes its stake's principal
   * and hold from the stake's row (withPrincipals).
   */
  async write(
    from: Tip,
    to: Tip,
    rows: EventRow[],
    pools: { address: string; block: number }[],
    blocks: { number: number; hash: string; time: number }[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const moved = await tx
        .updateTable('index_state')
        .set({ tip_number: to.number, tip_hash: to.hash })
        .where('id', '=', 1)
        .where('tip_number', '=', from.number)
        .where('tip_hash', '=', from.hash)
        .executeTakeFirst()
      if (Number(moved.numUpdatedRows) !== 1) return false
      await withPrincipals(tx, rows)
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await tx
          .insertInto('events')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute()
      }
      if (pools.length > 0)
        await tx
          .insertInto('pools')
          .values(pools.map((p) => ({ address: p.address, block_number: p.block })))
          .onConflict((c) => c.doNothing())
          .execute()
      for (let i = 0; i < blocks.length; i += INSERT_CHUNK) {
        await tx
          .insertInto('blocks')
          .values(blocks.slice(i, i + INSERT_CHUNK))
          .onConflict((c) =>
            c.column('number').doUpdateSet((eb) => ({ hash: eb.ref('excluded.hash'), time: eb.ref('excluded.time') })),
          )
          .execute()
      }
      return true
    })
  }

  /**
   * Refreshes the planner's statistics of the events table. PGlite has no autovacuum daemon, so without this a table
   * loaded since the last ANALYZE is planned as nearly empty: a page of a holder with 10,000 events was a bitmap scan
   * and a sort of all of them (27 ms), where the index gives it in order (under 3 ms).
   */
  async analyze() {
    await sql`analyze events`.execute(this.db)
  }

  /** Stored block hashes at or below `below`, newest first: the candidates for the block a reorg forked from. */
  async checkpoints(below: number, limit: number): Promise<Tip[]> {
    const rows = await this.db
      .selectFrom('blocks')
      .select(['number', 'hash'])
      .where('number', '<=', below)
      .orderBy('number', 'desc')
      .limit(limit)
      .execute()
    return rows.map((r) => ({ number: Number(r.number), hash: r.hash }))
  }

  /** Forgets everything above `fork`, which becomes the tip. */
  async rollbackTo(fork: Tip) {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('events').where('block_number', '>', fork.number).execute()
      await tx.deleteFrom('pools').where('block_number', '>', fork.number).execute()
      await tx.deleteFrom('blocks').where('number', '>', fork.number).execute()
      await tx.updateTable('index_state').set({ tip_number: fork.number, tip_hash: fork.hash }).where('id', '=', 1).execute()
    })
  }
}
