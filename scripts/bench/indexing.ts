/**
 * `npm run bench:index`: how fast the API's indexer reads a chain of 100,000 events (BENCH_INDEX_EVENTS) from the
 * deployment's start: its own Hardhat node and deploy, five HeavyStaker contracts that each stake and close 10,000
 * times (20,000 events each), then the indexer from an empty database to the head, in ranges of API_LOGS_RANGE
 * (2,000), once on PGlite and once on PostgreSQL (Debian's, started here in a temporary directory) when it is
 * installed. Prints events per second and the database's size.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, runHardhatScript, startHardhatNode } from '../lib/node'
import { giveHeavyStakes } from '../lib/heavyStakes'
import { postgresBin, startPostgres } from '../lib/postgres'
import { timedProvider } from '../../server/chain/client'
import { openDatabase } from '../../server/db/database'
import { Indexer } from '../../server/indexer/indexer'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'

const EVENTS = Number(process.env.BENCH_INDEX_EVENTS ?? 100_000)
const PER_STAKER = 20_000
const RANGE = Number(process.env.API_LOGS_RANGE ?? 2_000)

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-index-'))
  const node = await startHardhatNode(await freePort())
  try {
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir }, { quiet: true })
    const record = JSON.parse(fs.readFileSync(path.join(dir, '31337.json'), 'utf8')) as DeploymentRecord
    const provider = timedProvider(node.url, 31337, 60_000, { batchMaxCount: 50 })
    const [funder] = (await provider.send('eth_accounts', [])) as string[]
    const made = Date.now()
    for (let left = EVENTS; left > 0; left -= PER_STAKER) {
      const closes = Math.min(PER_STAKER, left) / 2
      ;(await giveHeavyStakes(node.url, record, funder, { oldClosed: 0, recentClosed: closes, active: 0 })).destroy()
    }
    const head = Number(await provider.send('eth_blockNumber', []))
    console.log(`chain: ${head} blocks, ${EVENTS} pool events made in ${((Date.now() - made) / 1000).toFixed(0)} s; range ${RANGE}, ${os.cpus().length} cores`)

    const log = { info: () => {}, warn: (o: object, msg?: string) => console.warn(msg, o) } as never
    const measure = async (name: string, db: Awaited<ReturnType<typeof openDatabase>>) => {
      const indexer = new Indexer(db, provider, { record, chainId: 31337, logsRange: RANGE, pollMs: 1_000, log })
      const t = Date.now()
      await indexer.catchUp()
      const ms = Date.now() - t
      const { count } = (await db.db.selectFrom('events').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()) as {
        count: string | number
      }
      console.log(
        `${name.padEnd(11)} ${String(count).padStart(7)} rows in ${(ms / 1000).toFixed(1).padStart(5)} s: ${Math.round((Number(count) * 1000) / ms)
          .toString()
          .padStart(6)} events/s`,
      )
      await db.close()
    }
    await measure('PGlite', await openDatabase({ dataDir: path.join(dir, 'pglite') }))
    let hasPostgres = true
    try {
      postgresBin()
    } catch {
      hasPostgres = false
      console.log('PostgreSQL   not installed: skipped')
    }
    if (hasPostgres) {
      const pg = await startPostgres()
      try {
        await measure('PostgreSQL', await openDatabase({ databaseUrl: await pg.createDatabase('bench'), dataDir: '' }))
      } finally {
        await pg.stop()
      }
    }
    provider.destroy()
  } finally {
    await node.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
