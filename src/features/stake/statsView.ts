import { lists } from '../../config/timers'
import { formatDate, formatDayMonth } from '../../format/dates'
import { formatAmount, formatCount } from '../../format/units'
import type { StatPoint, StatsRange, StatsRead } from './slice'
import type { IndexNotice } from '../../ui/IndexNoticeBox'

/**
 * The statistics block as it shows (docs/product.md §2.10), from one period's read: the chart's points in whole
 * tokens, the same figures as a table, a summary line, and what to say instead of or above them. Pure: the selector
 * gives it the read, the period and the symbol.
 */

const DAY = 86_400
const STEP = { day: DAY, week: 7 * DAY }

export const RANGES: { id: StatsRange; label: string; words: string }[] = [
  { id: '7d', label: '7 days', words: 'the last 7 days' },
  { id: '30d', label: '30 days', words: 'the last 30 days' },
  { id: 'all', label: 'All time', words: "the pool's life" },
]

/** One bucket for the chart: its start (unix seconds), axis label, and figures in whole tokens. */
export interface ChartPoint {
  at: number
  label: string
  totalStaked: number
  stakers: number
  fees: number
}

export interface StatsTableRow {
  key: string
  date: string
  totalStaked: string
  stakers: string
  staked: string
  closed: string
  fees: string
}

export interface StatsView {
  range: StatsRange
  loading: boolean
  interval: 'day' | 'week'
  chart: ChartPoint[]
  table: StatsTableRow[]
  /** In words, for everyone and for screen readers before the table. */
  summary: { totalStaked: string; change: string; stakers: string; fees: string } | null
  notice: IndexNotice | null
  empty: string | null
  symbol: string
}

/**
 * Buckets the index had nothing to say about (no event in them) between two it listed: the totals carry over, and
 * nothing was staked, closed or shared in them.
 */
export function fillBuckets(points: StatPoint[], interval: 'day' | 'week'): StatPoint[] {
  const out: StatPoint[] = []
  for (const p of points) {
    const prev = out[out.length - 1]
    if (prev) {
      for (let t = Date.parse(prev.time) + STEP[interval] * 1000; t < Date.parse(p.time); t += STEP[interval] * 1000)
        out.push({ ...prev, time: new Date(t).toISOString(), staked: '0', closed: '0', fees: '0' })
    }
    out.push(p)
  }
  return out
}

const tokensOf = (baseUnits: string) => Number(formatAmount(baseUnits, { exact: true }))

export function statsView(read: StatsRead | undefined, range: StatsRange, symbol: string): StatsView {
  const interval = read?.interval ?? 'day'
  const points = read ? fillBuckets(read.points, interval) : []
  const words = RANGES.find((r) => r.id === range)!.words
  const chart = points.map((p) => {
    const at = Math.floor(Date.parse(p.time) / 1000)
    return {
      at,
      label: formatDayMonth(at),
      totalStaked: tokensOf(p.totalStaked),
      stakers: p.stakers,
      fees: tokensOf(p.fees),
    }
  })
  const table = points.map((p) => ({
    key: p.time,
    date: `${interval === 'week' ? 'Week of ' : ''}${formatDate(p.time)}`,
    totalStaked: formatAmount(p.totalStaked),
    stakers: formatCount(p.stakers),
    staked: formatAmount(p.staked),
    closed: formatAmount(p.closed),
    fees: formatAmount(p.fees),
  }))
  const first = points[0]
  const last = points[points.length - 1]
  let summary: StatsView['summary'] = null
  if (first && last) {
    // The total at the period's start: the first bucket's end, less what it staked, plus what it closed.
    const start = BigInt(first.totalStaked) - BigInt(first.staked) + BigInt(first.closed)
    const change = BigInt(last.totalStaked) - start
    const fees = points.reduce((sum, p) => sum + BigInt(p.fees), 0n)
    const sign = change > 0n ? '+' : change < 0n ? '-' : ''
    summary = {
      totalStaked: formatAmount(last.totalStaked, { symbol }),
      change: `${sign}${formatAmount(change < 0n ? -change : change, { symbol })} over ${words}`,
      stakers: formatCount(last.stakers),
      fees: `${formatAmount(fees, { symbol })} over ${words}`,
    }
  }
  const lag = read?.index?.lag ?? 0
  const behind = read?.status === 'ok' && lag > lists.INDEX_LAG_TOLERATED
  let notice: IndexNotice | null = null
  if (read?.status === 'failed') {
    const kept = points.length > 0 ? ' The charts show them as last read.' : ''
    notice =
      read.failure === 'starting'
        ? {
            kind: 'starting',
            title: 'The statistics index is starting',
            text: `It has not read the chain yet; the charts show once it has.${kept}`,
            reason: null,
            retry: true,
          }
        : read.failure === 'down'
          ? {
              kind: 'down',
              title: "Can't reach the statistics service",
              text: `The pool's statistics cannot be read right now.${kept}`,
              reason: read.error,
              retry: true,
            }
          : {
              kind: 'refused',
              title: 'The statistics service could not answer',
              text: `No statistics can be shown for this pool right now.${kept}`,
              reason: read.error,
              retry: true,
            }
  } else if (behind) {
    notice = {
      kind: 'behind',
      title: `The statistics are ${formatCount(lag)} blocks behind the chain`,
      text: 'The latest stakes and closes may be missing; the charts catch up by themselves.',
      reason: null,
      retry: false,
    }
  }
  const empty =
    read?.status === 'ok' && points.length === 0
      ? behind
        ? `Nothing indexed for this pool up to block ${formatCount(read.index!.indexedBlock)} yet.`
        : range === 'all'
          ? 'No stakes in this pool yet.'
          : `No stakes in this pool in ${words}.`
      : null
  return {
    range,
    loading: !read || (read.status === 'loading' && points.length === 0),
    interval,
    chart,
    table,
    summary,
    notice,
    empty,
    symbol,
  }
}
