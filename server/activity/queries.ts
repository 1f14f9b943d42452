import { sql, type Kysely } from 'kysely'
import { getAddress } from 'ethers'
import type { IndexTables } from '../db/schema'
import type { Position } from './cursor'
import type { ActivityItem, ActivityKind, StatPoint } from '../../src/domain/activityAnswer'

export type { ActivityItem, ActivityKind } from '../../src/domain/activityAnswer'

/** Pools are few: each one's checksum (a keccak) is computed once, not once an item. */
const checksums = new Map<string, string>()
function checksummed(address: string) {
  let c = checksums.get(address)
  if (!c) checksums.set(address, (c = getAddress(address)))
  return c
}

const iso = (seconds: number | string) => new Date(Number(seconds) * 1000).toISOString()
const orNull = <T>(v: T | null | undefined) => (v === undefined ? null : v)

/** One page of `account`'s activity, newest first, after `after` (exclusive); one item more tells if there is a next page. */
export async function activityPage(db: Kysely<IndexTables>, account: string, after: Position | null, limit: number) {
  let q = db
    .selectFrom('events')
    .select([
      'kind',
      'pool',
      'stake_id',
      'amount',
      'amount_out',
      'fee',
      'forfeited',
      'hold',
      'tx_hash',
      'log_index',
      'block_number',
      'time',
    ])
    .where('account', '=', account.toLowerCase())
    .where('kind', 'is not', null)
  // A row comparison, which the index scan takes as its bound (an OR of the two columns it would filter row by row).
  if (after) q = q.where(sql<boolean>`(block_number, log_index) < (${after.block}, ${after.logIndex})`)
  const rows = await q
    .orderBy('block_number', 'desc')
    .orderBy('log_index', 'desc')
    .limit(limit + 1)
    .execute()
  const items: ActivityItem[] = rows.slice(0, limit).map((r) => ({
    kind: r.kind as ActivityKind,
    pool: r.pool ? checksummed(r.pool) : null,
    stakeId: orNull(r.stake_id),
    amount: orNull(r.amount),
    amountOut: orNull(r.amount_out),
    fee: orNull(r.fee),
    forfeited: orNull(r.forfeited),
    hold: r.hold === null ? null : Number(r.hold),
    txHash: r.tx_hash,
    logIndex: r.log_index,
    blockNumber: Number(r.block_number),
    time: iso(r.time),
  }))
  const last = items[items.length - 1]
  return { items, next: rows.length > limit && last ? { block: last.blockNumber, logIndex: last.logIndex } : null }
}

export const INTERVALS = { day: 86_400, week: 7 * 86_400 } as const
export type Interval = keyof typeof INTERVALS
/** 1970-01-05, a Monday: weeks start on Mondays, days at midnight UTC. */
const WEEK_ORIGIN = 4 * 86_400
const origin = (interval: Interval) => (interval === 'week' ? WEEK_ORIGIN : 0)

/** Whether `pool` is one the index knows. */
export async function isIndexedPool(db: Kysely<IndexTables>, pool: string) {
  return !!(await db.selectFrom('pools').select('address').where('address', '=', pool.toLowerCase()).executeTakeFirst())
}

/** The first event time and the last block time of `pool` in the index (null when it has no events). */
export async function poolSpan(db: Kysely<IndexTables>, pool: string) {
  const r = await db
    .selectFrom('events')
    .select((eb) => [eb.fn.min('time').as('first')])
    .where('pool', '=', pool.toLowerCase())
    .where('event', 'in', ['Staked', 'Unstaked', 'FeesReleased'])
    .executeTakeFirst()
  return r?.first === null || r?.first === undefined ? null : Number(r.first)
}

/**
 * `pool`'s statistics in buckets of `interval` from `from` to `to` (unix seconds): what was staked, closed and shared
 * as fees in each, and the total staked and the number of stakers at its end. A staker is an account with at least one
 * active stake; totals count every event before `from` too.
 */
export async function poolStats(
  db: Kysely<IndexTables>,
  pool: string,
  interval: Interval,
  from: number,
  to: number,
): Promise<StatPoint[]> {
  const size = INTERVALS[interval]
  const o = origin(interval)
  const first = Math.floor((from - o) / size)
  const last = Math.floor((to - o) / size)
  // Per bucket (all before `from` in one): sums, and each account's change to the stakers (its first active stake
  // opens it, its last close ends it), from a running count of the account's active stakes.
  const rows = await sql<{
    bucket: string | number
    dstaked: string
    staked: string
    closed: string
    fees: string
    dstakers: string | number
  }>`
    with ev as (
      select time, event, amount, to_holders,
        case when event in ('Staked', 'Unstaked')
          then sum(case event when 'Staked' then 1 when 'Unstaked' then -1 else 0 end)
            over (partition by account order by block_number, log_index) end as active
      from events
      where pool = ${pool.toLowerCase()} and event in ('Staked', 'Unstaked', 'FeesReleased') and time <= ${to}
    )
    select greatest(floor((time - ${o}) / ${size}), ${first - 1})::bigint as bucket,
      coalesce(sum(case event when 'Staked' then amount when 'Unstaked' then -amount else 0 end), 0)::text as dstaked,
      coalesce(sum(case when event = 'Staked' then amount else 0 end), 0)::text as staked,
      coalesce(sum(case when event = 'Unstaked' then amount else 0 end), 0)::text as closed,
      coalesce(sum(case when event = 'FeesReleased' then to_holders else 0 end), 0)::text as fees,
      coalesce(sum(case when event = 'Staked' and active = 1 then 1 when event = 'Unstaked' and active = 0 then -1 else 0 end), 0)::bigint as dstakers
    from ev group by 1 order by 1`.execute(db)
  const byBucket = new Map(rows.rows.map((r) => [Number(r.bucket), r]))
  const before = byBucket.get(first - 1)
  let total = BigInt(before?.dstaked ?? 0)
  let stakers = Number(before?.dstakers ?? 0)
  const points: StatPoint[] = []
  for (let b = first; b <= last; b++) {
    const r = byBucket.get(b)
    total += BigInt(r?.dstaked ?? 0)
    stakers += Number(r?.dstakers ?? 0)
    points.push({
      time: iso(b * size + o),
      totalStaked: total.toString(),
      stakers,
      staked: r?.staked ?? '0',
      closed: r?.closed ?? '0',
      fees: r?.fees ?? '0',
    })
  }
  return points
}
