/**
 * `npm run bench:api`: load on the API service as `npm start` runs it (its own node, deploy and API on free
 * ports, production settings but the per-client rate limit lifted: all load comes from one client), 10 s per run
 * with autocannon, at 50 and at 500 connections. Prints requests per second and p50/p99 latency for the vesting
 * endpoint (the five demo wallets in turn; once on an idle chain, once with a new block every second), for
 * token-holders, and for the activity list of a holder with 20,000 events (10,000 stakes and their closes, made by a
 * HeavyStaker contract): every page once, one at a time (answers are kept per index tip, so this is the uncached
 * case), then its first page and pages deep in its history under load, each through its cursor.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { freePort, runHardhatScript, startHardhatNode } from '../lib/node'
import { startApi } from '../lib/api'
import { giveHeavyStakes } from '../lib/heavyStakes'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '50,500').split(',').map(Number)

async function run(title: string, opts: autocannon.Options) {
  for (const connections of CONNECTIONS) {
    const result = await autocannon({ duration: DURATION_S, connections, ...opts })
    const errors = result.errors + result.non2xx
    console.log(
      `${title.padEnd(28)} ${String(connections).padStart(3)} conns ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ${result.requests.total} requests, ${errors} errors`,
    )
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'))
  const node = await startHardhatNode(await freePort())
  const api = { stop: async () => {} }
  try {
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir })
    const record = JSON.parse(fs.readFileSync(path.join(dir, '31337.json'), 'utf8')) as DeploymentRecord
    const wallets = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, 'allocations.31337.json'), 'utf8')).allocations)
    // The limit is per client, and here every request comes from one: lift it to measure the service itself.
    const started = await startApi(await freePort(), node.url, {
      DEPLOYMENTS_DIR: dir,
      API_LOG_LEVEL: 'warn',
      API_RATE_LIMIT_MAX: '0',
      API_DATA_DIR: path.join(dir, 'api-data'),
    })
    api.stop = started.stop
    console.log(
      `API ${started.url}, ${DURATION_S} s per run, ${CONNECTIONS.join(' and ')} connections, ${os.cpus().length} cores\n`,
    )
    await run('GET /vesting/address/:w', {
      url: started.url,
      requests: wallets.map((w) => ({ method: 'GET', path: `/vesting/address/${w}` })),
    })
    // A chain that moves: a new block every second (BSC makes one every 3 s), so signatures are recomputed.
    const mining = setInterval(() => {
      void fetch(node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
      })
    }, 1000)
    await run('GET vesting, block every 1 s', {
      url: started.url,
      requests: wallets.map((w) => ({ method: 'GET', path: `/vesting/address/${w}` })),
    })
    clearInterval(mining)
    await run('POST token-holders', {
      url: started.url,
      requests: [
        {
          method: 'POST',
          path: '/contract-parser/api/contract/token-holders',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ address: record.pools[1].address, network: 31337 }),
        },
      ],
    })
    await activity(node.url, record, started.url)
  } finally {
    await api.stop()
    await node.stop()
  }
}

/** 20,000 events of one holder, indexed; then its first page and pages at every depth of its history. */
async function activity(chainUrl: string, record: DeploymentRecord, apiUrl: string) {
  const [funder] = (await rpc(chainUrl, 'eth_accounts')) as string[]
  const heavy = await giveHeavyStakes(chainUrl, record, funder, { oldClosed: 0, recentClosed: 10_000, active: 0 })
  heavy.destroy()
  const head = Number(await rpc(chainUrl, 'eth_blockNumber'))
  const started = Date.now()
  for (;;) {
    const health = (await (await fetch(`${apiUrl}/health`)).json()) as { index: { block: number } | null }
    if ((health.index?.block ?? -1) >= head) break
    await new Promise((r) => setTimeout(r, 100))
  }
  // The cursors of every 20th page of 50 (all 400 pages are walked once to find them).
  const cursors: string[] = []
  let cursor: string | null = null
  let total = 0
  // The walk is the uncached case: each page asked once, one at a time.
  const walk: number[] = []
  for (let page = 0; ; page++) {
    const asked = performance.now()
    const body = (await (
      await fetch(`${apiUrl}/activity/${heavy.address}?limit=50${cursor ? `&cursor=${cursor}` : ''}`)
    ).json()) as {
      items: unknown[]
      next: string | null
    }
    walk.push(performance.now() - asked)
    total += body.items.length
    if (!body.next) break
    cursor = body.next
    if (page % 20 === 0) cursors.push(cursor)
  }
  walk.sort((a, b) => a - b)
  const at = (q: number) => walk[Math.min(walk.length - 1, Math.floor(q * walk.length))].toFixed(1)
  console.log(`\nactivity: ${total} events of ${heavy.address}, indexed ${Date.now() - started} ms after the last block`)
  console.log(
    `each of its ${walk.length} pages of 50 asked once, one at a time (not cached): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
  )
  await run('GET /activity first page', {
    url: apiUrl,
    requests: [{ method: 'GET', path: `/activity/${heavy.address}?limit=50` }],
  })
  await run('GET /activity deep pages', {
    url: apiUrl,
    requests: cursors.map((c) => ({ method: 'GET', path: `/activity/${heavy.address}?limit=50&cursor=${c}` })),
  })
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
