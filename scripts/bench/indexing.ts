/**
 * `npm run bench:index`: how fast the API's indexer reads a chain of 100,000 events (BENCH_INDEX_EVENTS) from the
 * deployment's start. Its own Hardhat node and deploy; five HeavyStaker contracts that each stake and close 10,000
 * times (20,000 events each); then the API service as `npm start` runs it (a child process), from an empty database
 * until `/health` says the index has read the head: once on PGlite, once on PostgreSQL (Debian's, started here in a
 * temporary directory) when it is installed. The node is reached through the counting proxy, which times the node's
 * own eth_getLogs answers apart from the rest. Prints events per second.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { JsonRpcProvider } from 'ethers'
import { freePort, runHardhatScript, startHardhatNode } from '../lib/node'
import { startApi } from '../lib/api'
import { giveHeavyStakes } from '../lib/heavyStakes'
import { postgresBin, startPostgres } from '../lib/postgres'
import { startRpcProxy } from '../lib/rpcProxy'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'

const EVENTS = Number(process.env.BENCH_INDEX_EVENTS ?? 100_000)
const PER_STAKER = 20_000
/**
 * The HeavyStakers pack about 120 events into a block, so the service's default of 2,000 blocks would ask for the
 * whole chain in one eth_getLogs: a provider refuses that (10,000 logs at most) and Hardhat answers it ever slower
 * (20,000 logs took it 49 s in one answer, 4.5 s in answers of 5 blocks). 40 blocks is about 5,000 logs an answer.
 */
const RANGE = process.env.API_LOGS_RANGE ?? '40'

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-index-'))
  const node = await startHardhatNode(await freePort())
  try {
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir }, { quiet: true })
    const record = JSON.parse(fs.readFileSync(path.join(dir, '31337.json'), 'utf8')) as DeploymentRecord
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 })
    const [funder] = (await provider.send('eth_accounts', [])) as string[]
    const made = Date.now()
    for (let left = EVENTS; left > 0; left -= PER_STAKER) {
      const closes = Math.min(PER_STAKER, left) / 2
      ;(await giveHeavyStakes(node.url, record, funder, { oldClosed: 0, recentClosed: closes, active: 0 })).destroy()
    }
    const head = Number(await provider.send('eth_blockNumber', []))
    provider.destroy()
    console.log(
      `chain: ${head} blocks, ${EVENTS} pool events made in ${((Date.now() - made) / 1000).toFixed(0)} s; API_LOGS_RANGE ${RANGE}, ${os.cpus().length} cores`,
    )

    const measure = async (name: string, env: NodeJS.ProcessEnv) => {
      const proxy = await startRpcProxy(node.url)
      const api = await startApi(await freePort(), proxy.url, {
        DEPLOYMENTS_DIR: dir,
        API_LOG_LEVEL: 'warn',
        API_LOGS_RANGE: RANGE,
        API_INDEX_POLL_MS: '100',
        ...env,
      })
      try {
        // From the database open (index reported) to the head read.
        let opened = 0
        for (;;) {
          const health = (await (await fetch(`${api.url}/health`)).json()) as { index: { block: number } | null }
          if (health.index && !opened) {
            opened = Date.now()
            proxy.reset()
          }
          if (health.index && health.index.block >= head) break
          await new Promise((r) => setTimeout(r, 50))
        }
        const ms = Date.now() - opened
        const nodeMs = proxy.counts.msByMethod.eth_getLogs ?? 0
        const rate = (t: number) => Math.round((EVENTS * 1000) / Math.max(1, t))
        console.log(
          `${name.padEnd(11)} ${(ms / 1000).toFixed(1).padStart(5)} s: ${String(rate(ms)).padStart(6)} events/s; the node's eth_getLogs answers ${(nodeMs / 1000).toFixed(1)} s of it (${proxy.counts.byMethod.eth_getLogs} calls), the rest ${rate(ms - nodeMs)} events/s`,
        )
      } finally {
        await api.stop()
        await proxy.stop()
      }
    }
    await measure('PGlite', { API_DATA_DIR: path.join(dir, 'pglite') })
    let hasPostgres = true
    try {
      postgresBin()
    } catch {
      hasPostgres = false
      console.log('PostgreSQL  not installed: skipped')
    }
    if (hasPostgres) {
      const pg = await startPostgres()
      try {
        await measure('PostgreSQL', { DATABASE_URL: await pg.createDatabase('bench') })
      } finally {
        await pg.stop()
      }
    }
  } finally {
    await node.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
