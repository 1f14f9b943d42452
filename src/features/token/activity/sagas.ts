import type { SagaIterator, Task } from 'redux-saga'
import { call, cancel, delay, fork, put, race, take, takeLatest, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { lists, timers } from '../../../config/timers'
import { getEnv } from '../../../chain/sagaContext'
import { txConfirmed } from '../../../chain/txActions'
import { retryDelayMs } from '../../../kit/backoff'
import { safely } from '../../../kit/safely'
import type { BrowserEnv } from '../../../platform/browserEnv'
import { log } from '../../../platform/log'
import { accountViewSet, walletChanged } from '../../wallet/slice'
import { selectReadNetwork, selectViewedAddress } from '../../wallet/selectors'
import {
  activityExportRequested,
  activityExportSettled,
  activityFailed,
  activityHidden,
  activityHolderChanged,
  activityLoaded,
  activityRefreshRequested,
  activityRequested,
  activityRetryScheduled,
  activityShown,
  moreActivityFailed,
  moreActivityLoaded,
  moreActivityRequested,
} from '../slice'
import { fetchActivityPage, IndexReadError, serviceRoot, type ActivityItem, type ActivityPage } from './api'
import { activityCsv, activityCsvName } from './csv'
import { activityKindOf, itemKey } from './list'
import { selectActivity, selectActivityHolder, selectActivityWaiting } from './selectors'

/** At most this many pages are read for one export (200 events each): a cursor that never ends stops here. */
const EXPORT_MAX_PAGES = 10_000

/** Why a read failed, for the slice: the API's own words when it answered, else that it could not be reached. */
function failureOf(err: unknown): { error: string; failure: 'down' | 'starting' | 'refused' | 'malformed' } {
  if (err instanceof IndexReadError) return { error: err.message, failure: err.reason }
  return { error: "Can't reach the activity service.", failure: 'down' }
}

/** The holder shown (lower case) on the network read, or null when there is nobody's history to show. */
function* whose(): SagaIterator<{ root: string; holder: string; chainId: number } | null> {
  const network = yield* select(selectReadNetwork)
  const viewed = yield* select(selectViewedAddress)
  if (!network || !viewed) return null
  return { root: serviceRoot(network.vestingApiBase), holder: viewed.toLowerCase(), chainId: network.chainId }
}

/**
 * The newest page of the holder's history. Another holder or chain than the list's drops the list first
 * (activityHolderChanged), so one holder's history never shows under another's name. Returns whether it answered;
 * null when there is nobody to read for.
 */
export function* readFirstPage(quiet: boolean): SagaIterator<boolean | null> {
  const who: { root: string; holder: string; chainId: number } | null = yield call(whose)
  if (!who) return null
  const shown = yield* select(selectActivityHolder)
  if (shown.holder !== who.holder || shown.chainId !== who.chainId)
    yield put(activityHolderChanged({ holder: who.holder, chainId: who.chainId }))
  yield put(activityRequested())
  try {
    const page: ActivityPage = yield call(fetchActivityPage, who.root, who.holder, null, lists.ACTIVITY_PAGE_SIZE)
    yield put(activityLoaded({ page, at: (yield call(Date.now)) as number }))
    return true
  } catch (err) {
    // Only the first failure of an outage is logged; its retries say nothing new.
    if (!quiet) log.warn('activity', 'the activity index could not be read', err)
    yield put(activityFailed(failureOf(err)))
    return false
  }
}

/**
 * Keeps the list current while the section is on screen: the newest page now, then every ACTIVITY_REFRESH_MS, or
 * every ACTIVITY_CATCH_UP_MS while something waits for the index (a sent transaction it has not listed, or the index
 * behind the chain), so a pending line turns into the indexed one within seconds of the index reading it. A failure
 * is retried with backoff (the section says so meanwhile) until the service answers.
 */
export function* keepCurrent(): SagaIterator {
  try {
    for (let failures = 0; ;) {
      const ok: boolean | null = yield call(readFirstPage, failures > 0)
      if (ok === null) return
      if (ok) {
        failures = 0
        const waiting = yield* select(selectActivityWaiting)
        yield delay(waiting ? timers.ACTIVITY_CATCH_UP_MS : timers.ACTIVITY_REFRESH_MS)
        continue
      }
      const wait = retryDelayMs(failures++, Math.random(), timers.RETRY_FIRST_MS, timers.RETRY_MAX_MS)
      yield put(activityRetryScheduled(Date.now() + wait))
      yield delay(wait)
    }
  } finally {
    yield put(activityRetryScheduled(null))
  }
}

/** "Load more" (or the end of the list scrolled into view): the next older page, after the list. */
export function* readMore(): SagaIterator {
  const who: { root: string; holder: string; chainId: number } | null = yield call(whose)
  const a = yield* select(selectActivity)
  if (!who || a.next === null || a.holder !== who.holder) return
  const cursor = a.next
  try {
    const page: ActivityPage = yield call(fetchActivityPage, who.root, who.holder, cursor, lists.ACTIVITY_PAGE_SIZE)
    yield put(moreActivityLoaded({ page, cursor }))
  } catch (err) {
    log.warn('activity', 'the next page of the activity could not be read', err)
    yield put(moreActivityFailed({ error: failureOf(err).error }))
  }
}

/**
 * "Export CSV": the whole history, not only the pages on screen. Every page is read from the newest, following
 * `next` to the end (ACTIVITY_EXPORT_PAGE_SIZE events a request, the API's most), then saved as one file through the
 * browser environment. The pages read stay out of the store: the list on screen keeps its own pages.
 */
export function* exportActivity(): SagaIterator {
  const who: { root: string; holder: string; chainId: number } | null = yield call(whose)
  if (!who) {
    yield put(activityExportSettled({ rows: 0, error: 'There is no address to export the history of.' }))
    return
  }
  const items: ActivityItem[] = []
  const seen = new Set<string>()
  try {
    let cursor: string | null = null
    for (let pages = 0; pages < EXPORT_MAX_PAGES; pages++) {
      const page: ActivityPage = yield call(fetchActivityPage, who.root, who.holder, cursor, lists.ACTIVITY_EXPORT_PAGE_SIZE)
      for (const item of page.items) {
        if (seen.has(itemKey(item))) continue
        seen.add(itemKey(item))
        items.push(item)
      }
      if (page.next === null || page.next === cursor) break
      cursor = page.next
    }
    const env: BrowserEnv = yield getEnv()
    yield call([env, env.saveFile], activityCsvName(who.holder), activityCsv(items), 'text/csv')
    yield put(activityExportSettled({ rows: items.length, error: null }))
  } catch (err) {
    log.warn('activity', 'the activity export could not read the history', err)
    yield put(activityExportSettled({ rows: items.length, error: failureOf(err).error }))
  }
}

/** A confirmed transaction of the history's kinds: the index will list it shortly, so the list reads again now. */
const historyConfirmed = (a: { type: string; payload?: { kind?: Parameters<typeof activityKindOf>[0] } }) =>
  a.type === txConfirmed.type && !!a.payload?.kind && activityKindOf(a.payload.kind) !== null

/**
 * While the section is on screen (either page): a read cycle, restarted by Retry, a wallet or `?account=` change and
 * a confirmed transaction of the history, and "Load more" beside it; all of it stops when the section goes.
 */
export function* whileShown(): SagaIterator {
  let cycle: Task = yield fork(keepCurrent)
  const more: Task = yield takeLeading(moreActivityRequested.type, safely(readMore))
  try {
    for (;;) {
      const { hidden }: { hidden?: unknown } = yield race({
        hidden: take(activityHidden.type),
        again: take([activityRefreshRequested.type, walletChanged.type, accountViewSet.type]),
        acted: take(historyConfirmed),
      })
      yield cancel(cycle)
      if (hidden) return
      cycle = yield fork(keepCurrent)
    }
  } finally {
    yield cancel(more)
  }
}

export function* activitySaga(): SagaIterator {
  // The newest showing wins: each page's section starts its own cycle (the other page's has gone).
  yield takeLatest(activityShown.type, safely(whileShown))
  // One export at a time: a second click while one reads is ignored.
  yield takeLeading(activityExportRequested.type, safely(exportActivity))
}
