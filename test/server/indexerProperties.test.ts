import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { MaxUint256, parseUnits } from 'ethers'
import { PlatformToken__factory, RewardHarvest__factory, StakingPoolBase__factory } from '../../src/chain/types'
import { devAccountKey, LOCAL_VESTING_SIGNER_INDEX } from '../../src/domain/devAccounts'
import { signedClaim } from '../../scripts/lib/claims'
import { startPostgres, type RunningPostgres } from '../../scripts/lib/postgres'
import type { ServerConfig } from '../../server/config'
import { account, dedicatedChain, getJson, provider } from '../support/api'
import { asExpected, fetchAllActivity, scanActivity, startIndexedApi, waitCaughtUp } from '../support/indexer'
import { Wallet } from 'ethers'

const USERS = [0, 1, 2, 3]
const DAY = 86_400

type Step =
  | { kind: 'stake'; user: number; pool: number; amount: number; term: number }
  | { kind: 'close'; user: number; pool: number; pick: number }
  | { kind: 'claim'; user: number; amount: number }
  | { kind: 'claimStake'; user: number; pool: number; amount: number; term: number }
  | { kind: 'travel'; days: number }
  | { kind: 'mine'; blocks: number }
  | { kind: 'snapshot' }
  | { kind: 'revert' }
  | { kind: 'restart' }

const user = fc.constantFrom(...USERS)
const pool = fc.constantFrom(0, 1)
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('stake' as const),
      user,
      pool,
      amount: fc.integer({ min: 1, max: 500 }),
      term: fc.nat(3),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('close' as const), user, pool, pick: fc.nat(20) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('claim' as const), user, amount: fc.integer({ min: 1, max: 100 }) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('claimStake' as const),
      user,
      pool,
      amount: fc.integer({ min: 1, max: 100 }),
      term: fc.nat(3),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('travel' as const), days: fc.integer({ min: 1, max: 200 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('mine' as const), blocks: fc.integer({ min: 1, max: 30 }) }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'snapshot' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'revert' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
)

/**
 * The index's promise, attacked over random sequences on a real Hardhat node: stakes, closes, claims, claims into a
 * stake and time jumps, with evm_snapshot / evm_revert rollbacks (a reorg: the index has read blocks that are then
 * replaced, often at the same heights) and restarts of the service between them. After every step, each holder's
 * activity read page by page through the API equals a full eth_getLogs scan of the canonical chain (no duplicate, no
 * gap, nothing of an abandoned branch), and each pool's statistics end at the chain's totalStaked and stakersCount.
 * The same property runs on PGlite and on a real PostgreSQL.
 */
// A node, services and a database of its own: longer than the layer's 60 s a test, hooks included.
jest.setTimeout(600_000)

// One node for both databases: each property begins from the same snapshot and ends by reverting to it.
let chain: Awaited<ReturnType<typeof dedicatedChain>>
beforeAll(async () => {
  chain = await dedicatedChain()
})
afterAll(async () => {
  await chain?.down()
})

describe.each([['PGlite'], ['PostgreSQL']])('the index on %s equals the canonical chain', (db) => {
  let postgres: RunningPostgres | null = null
  beforeAll(async () => {
    if (db === 'PostgreSQL') postgres = await startPostgres()
  })
  afterAll(async () => {
    await postgres?.stop()
  })

  it('after every step of random stakes, closes, claims, time jumps, rollbacks and restarts', async () => {
    const p = provider(chain.url)
    const deployed = await p.send('evm_snapshot', [])
    const record = chain.record()
    const pools = record.pools.map((x) => x.address)
    const users = USERS.map((i) => account(i, p))
    const signer = new Wallet(devAccountKey(LOCAL_VESTING_SIGNER_INDEX), p)
    const harvestAddr = record.contracts.harvest
    const token = PlatformToken__factory.connect(record.contracts.token, p)
    for (const u of users) for (const a of [...pools, harvestAddr]) await (await token.connect(u).approve(a, MaxUint256)).wait()
    const terms = await Promise.all(
      pools.map(async (a) => (await StakingPoolBase__factory.connect(a, p).getAllHarvestBonusTimeData()).map((t) => t.hold)),
    )
    let base = await p.send('evm_snapshot', [])
    let runs = 0

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 10 }), async (steps) => {
        runs++
        await p.send('evm_revert', [base])
        base = await p.send('evm_snapshot', [])
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'index-prop-'))
        const dbConfig: Partial<ServerConfig> = postgres
          ? { databaseUrl: await postgres.createDatabase(`run${runs}_${Date.now()}`) }
          : { dataDir }
        const start = () => startIndexedApi({ ...chain.apiConfig, ...dbConfig, logsRange: 7, indexPartRows: 2 })
        let api = await start()
        const snapshots: string[] = []
        try {
          for (const s of steps) {
            await apply(s)
            await check()
          }
        } finally {
          await api.app.close()
          fs.rmSync(dataDir, { recursive: true, force: true })
        }

        async function apply(s: Step) {
          const u = users['user' in s ? s.user : 0]
          const poolOf = (i: number) => StakingPoolBase__factory.connect(pools[i], u)
          switch (s.kind) {
            case 'stake': {
              const hold = terms[s.pool][s.term % terms[s.pool].length]
              await (await poolOf(s.pool)['stake(uint256,uint256)'](parseUnits(String(s.amount), 18), hold)).wait()
              break
            }
            case 'close': {
              const count = Number(await poolOf(s.pool).getUserStakesCount(u.address))
              if (count === 0) break
              const id = s.pick % count
              if (!(await poolOf(s.pool).getStake(u.address, id)).active) break
              await (await poolOf(s.pool).unstake([id])).wait()
              break
            }
            case 'claim':
            case 'claimStake': {
              const harvest = RewardHarvest__factory.connect(harvestAddr, u)
              const c = await signedClaim(
                { harvest, rewardToken: record.contracts.token, signer },
                u.address,
                parseUnits(String(s.amount), 18),
              )
              if (s.kind === 'claim') await (await harvest.harvest(...c.args)).wait()
              else
                await (await harvest.harvestStake(...c.args, pools[s.pool], terms[s.pool][s.term % terms[s.pool].length])).wait()
              break
            }
            case 'travel':
              await p.send('evm_increaseTime', [s.days * DAY])
              await p.send('evm_mine', [])
              break
            case 'mine':
              await p.send('hardhat_mine', ['0x' + s.blocks.toString(16)])
              break
            case 'snapshot':
              // The index reads the blocks before the snapshot, so a revert takes back blocks it has read.
              await waitCaughtUp(api, p)
              snapshots.push(await p.send('evm_snapshot', []))
              break
            case 'revert':
              if (snapshots.length > 0) await p.send('evm_revert', [snapshots.pop()])
              break
            case 'restart':
              await api.app.close()
              api = await start()
              break
          }
        }

        async function check() {
          await waitCaughtUp(api, p)
          const expected = await scanActivity(p, record)
          for (const u of users) {
            const got = await fetchAllActivity(api.url, u.address, 3)
            expect(got.map((i) => asExpected(u.address, i))).toEqual(expected.get(u.address.toLowerCase()) ?? [])
          }
          for (const a of pools) {
            const onChain = StakingPoolBase__factory.connect(a, p)
            const stats = await getJson(`${api.url}/stats/pool/${a}?interval=week`)
            expect(stats.status).toBe(200)
            const last = stats.body.points[stats.body.points.length - 1]
            expect(last.totalStaked).toBe((await onChain.totalStaked()).toString())
            expect(last.stakers).toBe(Number(await onChain.stakersCount()))
          }
        }
      }),
      { numRuns: Number(process.env.INDEX_PROPERTY_RUNS ?? 5) },
    )
    await p.send('evm_revert', [deployed])
  })
})
