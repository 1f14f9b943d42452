import fs from 'node:fs'
import path from 'node:path'
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely'
import { PGlite } from '@electric-sql/pglite'
import { PGliteDialect } from 'kysely-pglite-dialect'
import pg from 'pg'
import type { IndexTables } from './schema'
import { migrations } from './migrations'

/** The advisory lock key of the index writer: one writer per database, whichever replica takes it first. */
const WRITER_LOCK = 0x57a4e1

export interface IndexDatabase {
  db: Kysely<IndexTables>
  kind: 'pglite' | 'postgres'
  /** Takes the writer's lock if no other process holds it; true while this process is the writer. */
  tryWriterLock(): Promise<boolean>
  close(): Promise<void>
}

export class DatabaseError extends Error {}

/**
 * Opens the index's database and brings its schema up to date: PostgreSQL at `databaseUrl` when set (any number of
 * replicas share it), else PGlite (PostgreSQL in WebAssembly) in `dataDir`, which one process at a time may open.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<IndexDatabase> {
  const opened = opts.databaseUrl ? await openPostgres(opts.databaseUrl) : await openPglite(opts.dataDir)
  try {
    const { error, results } = await new Migrator({
      db: opened.db,
      provider: { getMigrations: async () => migrations },
    }).migrateToLatest()
    if (error) throw new DatabaseError(`migrating the index failed: ${error instanceof Error ? error.message : String(error)}`)
    void results
  } catch (err) {
    await opened.close()
    throw err
  }
  return opened
}

async function openPostgres(url: string): Promise<IndexDatabase> {
  // bigint (int8) and numeric come back as strings; the readers convert what they need.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 })
  // A connection the server drops (a Postgres restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = new Kysely<IndexTables>({ dialect: new PostgresDialect({ pool }) })
  let lockClient: pg.PoolClient | null = null
  return {
    db,
    kind: 'postgres',
    // A session-level lock on a connection of its own, held as long as that connection lives: if this process dies,
    // Postgres ends the session and another replica takes over the writing.
    async tryWriterLock() {
      if (lockClient) return true
      const client = await pool.connect()
      try {
        const r = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [WRITER_LOCK])
        if (r.rows[0]?.locked) {
          // The session ended (killed, a failover): the lock went with it. The broken connection leaves the pool, so
          // closing never waits for it, and the next ask competes for the lock again.
          client.on('error', (err) => {
            // Only while it holds the lock: once released (close), the pool owns it and its end is no news.
            if (lockClient !== client) return
            lockClient = null
            client.release(err)
          })
          lockClient = client
          return true
        }
      } catch {
        // answered below: not the writer
      }
      client.release()
      return false
    },
    async close() {
      const held = lockClient
      lockClient = null
      held?.release()
      await db.destroy()
    },
  }
}

/** Where in the service's data directory PGlite keeps its cluster. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite')

async function openPglite(dataDir: string): Promise<IndexDatabase> {
  fs.mkdirSync(dataDir, { recursive: true })
  const release = lockDataDir(dataDir)
  try {
    const pglite = await PGlite.create(pgliteDir(dataDir))
    const db = new Kysely<IndexTables>({ dialect: new PGliteDialect(pglite) })
    return {
      db,
      kind: 'pglite',
      // The data directory's lock file already makes this process its only user.
      tryWriterLock: async () => true,
      async close() {
        await db.destroy()
        if (!pglite.closed) await pglite.close()
        release()
      },
    }
  } catch (err) {
    release()
    throw err
  }
}

/**
 * PGlite's files may be opened by one process only; a second API on the same API_DATA_DIR is refused with the holder's
 * PID. A lock left by a process that no longer runs is taken over.
 */
function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'api.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => fs.rmSync(file, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number(fs.readFileSync(file, 'utf8'))
      if (holder && isRunning(holder)) {
        throw new DatabaseError(`API_DATA_DIR ${dir} is in use by process ${holder}; set DATABASE_URL to run replicas.`)
      }
      fs.rmSync(file, { force: true })
    }
  }
  throw new DatabaseError(`could not lock API_DATA_DIR ${dir}`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** For tests and the benchmark: empties the index (keeps the schema). */
export async function clearIndex(db: Kysely<IndexTables>) {
  await sql`truncate events, pools, blocks, index_state`.execute(db)
}
