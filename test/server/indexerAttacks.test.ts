import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import {
  AbiCoder,
  concat,
  getAddress,
  type Interface,
  JsonRpcProvider,
  MaxUint256,
  parseUnits,
  toBeHex,
  Wallet,
  zeroPadValue,
} from 'ethers'
import pg from 'pg'
import {
  JamFactory__factory,
  PlatformToken__factory,
  PoolsInfo__factory,
  RewardHarvest__factory,
  StakingPoolBase__factory,
} from '../../src/chain/types'
import { devAccountKey, LOCAL_VESTING_SIGNER_INDEX } from '../../src/domain/devAccounts'
import { signedClaim } from '../../scripts/lib/claims'
import { startPostgres } from '../../scripts/lib/postgres'
import { account, dedicatedChain, getJson, provider } from '../support/api'
import { fetchAllActivity, startIndexedApi, waitCaughtUp } from '../support/indexer'

/**
 * An outside attacker's tests of the activity index (server/db, server/indexer, server/activity). Each test runs on
 * one private Hardhat node, from a snapshot taken before it and reverted after it, with a service of its own on a fresh
 * database. Each test names the promise it attacks (README.md "API service", docs/architecture.md §9); the first six failed
 * against the index as first built, and pass since the fixes of the commit that added this file.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Call = { id?: unknown; method: string; params?: unknown[] }

/**
 * A JSON-RPC proxy in front of the node with two hooks: `before` may hold a request (an answer the node is slow to
 * give), `after` runs once the node has answered and before the answer is passed on (the chain moves between two calls).
 */
async function hookedProxy(target: string) {
  const hooks = {
    before: null as null | ((calls: Call[], batch: boolean) => Promise<void> | void),
    after: null as null | ((calls: Call[], batch: boolean) => Promise<void> | void),
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks)
      let calls: Call[] = []
      let batch = false
      try {
        const parsed = JSON.parse(body.toString()) as Call | Call[]
        batch = Array.isArray(parsed)
        calls = Array.isArray(parsed) ? parsed : [parsed]
      } catch {
        // passed on as it is
      }
      try {
        await hooks.before?.(calls, batch)
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        const text = await upstream.text()
        await hooks.after?.(calls, batch)
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text)
      } catch {
        res.socket?.destroy()
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hooks,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

/** Init code that deploys `runtime` (raw EVM bytecode) as a contract's code. */
function initCode(runtime: number[]): string {
  const n = runtime.length
  const init = [0x60, n, 0x60, 12, 0x60, 0x00, 0x39, 0x60, n, 0x60, 0x00, 0xf3]
  return '0x' + Buffer.from([...init, ...runtime]).toString('hex')
}

/** A contract that emits whatever log it is told: calldata = topic0..topic3 (32 bytes each), then the log's data. */
const EMITTER = [
  ...[0x60, 0x60, 0x35, 0x60, 0x40, 0x35, 0x60, 0x20, 0x35, 0x60, 0x00, 0x35], // topics 3, 2, 1, 0
  ...[0x60, 0x80, 0x36, 0x03, 0x80, 0x60, 0x80, 0x60, 0x00, 0x37], // data to memory 0
  ...[0x60, 0x00, 0xa4, 0x00], // LOG4(0, len, t0, t1, t2, t3); STOP
]

/**
 * A contract that makes two calls to one target in one transaction (a contract wallet's batch, a Safe's multisend):
 * calldata = target, len1, len2 (32 bytes each), then call 1's data and call 2's. Reverts with a failing call's reason.
 */
function forwarder(): number[] {
  const call = (sizeAt: number, offsetAt: number | null) => [
    ...[0x60, 0x00, 0x60, 0x00], // retSize, retOffset
    ...[0x60, sizeAt, 0x35], // argsSize
    ...(offsetAt === null ? [0x60, 0x00] : [0x60, offsetAt, 0x35]), // argsOffset
    ...[0x60, 0x00, 0x60, 0x00, 0x35, 0x5a, 0xf1], // value 0, target, gas; CALL
    ...[0x15, 0x60, 0xff, 0x57], // ISZERO, PUSH1 <revert>, JUMPI
  ]
  const code = [
    ...[0x60, 0x60, 0x36, 0x03, 0x60, 0x60, 0x60, 0x00, 0x37], // calldatacopy(0, 0x60, size - 0x60)
    ...call(0x20, null),
    ...call(0x40, 0x20),
    0x00,
  ]
  const revertAt = code.length
  code.push(0x5b, 0x3d, 0x60, 0x00, 0x60, 0x00, 0x3e, 0x3d, 0x60, 0x00, 0xfd)
  return code.map((b, i) => (b === 0xff && code[i - 1] === 0x60 ? revertAt : b))
}

async function deployRaw(signer: Wallet, runtime: number[]) {
  const tx = await signer.sendTransaction({ data: initCode(runtime) })
  return getAddress((await tx.wait())!.contractAddress!)
}

const word = (v: bigint | string) => zeroPadValue(toBeHex(v), 32)

// Nodes, services and databases of their own: longer than the layer's 60 s a test.
jest.setTimeout(300_000)

describe('attacks on the activity index', () => {
  let chain: Awaited<ReturnType<typeof dedicatedChain>>
  let p: JsonRpcProvider
  let snapshot: string
  beforeAll(async () => {
    chain = await dedicatedChain()
    p = provider(chain.url)
  })
  afterAll(async () => {
    p?.destroy()
    await chain?.down()
  })
  beforeEach(async () => {
    snapshot = await p.send('evm_snapshot', [])
  })
  afterEach(async () => {
    await p.send('evm_revert', [snapshot])
  })

  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'index-attack-'))
  const holdOf = async (pool: string) => (await StakingPoolBase__factory.connect(pool, p).getAllHarvestBonusTimeData())[0].hold
  const approve = async (i: number, pool: string) => {
    const u = account(i, p)
    const token = PlatformToken__factory.connect(chain.record().contracts.token, u)
    await (await token.approve(pool, MaxUint256)).wait()
  }
  const stakeTx = async (i: number, amount: string) => {
    const pool = chain.record().pools[0].address
    const u = account(i, p)
    return (
      await StakingPoolBase__factory.connect(pool, u)['stake(uint256,uint256)'](parseUnits(amount, 18), await holdOf(pool))
    ).wait()
  }

  /**
   * Promise: "checks every log's block hash against [the headers] (a reorg between the calls makes it read the range
   * again)"; the stored activity equals a full scan of the canonical chain, no missing event.
   *
   * The node answers eth_getLogs for blocks N+1..N+2 from the branch it has then (two empty blocks); before the indexer
   * reads the range end's header the chain reorganises to a branch whose block N+1 holds a stake. The check only
   * compares the blocks that have logs in the (old) answer, and the range end exists on the new branch, so the range
   * is written as empty with the new branch's hash as the tip: the stake is never read.
   */
  it('a reorg between eth_getLogs and the header reads does not lose the new branch’s events', async () => {
    const pool = chain.record().pools[0].address
    await approve(2, pool)
    const hold = await holdOf(pool)
    const proxy = await hookedProxy(chain.url)
    const api = await startIndexedApi({ ...chain.apiConfig, rpcUrl: proxy.url, dataDir: dataDir() })
    try {
      const n = await waitCaughtUp(api, p)
      const snap = await p.send('evm_snapshot', [])
      let reorged: Promise<void> | null = null
      let stakeHash = ''
      proxy.hooks.after = async (calls) => {
        const logs = calls.find((c) => c.method === 'eth_getLogs')
        if (!logs || reorged) return
        const filter = logs.params![0] as { fromBlock: string }
        if (Number(filter.fromBlock) !== n + 1) return
        reorged = (async () => {
          await p.send('evm_revert', [snap])
          const u = account(2, p)
          const tx = await StakingPoolBase__factory.connect(pool, u)['stake(uint256,uint256)'](parseUnits('3', 18), hold)
          stakeHash = (await tx.wait())!.hash.toLowerCase()
          await p.send('hardhat_mine', ['0x1'])
        })()
        await reorged
      }
      // Two empty blocks in one call: the indexer reads N+1..N+2 in one eth_getLogs.
      await p.send('hardhat_mine', ['0x2'])
      for (let t = 0; !reorged && t < 200; t++) await sleep(25)
      expect(reorged).not.toBeNull()
      await reorged
      proxy.hooks.after = null
      await waitCaughtUp(api, p)
      const items = await fetchAllActivity(api.url, account(2, p).address)
      expect(items.map((i) => i.txHash)).toContain(stakeHash)
    } finally {
      await api.app.close()
      await proxy.stop()
    }
  })

  /**
   * Promises: events of contracts that are not the deployment's are never listed, nothing is listed under another
   * account, and the index cannot be made to stop.
   *
   * The registry lets any whitelisted caller list any contract (PoolsInfo's own doc says so, and RewardHarvest therefore
   * trusts only the factory's clones). A whitelisted caller that lies (JamFactory, the contracts' own test double)
   * lists a contract that emits whatever it likes; the index takes every PoolAdded as a pool and reads its logs as a
   * pool's.
   */
  describe('a contract listed in the registry by a lying whitelisted caller', () => {
    const listEmitter = async () => {
      const record = chain.record()
      const attacker = account(7, p)
      const emitter = await deployRaw(attacker, EMITTER)
      const jam = await (await new JamFactory__factory(attacker).deploy(record.contracts.poolsInfo)).waitForDeployment()
      const info = PoolsInfo__factory.connect(record.contracts.poolsInfo, p)
      const owner = await info.owner()
      await p.send('hardhat_impersonateAccount', [owner])
      await p.send('hardhat_setBalance', [owner, '0x56BC75E2D63100000'])
      await (await info.connect(await p.getSigner(owner)).setWhitelisted(await jam.getAddress(), true)).wait()
      await (await jam.register(emitter, record.contracts.token)).wait()
      const staked = StakingPoolBase__factory.createInterface().getEvent('Staked')!
      /** Emits Staked(user, id, amount, 0, 0, amount, hold, referer 0) from the listed contract. */
      const emitStaked = async (user: string, id: bigint, amount: bigint, hold: bigint) => {
        const data = AbiCoder.defaultAbiCoder().encode(
          ['uint256', 'uint256', 'uint256', 'uint256', 'uint256'],
          [amount, 0n, 0n, amount, hold],
        )
        const tx = await attacker.sendTransaction({
          to: emitter,
          data: concat([staked.topicHash, word(user), word(id), word(0n), data]),
        })
        return (await tx.wait())!
      }
      return { emitter, emitStaked }
    }

    // Promise: nothing is listed under another account; events of contracts that are not the deployment's are not read.
    it('lists no stake under a holder who never staked', async () => {
      const { emitter, emitStaked } = await listEmitter()
      const victim = account(5, p).address
      const api = await startIndexedApi({ ...chain.apiConfig, dataDir: dataDir() })
      try {
        await emitStaked(victim, 0n, parseUnits('1000000', 18), 86_400n)
        await waitCaughtUp(api, p)
        const items = await fetchAllActivity(api.url, victim)
        expect(items.filter((i) => i.pool === emitter)).toEqual([])
        // Nor does the listed contract become a pool with statistics.
        expect((await getJson(`${api.url}/stats/pool/${emitter}`)).status).toBe(404)
      } finally {
        await api.app.close()
      }
    })

    // Promise: an attacker cannot make the index stop. One log whose holdTime does not fit a bigint fails the range's
    // transaction on every retry; no later event (here a real stake) is ever read.
    it('one log with an out-of-range holdTime does not stop the index', async () => {
      const { emitStaked } = await listEmitter()
      await approve(1, chain.record().pools[0].address)
      const api = await startIndexedApi({ ...chain.apiConfig, dataDir: dataDir() })
      try {
        await waitCaughtUp(api, p)
        await emitStaked(account(6, p).address, 0n, 1n, MaxUint256)
        const real = await stakeTx(1, '2')
        await waitCaughtUp(api, p, 8_000)
        const items = await fetchAllActivity(api.url, account(1, p).address)
        expect(items.map((i) => i.txHash)).toContain(real!.hash.toLowerCase())
      } finally {
        await api.app.close()
      }
    })
  })

  /**
   * Promise: "a claim-and-stake (RewardHarvest.harvestStake) is listed once as 'claim-stake', not also as a claim" and
   * no event is missing. A holder whose wallet is a contract (a Safe batching a multisend) claims part of its vested
   * tokens to the wallet and claims the rest into a stake, in one transaction. The index hides every Harvested and
   * Staked row of a transaction that holds a HarvestStaked for the same user, so the plain claim is never listed.
   */
  it('a plain claim batched with a claim-and-stake in one transaction is still listed', async () => {
    const record = chain.record()
    const pool = record.pools[0].address
    const owner = account(8, p)
    const wallet = await deployRaw(owner, forwarder())
    const signer = new Wallet(devAccountKey(LOCAL_VESTING_SIGNER_INDEX), p)
    const harvest = RewardHarvest__factory.connect(record.contracts.harvest, p)
    const setup = { harvest, rewardToken: record.contracts.token, signer }
    const head = await p.getBlockNumber()
    const first = parseUnits('10', 18)
    const second = parseUnits('20', 18)
    const c1 = await signedClaim(setup, wallet, first, { over: { currentBlock: BigInt(head - 1) } })
    const c2 = await signedClaim(setup, wallet, second, {
      over: { lastUpdateBlock: BigInt(head - 1), claimedBefore: first, currentBlock: BigInt(head) },
    })
    const d1 = (harvest.interface as Interface).encodeFunctionData('harvest', [...c1.args])
    const d2 = (harvest.interface as Interface).encodeFunctionData('harvestStake', [...c2.args, pool, await holdOf(pool)])
    const len = (h: string) => BigInt((h.length - 2) / 2)
    const api = await startIndexedApi({ ...chain.apiConfig, dataDir: dataDir() })
    try {
      const tx = await owner.sendTransaction({
        to: wallet,
        data: concat([word(record.contracts.harvest), word(len(d1)), word(len(d2)), d1, d2]),
        gasLimit: 3_000_000,
      })
      const receipt = (await tx.wait())!
      // Both claims happened: the harvest contract counts 30 tokens claimed by the wallet.
      expect((await harvest.getClaimState(wallet, record.contracts.token))[0]).toBe(first + second)
      await waitCaughtUp(api, p)
      const items = await fetchAllActivity(api.url, wallet)
      expect(items.map((i) => ({ kind: i.kind, amount: i.amount, txHash: i.txHash }))).toEqual([
        { kind: 'claim-stake', amount: second.toString(), txHash: receipt.hash.toLowerCase() },
        { kind: 'claim', amount: first.toString(), txHash: receipt.hash.toLowerCase() },
      ])
    } finally {
      await api.app.close()
    }
  })

  /**
   * Promises: answers are kept per index tip and never serve a stale answer after the tip moves, including after a
   * rollback to a lower tip; `indexedBlock` is the last block read (an answer holds nothing above it).
   *
   * The route reads the tip, then waits for the chain head (a slow node), and only then queries the database. Found by
   * this test: the answer held the new block's events but was kept under the old tip, and after a rollback back to
   * that tip (evm_revert) the abandoned branch's stake was served from the cache. The tip and the answer are now read
   * in one snapshot and kept under the tip they were read at.
   */
  it('an answer made while the tip moves is not kept under the old tip (served again after a rollback)', async () => {
    const pool = chain.record().pools[0].address
    await approve(3, pool)
    const holder = account(3, p).address
    const proxy = await hookedProxy(chain.url)
    const api = await startIndexedApi({ ...chain.apiConfig, rpcUrl: proxy.url, dataDir: dataDir() })
    try {
      const n = await waitCaughtUp(api, p)
      const snap = await p.send('evm_snapshot', [])
      let release: () => void = () => {}
      const gate = new Promise<void>((r) => (release = r))
      let held = false
      // The service's own head read (a single call; the indexer batches its head with the tip's block).
      proxy.hooks.before = async (calls, batch) => {
        const c = calls[0]
        if (held || batch || c?.method !== 'eth_getBlockByNumber' || (c.params as unknown[])[0] !== 'latest') return
        held = true
        await gate
      }
      const first = getJson(`${api.url}/activity/${holder}`)
      for (let t = 0; !held && t < 200; t++) await sleep(10)
      expect(held).toBe(true)
      const receipt = (await stakeTx(3, '4'))!
      await waitCaughtUp(api, p)
      release()
      proxy.hooks.before = null
      const racing = await first
      // Whatever tip it was read at (n or n + 1), it holds nothing above the indexedBlock it reports.
      expect(racing.body.indexedBlock).toBeGreaterThanOrEqual(n)
      const aboveTip = (racing.body.items as { blockNumber: number }[]).filter((i) => i.blockNumber > racing.body.indexedBlock)

      // The stake's block is abandoned; the index rolls back to tip n (same number, same hash as before).
      await p.send('evm_revert', [snap])
      expect(await waitCaughtUp(api, p)).toBe(n)
      const after = await getJson(`${api.url}/activity/${holder}`)
      expect({
        aboveTip,
        afterRollback: (after.body.items as { txHash: string }[]).filter((i) => i.txHash === receipt.hash.toLowerCase()),
      }).toEqual({ aboveTip: [], afterRollback: [] })
    } finally {
      await api.app.close()
      await proxy.stop()
    }
  })

  /**
   * Promise: "one writes (an advisory lock)". The writer's lock is a session lock on one connection; when that session
   * ends (a connection drop, a failover, pg_terminate_backend, idle_session_timeout), the lock is gone but the writer
   * never asks again (Indexer.writer stays true), while another replica takes the free lock: two writers. And the old
   * writer can no longer shut down: its lock connection is dropped from view (lockClient = null) without being released,
   * so the pool's end() waits for it forever.
   */
  it('PostgreSQL: a writer whose lock session ended stops writing; there is still one writer', async () => {
    const postgres = await startPostgres()
    const databaseUrl = await postgres.createDatabase('attack_locks')
    const a = await startIndexedApi({ ...chain.apiConfig, databaseUrl })
    const b = await startIndexedApi({ ...chain.apiConfig, databaseUrl })
    const admin = new pg.Client({ connectionString: databaseUrl })
    try {
      await waitCaughtUp(a, p)
      await waitCaughtUp(b, p)
      expect([a.app.index.writer, b.app.index.writer].filter(Boolean)).toHaveLength(1)
      const [writer, other] = a.app.index.writer ? [a, b] : [b, a]
      await admin.connect()
      const held = await admin.query<{ pid: number }>(`select pid from pg_locks where locktype = 'advisory' and granted`)
      expect(held.rows).toHaveLength(1)
      await admin.query('select pg_terminate_backend($1)', [held.rows[0].pid])
      // The other replica retries the lock every poll (50 ms here).
      for (let t = 0; t < 100 && !(a.app.index.writer && b.app.index.writer); t++) await sleep(50)
      const health = await Promise.all([a, b].map((x) => getJson(`${x.url}/health`)))
      const writers = health.map((h) => h.body.index?.writer).filter(Boolean)
      const locks = await admin.query(`select pid from pg_locks where locktype = 'advisory' and granted`)
      const closes = (x: typeof a) => Promise.race([x.app.close().then(() => true), sleep(5_000).then(() => false)])
      const closed = { oldWriter: await closes(writer), other: await closes(other) }
      expect({ writers: writers.length, locksHeld: locks.rows.length, closed }).toEqual({
        writers: 1,
        locksHeld: 1,
        closed: { oldWriter: true, other: true },
      })
    } finally {
      await admin.end().catch(() => {})
      // Bounded: a service whose close hangs (above) is left to the PostgreSQL server's stop.
      await Promise.race([Promise.all([a.app.close(), b.app.close()]), sleep(5_000)])
      await postgres.stop()
    }
  })

  /**
   * Promises that hold, with coverage the other tests lack: every bad input is a 400 with a JSON reason (never a 500),
   * extreme but valid inputs are answered, and an unknown pool is a 404.
   */
  it('bad and extreme inputs of /activity and /stats are 400s with a reason, or answered; never a 500', async () => {
    const record = chain.record()
    const pool = record.pools[0].address
    const holder = account(0, p).address.toLowerCase()
    const api = await startIndexedApi({ ...chain.apiConfig, dataDir: dataDir() })
    try {
      await waitCaughtUp(api, p)
      const cursor = (s: string) => Buffer.from(s).toString('base64url')
      const bad = [
        `/activity/${holder}?limit=0`,
        `/activity/${holder}?limit=201`,
        `/activity/${holder}?limit=1.5`,
        `/activity/${holder}?limit=-1`,
        `/activity/${holder}?limit=1&limit=2`,
        `/activity/${holder}?foo=1`,
        `/activity/${holder}?cursor=`,
        `/activity/${holder}?cursor=${cursor('1:2:3')}`,
        `/activity/${holder}?cursor=${cursor('9999999999999999:1')}`,
        `/activity/${holder}?cursor=${'A'.repeat(65)}`,
        `/activity/0x${'g'.repeat(40)}`,
        `/activity/${holder}00`,
        `/stats/pool/${pool}?interval=`,
        `/stats/pool/${pool}?interval=day&interval=week`,
        `/stats/pool/${pool}?from=1e3`,
        `/stats/pool/${pool}?to=123456789012`,
        `/stats/pool/${pool}?from=0&to=99999999999`,
        `/stats/pool/${pool}?cursor=x`,
      ]
      for (const url of bad) {
        const r = await getJson(api.url + url)
        expect({ url, status: r.status, message: typeof r.body.message }).toEqual({ url, status: 400, message: 'string' })
      }
      const ok = [
        `/activity/${holder}?limit=200&cursor=${cursor('999999999999999:999999999')}`,
        `/activity/${holder}?limit=007`,
        `/stats/pool/${pool}?interval=week&from=0&to=0`,
        `/stats/pool/${pool}?interval=day&from=99999999999&to=99999999999`,
      ]
      for (const url of ok) expect({ url, status: (await getJson(api.url + url)).status }).toEqual({ url, status: 200 })
      const week = await getJson(`${api.url}/stats/pool/${pool}?interval=week&from=0&to=0`)
      // 1970-01-01 was a Thursday: its week began on Monday 1969-12-29.
      expect(week.body.points.map((x: { time: string }) => x.time)).toEqual(['1969-12-29T00:00:00.000Z'])
      for (const other of [record.contracts.harvest, record.contracts.poolsInfo, record.contracts.factory, holder])
        expect((await getJson(`${api.url}/stats/pool/${other}`)).status).toBe(404)
    } finally {
      await api.app.close()
    }
  })
})
