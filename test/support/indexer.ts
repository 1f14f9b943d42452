import type { JsonRpcProvider } from 'ethers'
import { RewardHarvest__factory, StakingPoolBase__factory, StakingPoolFactory__factory } from '../../src/chain/types'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import type { ServerConfig } from '../../server/config'
import type { ActivityItem } from '../../src/domain/activityAnswer'
import { freshDataDir, getJson, startTestApi } from './api'
import { seedPgliteDir } from './pgliteTemplate'

/**
 * The service with its index on (PGlite in a fresh directory unless `databaseUrl` is given, its empty cluster copied
 * from the run's template), its database open.
 */
export async function startIndexedApi(overrides: Partial<ServerConfig> = {}) {
  const dataDir = overrides.dataDir ?? freshDataDir()
  if (!overrides.databaseUrl) await seedPgliteDir(dataDir)
  const api = await startTestApi({ indexEnabled: true, indexPollMs: 50, ...overrides, dataDir })
  await api.app.index.ready()
  return api
}

/**
 * Waits until the index has read the canonical head: its tip is the head's number and hash (after a rollback the old
 * tip may be higher than the head, or at the same height on another branch).
 */
export async function waitCaughtUp(api: Awaited<ReturnType<typeof startTestApi>>, p: JsonRpcProvider, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const head = await p.send('eth_getBlockByNumber', ['latest', false])
    const tip = await api.app.index.db().selectFrom('index_state').select(['tip_number', 'tip_hash']).executeTakeFirst()
    // The service's own view of the tip too (a replica that does not write reads it every 200 ms).
    const seen = await api.app.index.tip()
    if (tip && Number(tip.tip_number) === Number(head.number) && tip.tip_hash === head.hash && seen.hash === head.hash)
      return Number(head.number)
    if (Date.now() > deadline) throw new Error(`index not caught up: tip ${tip?.tip_number} head ${Number(head.number)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** An activity item as the test expects it: whose it is, and no time (the scan does not read blocks). */
export type Expected = Omit<ActivityItem, 'time'> & { account: string }

/**
 * Every holder's activity from one eth_getLogs scan of the canonical chain, from the deployment's start to the head,
 * worked out here on its own (not with the indexer's code): what the index must hold.
 */
export async function scanActivity(p: JsonRpcProvider, record: DeploymentRecord): Promise<Map<string, Expected[]>> {
  const pool = StakingPoolBase__factory.createInterface()
  const harvest = RewardHarvest__factory.createInterface()
  const factory = StakingPoolFactory__factory.createInterface()
  const c = record.contracts
  const head = Number(await p.send('eth_blockNumber', []))
  const range = { fromBlock: '0x' + record.startBlock.toString(16), toBlock: '0x' + head.toString(16) }
  // Pools: the record's and every one the deployment's factory created (a registry listing is not a pool).
  const created = await p.send('eth_getLogs', [
    { ...range, address: [c.factory], topics: [[factory.getEvent('PoolCreated')!.topicHash]] },
  ])
  const pools = new Set([...record.pools.map((x) => x.address.toLowerCase())])
  for (const l of created) pools.add(('0x' + l.topics[2].slice(26)).toLowerCase())
  const logs: {
    address: string
    topics: string[]
    data: string
    transactionHash: string
    logIndex: string
    blockNumber: string
  }[] = await p.send('eth_getLogs', [{ ...range, address: [c.harvest, ...pools] }])
  const principal = new Map<string, { amount: string; hold: number }>()
  const out = new Map<string, Expected[]>()
  const push = (e: Expected) => out.set(e.account, [...(out.get(e.account) ?? []), e])
  // RewardHarvest emits a claim and stake's Harvested just before its HarvestStaked, after the pool's Staked: those
  // two are what it lists once.
  const hiddenHarvested = new Set<string>()
  const hiddenStaked = new Set<string>()
  for (const l of logs) {
    if (l.address.toLowerCase() !== c.harvest.toLowerCase()) continue
    const e = harvest.parseLog(l)
    if (e?.name !== 'HarvestStaked') continue
    hiddenHarvested.add(`${l.transactionHash}:${Number(l.logIndex) - 1}`)
    hiddenStaked.add(`${l.transactionHash}:${e.args.pool}:${e.args.stakeId}`.toLowerCase())
  }
  for (const l of logs) {
    const at = { txHash: l.transactionHash, logIndex: Number(l.logIndex), blockNumber: Number(l.blockNumber) }
    const none = { pool: null, stakeId: null, amount: null, amountOut: null, fee: null, forfeited: null, hold: null }
    if (l.address.toLowerCase() === c.harvest.toLowerCase()) {
      const e = harvest.parseLog(l)
      if (
        e?.name === 'Harvested' &&
        !hiddenHarvested.has(`${l.transactionHash}:${Number(l.logIndex)}`) &&
        e.args.token.toLowerCase() === c.token.toLowerCase()
      )
        push({ ...none, ...at, kind: 'claim', account: e.args.user.toLowerCase(), amount: e.args.amount.toString() })
      if (e?.name === 'HarvestStaked')
        push({
          ...none,
          ...at,
          kind: 'claim-stake',
          account: e.args.user.toLowerCase(),
          pool: e.args.pool.toLowerCase(),
          stakeId: e.args.stakeId.toString(),
          amount: e.args.amount.toString(),
          hold: Number(e.args.hold),
        })
      continue
    }
    const e = pool.parseLog(l)
    const key = (user: string, id: bigint) => `${l.address}:${user}:${id}`.toLowerCase()
    if (e?.name === 'Staked') {
      principal.set(key(e.args.user, e.args.id), { amount: e.args.amount.toString(), hold: Number(e.args.holdTime) })
      if (!hiddenStaked.has(`${l.transactionHash}:${l.address}:${e.args.id}`.toLowerCase()))
        push({
          ...none,
          ...at,
          kind: 'stake',
          account: e.args.user.toLowerCase(),
          pool: l.address.toLowerCase(),
          stakeId: e.args.id.toString(),
          amount: e.args.amount.toString(),
          hold: Number(e.args.holdTime),
        })
    }
    if (e?.name === 'Unstaked') {
      const s = principal.get(key(e.args.user, e.args.id))!
      push({
        ...at,
        kind: 'close',
        account: e.args.user.toLowerCase(),
        pool: l.address.toLowerCase(),
        stakeId: e.args.id.toString(),
        amount: s.amount,
        amountOut: e.args.amountOut.toString(),
        fee: e.args.fee.toString(),
        forfeited: e.args.forfeited.toString(),
        hold: s.hold,
      })
    }
  }
  for (const list of out.values()) list.reverse()
  return out
}

/** All of `account`'s activity from the API, page by page (`limit` a page), in the API's own shape. */
export async function fetchAllActivity(url: string, account: string, limit = 50) {
  const items: Record<string, unknown>[] = []
  let cursor: string | null = null
  for (let pages = 0; pages < 10_000; pages++) {
    const r = await getJson(`${url}/activity/${account}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    if (r.status !== 200) throw new Error(`activity answered ${r.status}: ${JSON.stringify(r.body)}`)
    items.push(...r.body.items)
    cursor = r.body.next
    if (!cursor) return items
  }
  throw new Error('activity pages never ended')
}

/** An API item in the scan's shape (no time; pool lower-case). */
export const asExpected = (account: string, i: Record<string, unknown>): Expected => ({
  kind: i.kind as ActivityItem['kind'],
  account: account.toLowerCase(),
  pool: i.pool ? (i.pool as string).toLowerCase() : null,
  stakeId: i.stakeId as string | null,
  amount: i.amount as string | null,
  amountOut: i.amountOut as string | null,
  fee: i.fee as string | null,
  forfeited: i.forfeited as string | null,
  hold: i.hold as number | null,
  txHash: i.txHash as string,
  logIndex: i.logIndex as number,
  blockNumber: i.blockNumber as number,
})
