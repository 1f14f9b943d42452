/**
 * `npm run bench:api-memory`: the API's memory under a flood of distinct wallets while no block is mined (the case
 * where one block's cache sees every address). Starts its own node and deploy, and the service in a child process
 * (server/memoryProbe.ts: production settings, rate limit lifted, forked with --expose-gc) that collects garbage
 * before each reading. Asks GET /vesting/address/:w for ADDRESSES (default 300,000) different random addresses, then
 * for ALLOCATED (default 30,000) distinct wallets that have an allocation (each a chain read and a signature, so each
 * would be a cache entry). Prints what stays in memory after each (V8 heap in use after a full GC, and RSS).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import { freePort, runHardhatScript, startHardhatNode } from '../lib/node'
import { devAccountKey, LOCAL_VESTING_SIGNER_INDEX } from '../../src/domain/devAccounts'

const ADDRESSES = Number(process.env.ADDRESSES ?? 300_000)
const ALLOCATED = Number(process.env.ALLOCATED ?? 30_000)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const PROBE = path.join(__dirname, '..', '..', 'server', 'memoryProbe.ts')

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`

/** The probe's next message. */
const reply = <T>(child: ChildProcess) =>
  new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T))
    child.once('exit', (code) => reject(new Error(`the API process exited (${code})`)))
  })

/** Memory the API keeps after a full collection (heap in use), and its resident size, in MB. */
async function retained(child: ChildProcess) {
  const answer = reply<{ heap: number; rss: number }>(child)
  child.send('measure')
  return answer
}

/** `amount` requests, each for the next of `wallets` (random new addresses when none are given). */
async function flood(url: string, amount: number, wallets?: string[]) {
  let next = 0
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({
          ...req,
          path: `/vesting/address/${wallets ? wallets[next++ % wallets.length] : randomAddress()}`,
        }),
      },
    ],
  })
  return { requests: result.requests.total, errors: result.errors + result.non2xx, rps: result.requests.average }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mem-'))
  const node = await startHardhatNode(await freePort())
  const stops: (() => Promise<unknown>)[] = [() => node.stop()]
  try {
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir })
    // The demo allocations plus ALLOCATED more wallets, so the second flood exercises reads, signatures and the cache.
    const file = path.join(dir, 'allocations.31337.json')
    const book = JSON.parse(fs.readFileSync(file, 'utf8')) as { allocations: Record<string, unknown> }
    const allocated = Array.from({ length: ALLOCATED }, randomAddress)
    for (const w of allocated) book.allocations[w] = { round: 'Seed', amount: '1000000000000000000000' }
    fs.writeFileSync(file, JSON.stringify(book))

    const child = fork(PROBE, {
      execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'],
      env: {
        ...process.env,
        API_RPC_URL: node.url,
        DEPLOYMENTS_DIR: dir,
        API_LOG_LEVEL: 'warn',
        API_RATE_LIMIT_MAX: '0',
        VESTING_SIGNER_KEY: devAccountKey(LOCAL_VESTING_SIGNER_INDEX),
      },
    })
    stops.unshift(async () => {
      if (child.exitCode === null) child.send('stop')
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)))
    })
    const { url } = await reply<{ url: string }>(child)
    console.log(`API ${url}, ${CONNECTIONS} connections, ${os.cpus().length} cores; no block mined during the floods`)

    // Warm up (JIT, connection pools) before the first reading.
    await flood(url, 5_000)
    const before = await retained(child)
    const show = (what: string, r: Awaited<ReturnType<typeof flood>>, m: Awaited<ReturnType<typeof retained>>) =>
      console.log(
        `${what.padEnd(48)} ${String(r.requests).padStart(7)} requests ${r.rps.toFixed(0).padStart(6)} req/s ${r.errors} errors   ` +
          `heap ${m.heap.toFixed(1)} MB (${m.heap >= before.heap ? '+' : ''}${(m.heap - before.heap).toFixed(1)})   RSS ${m.rss.toFixed(1)} MB`,
      )
    console.log(`${'before'.padEnd(96)}heap ${before.heap.toFixed(1)} MB   RSS ${before.rss.toFixed(1)} MB`)
    const strangers = await flood(url, ADDRESSES)
    show(`after ${ADDRESSES.toLocaleString('en-US')} distinct addresses`, strangers, await retained(child))
    if (ALLOCATED > 0) {
      const signed = await flood(url, ALLOCATED, allocated)
      show(`after ${ALLOCATED.toLocaleString('en-US')} distinct wallets with an allocation`, signed, await retained(child))
    }
  } finally {
    for (const stop of stops) await stop()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
