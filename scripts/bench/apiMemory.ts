/**
 * `npm run bench:api-memory`: the API's memory under a flood of distinct wallets while no block is mined (the case
 * where one block's cache sees every address). Starts its own node, deploy and API (production settings, rate limit
 * lifted), asks GET /vesting/address/:w for ADDRESSES (default 300,000) different random addresses with autocannon,
 * and prints the service's resident memory (VmRSS from /proc) before, after, and its peak.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import { freePort, runHardhatScript, startHardhatNode } from '../lib/node'
import { startApi } from '../lib/api'

const ADDRESSES = Number(process.env.ADDRESSES ?? 300_000)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)

/** Resident and peak resident memory of `pid` in MB, from /proc (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1])
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

async function flood(url: string, amount: number) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/vesting/address/0x${randomBytes(20).toString('hex')}` }) }],
  })
  return { requests: result.requests.total, errors: result.errors + result.non2xx, rps: result.requests.average }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mem-'))
  const node = await startHardhatNode(await freePort())
  const api = { stop: async () => {} }
  try {
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir })
    // Automining only: no block is mined during the flood, so every answer belongs to the same block.
    const started = await startApi(await freePort(), node.url, {
      DEPLOYMENTS_DIR: dir,
      API_LOG_LEVEL: 'warn',
      API_RATE_LIMIT_MAX: '0',
    })
    api.stop = started.stop
    // Warm up (JIT, connection pools) before the first reading.
    await flood(started.url, 5_000)
    const before = memoryOf(started.pid)
    const run = await flood(started.url, ADDRESSES)
    const after = memoryOf(started.pid)
    console.log(`API ${started.url}, ${CONNECTIONS} connections, ${os.cpus().length} cores`)
    console.log(`${run.requests} requests for distinct addresses at ${run.rps.toFixed(0)} req/s, ${run.errors} errors`)
    console.log(
      `RSS before ${before.rss.toFixed(1)} MB   after ${ADDRESSES.toLocaleString('en-US')} addresses ${after.rss.toFixed(1)} MB   (+${(after.rss - before.rss).toFixed(1)} MB, peak ${after.peak.toFixed(1)} MB)`,
    )
  } finally {
    await api.stop()
    await node.stop()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
