import { sql, type Kysely, type Migration } from 'kysely'

/**
 * The index's schema, one migration set for PGlite and PostgreSQL (Kysely's Migrator runs them in name order and
 * records them in kysely_migration, under its own lock, so replicas starting together migrate once).
 */
export const migrations: Record<string, Migration> = {
  '001_index': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('index_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('chain_id', 'integer', (c) => c.notNull())
        .addColumn('start_block', 'bigint', (c) => c.notNull())
        .addColumn('genesis_hash', 'text', (c) => c.notNull())
        .addColumn('tip_number', 'bigint', (c) => c.notNull())
        .addColumn('tip_hash', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('blocks')
        .addColumn('number', 'bigint', (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('time', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('pools')
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('block_number', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('events')
        .addColumn('block_number', 'bigint', (c) => c.notNull())
        .addColumn('log_index', 'integer', (c) => c.notNull())
        .addColumn('tx_hash', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('kind', 'text')
        .addColumn('account', 'text')
        .addColumn('pool', 'text')
        .addColumn('stake_id', 'numeric(78, 0)')
        .addColumn('amount', 'numeric(78, 0)')
        .addColumn('amount_out', 'numeric(78, 0)')
        .addColumn('fee', 'numeric(78, 0)')
        .addColumn('forfeited', 'numeric(78, 0)')
        .addColumn('hold', 'bigint')
        .addColumn('to_holders', 'numeric(78, 0)')
        .addColumn('time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pk', ['block_number', 'log_index'])
        .execute()
      // A holder's activity, newest first, is one index range scan whatever the table's size.
      await sql`create index events_activity on events (account, block_number desc, log_index desc) where kind is not null`.execute(
        db,
      )
      // A close finds its stake's row.
      await sql`create index events_stake on events (pool, account, stake_id) where event = 'Staked'`.execute(db)
      await db.schema.createIndex('events_pool').on('events').columns(['pool', 'block_number', 'log_index']).execute()
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['events', 'pools', 'blocks', 'index_state']) await db.schema.dropTable(t).execute()
    },
  },
}
