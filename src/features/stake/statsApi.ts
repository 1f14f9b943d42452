import { getIndexJson, malformed, parseIndexPosition, type IndexPosition } from '../token/activity/api'
import type { StatPoint } from './slice'

const DIGITS = /^\d+$/
const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** A pool's statistics as documented, checked field by field: buckets in time order, amounts in base units. */
export function parsePoolStats(body: unknown): { points: StatPoint[] } & IndexPosition {
  const b = body as Record<string, unknown> | null
  if (!b || typeof b !== 'object' || !Array.isArray(b.points)) throw malformed('statistics')
  let last = -Infinity
  const points = b.points.map((raw: unknown) => {
    const p = raw as Record<string, unknown> | null
    const at = typeof p?.time === 'string' ? Date.parse(p.time) : NaN
    const ok =
      p !== null &&
      at > last &&
      count(p.stakers) &&
      (['totalStaked', 'staked', 'closed', 'fees'] as const).every((k) => typeof p[k] === 'string' && DIGITS.test(p[k]))
    if (!ok) throw malformed('statistics')
    last = at
    const q = p as Record<string, string> & { stakers: number }
    return { time: q.time, totalStaked: q.totalStaked, stakers: q.stakers, staked: q.staked, closed: q.closed, fees: q.fees }
  })
  return { points, ...parseIndexPosition(b, 'statistics') }
}

/**
 * GET {api}/stats/pool/:pool?interval=&from=: the pool's buckets from `from` (unix seconds; the pool's first indexed
 * event when null) to what the index has read.
 */
export async function fetchPoolStats(
  root: string,
  pool: string,
  interval: 'day' | 'week',
  from: number | null,
  fetchImpl: typeof fetch = fetch,
): Promise<{ points: StatPoint[] } & IndexPosition> {
  const query = new URLSearchParams({ interval, ...(from !== null ? { from: String(from) } : {}) })
  return parsePoolStats(await getIndexJson(`${root}/stats/pool/${pool}?${query}`, 'statistics', fetchImpl))
}
