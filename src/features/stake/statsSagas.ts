import type { SagaIterator } from 'redux-saga'
import { call, put, takeLatest } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { timers } from '../../config/timers'
import { safely } from '../../kit/safely'
import { log } from '../../platform/log'
import { IndexReadError, serviceRoot, type IndexPosition } from '../token/activity/api'
import { selectReadNetwork } from '../wallet/selectors'
import { selectChainTime, selectReadAt, selectStats } from './selectors'
import {
  statsFailed,
  statsLoaded,
  statsRangeChosen,
  statsRefreshRequested,
  statsRequested,
  statsShown,
  type StatPoint,
  type StatsRange,
} from './slice'
import { fetchPoolStats } from './statsApi'

const DAY = 86_400
/** Fewer weeks than this since the pool's start: the all-time chart is drawn by day instead (a few weekly points say little). */
export const WEEKS_FOR_WEEKLY = 8

/** Where a period starts (unix seconds, a UTC midnight) on the chain's clock `now`: 7 or 30 days with today. */
export function statsFrom(range: Exclude<StatsRange, 'all'>, now: number): number {
  const today = Math.floor(now / DAY) * DAY
  return today - (range === '7d' ? 6 : 29) * DAY
}

type Answer = { points: StatPoint[] } & IndexPosition

/**
 * The period chosen, for the pool shown (docs/product.md §2.10): 7 and 30 days by day, from that many UTC midnights
 * ago on the chain's clock (a development chain may run ahead of the wall clock); all time by week, or by day while
 * the pool is younger than WEEKS_FOR_WEEKLY weeks. A period read in the last STATS_FRESH_MS is not read again unless
 * Retry asks. A failure keeps what was shown and says why.
 */
export function* loadStats(action: { type: string }): SagaIterator {
  const stats = yield* select(selectStats)
  const network = yield* select(selectReadNetwork)
  const pool = stats.pool
  if (!pool || !network) return
  const range = stats.range
  const read = stats.byRange[range]
  const wallNow: number = yield call(Date.now)
  const fresh = read?.status === 'ok' && read.readAt !== null && wallNow - read.readAt < timers.STATS_FRESH_MS
  if (fresh && action.type !== statsRefreshRequested.type) return
  yield put(statsRequested({ pool, range }))
  const root = serviceRoot(network.vestingApiBase)
  try {
    let interval: 'day' | 'week' = 'day'
    let answer: Answer
    if (range === 'all') {
      answer = yield call(fetchPoolStats, root, pool, 'week', null)
      interval = 'week'
      if (answer.points.length < WEEKS_FOR_WEEKLY) {
        answer = yield call(fetchPoolStats, root, pool, 'day', null)
        interval = 'day'
      }
    } else {
      const chainTime = yield* select(selectChainTime)
      const readAt = yield* select(selectReadAt)
      const chainNow = chainTime > 0 ? chainTime + Math.floor((wallNow - readAt) / 1000) : Math.floor(wallNow / 1000)
      answer = yield call(fetchPoolStats, root, pool, 'day', statsFrom(range, chainNow))
    }
    const { points, ...index } = answer
    yield put(statsLoaded({ pool, range, interval, points, index, at: (yield call(Date.now)) as number }))
  } catch (err) {
    log.warn('stake', 'the pool statistics could not be read', err)
    const failure =
      err instanceof IndexReadError
        ? { error: err.message, failure: err.reason }
        : { error: "Can't reach the statistics service.", failure: 'down' as const }
    yield put(statsFailed({ pool, range, ...failure }))
  }
}

export function* statsSaga(): SagaIterator {
  // The newest ask wins: a period chosen while another is read replaces it.
  yield takeLatest([statsShown.type, statsRangeChosen.type, statsRefreshRequested.type], safely(loadStats))
}
