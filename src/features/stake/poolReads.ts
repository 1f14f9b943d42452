/** The staking page's reads while it is open: the pool, the wallet's figures and the stake list (docs/architecture.md §7). */
import type { SagaIterator, Task } from 'redux-saga'
import { all, call, cancel, delay, fork, put, race, take, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { ZeroAddress, type Block } from 'ethers'
import { retryDelayMs } from '../../kit/backoff'
import { lists, timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain } from '../../chain/sagaContext'
import { safely } from '../../kit/safely'
import { contracts } from '../../chain/contracts'
import { readFailureMessage } from '../../chain/errors'
import type { ChainLayer } from '../../chain/layer'
import { txConfirmed } from '../../chain/txActions'
import type { Lens } from '../../chain/types'
import { allowanceLoaded, tokenLoaded, tokenNamed } from '../token/slice'
import { accountViewSet, walletChanged } from '../wallet/slice'
import { selectReadNetwork, selectViewedAddress } from '../wallet/selectors'
import { selectActivePoolId, selectListStatus, selectStake } from './selectors'
import {
  autoUpdateChanged,
  moreStakesRequested,
  poolFailed,
  poolReadBehind,
  poolLoaded,
  listHolderChanged,
  poolRequested,
  poolSelected,
  stakeRefreshRequested,
  stakesFailed,
  stakesPageLoaded,
  stakingPageClosed,
  type StakeEntry,
} from './slice'
import { releaseDayBegan, stakesAt } from './refresh'
import { END_OF_LIST, toPoolInfo, toStakes, type FeeStream, type PoolData, type StakePage } from './lensAnswers'
import { answeredBehind, planBatch, planList, type ReadMode, type ShownState } from './readPlan'
import { nextTask } from '../../kit/nextTask'

const nothing = async (): Promise<null> => null

/** The pool's fee stream, or null when it cannot be read (the page then shows no stream line). */
function* readFeeStream(pool: ReturnType<typeof contracts.pool>): SagaIterator<FeeStream | null> {
  try {
    const [pending, streamEnd]: [bigint, bigint] = yield call([pool, pool.getFeeStream])
    return { pending, streamEnd }
  } catch (err) {
    log.warn('stake', 'fee stream read failed', err)
    return null
  }
}

/** Rows of the stake list and where it continues (null at its end). */
interface StakeRows {
  rows: StakeEntry[]
  next: string | null
}

/**
 * `count` rows of the stake list from `offset` (active stakes, then those closed in the last six months, newest close
 * first), in pages of STAKE_PAGE_SIZE: one Lens call a page, each of constant gas whatever the user's stake count,
 * all sent in the same batch (one round trip). Throws when a page cannot be read.
 */
function* readStakeRows(lens: Lens, pool: string, user: string, offset: number, count: number): SagaIterator<StakeRows> {
  const size = lists.STAKE_PAGE_SIZE
  const pages = Math.max(1, Math.ceil(count / size))
  const results: StakePage[] = yield all(
    Array.from({ length: pages }, (_, k) => call([lens, lens.getUnstakeDataPage], pool, user, offset + k * size, size)),
  )
  const rows: StakeEntry[] = []
  let next: bigint = END_OF_LIST
  for (const page of results) {
    rows.push(...toStakes(page.infos))
    next = page.next
    if (next === END_OF_LIST) break
  }
  return { rows, next: next === END_OF_LIST ? null : next.toString() }
}

/** A read of the stake list that failed: shown with its reason and a Retry, never as an empty list (issue #14). */
function* stakeRowsOrFailure(lens: Lens, pool: string, user: string, count: number): SagaIterator<StakeRows | { error: string }> {
  try {
    return yield call(readStakeRows, lens, pool, user, 0, count)
  } catch (err) {
    log.warn('stake', 'stake list read failed', err)
    return { error: readFailureMessage(err) }
  }
}

/**
 * The rows of `added` stakes made since the last read, when nothing else changed: a new stake takes the list's first
 * position and moves every row down by one, so the rows read before stay in their order after the new ones. That no
 * stake was closed meanwhile is checked from the totals: the user's total staked grew by exactly the new stakes'
 * amounts (a close would take its amount off). Null when that does not hold or the read fails (the caller then reads
 * the rows shown afresh).
 */
function* newRowsOnly(
  lens: Lens,
  user: string,
  data: PoolData,
  before: ShownState,
  added: number,
): SagaIterator<StakeEntry[] | null> {
  if (before.totalStakedByUser === null || before.userStakesCount === null) return null
  try {
    const page: StakePage = yield call([lens, lens.getUnstakeDataPage], data.pool, user, 0, added)
    const rows = toStakes(page.infos)
    const grew = rows.reduce((sum, r) => sum + BigInt(r.stakeAmount), 0n)
    const ok =
      rows.length === added &&
      rows.every((r) => r.active && r.id >= Number(before.userStakesCount)) &&
      BigInt(before.totalStakedByUser) + grew === data.allUserStakesAmount
    return ok ? rows : null
  } catch (err) {
    log.warn('stake', 'new stakes read failed', err)
    return null
  }
}

/**
 * The page's read. One batched JSON-RPC round trip: the pool and wallet figures (Lens.getPoolDataById), the latest
 * block, for a version 1 pool its fee stream (getFeeStream), and on a full read the stake list's rows shown so far
 * (at least one page). A refresh leaves the rows out: when the user's stake count and total staked are what they
 * were, no stake was made or closed, so the rows on screen are brought to the new block from their fixed terms and
 * the pool's rate (refresh.ts); after new stakes alone only their rows are read (newRowsOnly), otherwise the rows
 * shown are read again, in a second round trip. readPlan.ts decides which (planBatch, planList, answeredBehind); this
 * saga carries it out. Throws when the pool read fails; a failed list read is recorded (stakesFailed) and reported
 * as false.
 */
export function* loadPool(mode: ReadMode = 'full'): SagaIterator<boolean | 'behind'> {
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectReadNetwork)
  const poolId = yield* select(selectActivePoolId)
  // The connected wallet's stakes, or the `?account=` address's (read only); none in the public view.
  const wallet = yield* select(selectViewedAddress)
  if (!network || poolId === null) return false
  // Another holder than the rows on screen (a wallet or `?account=` change): those rows go before this read.
  const before = yield* select(selectStake)
  if ((before.owner ?? '').toLowerCase() !== (wallet ?? '').toLowerCase()) yield put(listHolderChanged(wallet))
  const shown = yield* select(selectStake)
  const provider = chain.readProvider(network.chainId)
  const lens = contracts.lens(network.contracts.lens, provider)
  yield put(poolRequested())
  // Building the calls (ethers' encoding, the provider) takes a task of its own, not the one of the click or the page
  // effect that asked (docs/architecture.md §10).
  yield call(nextTask)
  const pageSize = lists.STAKE_PAGE_SIZE
  // The deployment record names its pools, so even the first read of one is a single round trip.
  const listed = network.pools.find((p) => p.id === poolId)
  const plan = planBatch({ mode, poolId, wallet, shown, listed, pageSize })
  const [data, early, block, fees]: [PoolData, StakeRows | { error: string } | null, Block | null, FeeStream | null] = yield all([
    call([lens, lens.getPoolDataById], network.contracts.poolsInfo, poolId, wallet ?? ZeroAddress),
    plan.rowsInBatch ? call(stakeRowsOrFailure, lens, plan.address!, wallet!, plan.rowCount) : call(nothing),
    call([provider, provider.getBlock], 'latest'),
    plan.streams ? call(readFeeStream, contracts.pool(plan.address!, provider)) : call(nothing),
  ])
  // Behind the block of this app's last transaction (a load balancer's lagging backend): asked again in a moment, so
  // a confirmed stake or close shows within a block of its receipt, not at the next 15 s update. Checked before the
  // rows are planned, so an answer set aside costs no second round trip.
  const floor = chain.blockFloor(network.chainId)
  if (block && block.number < floor && shown.behindReads < timers.BEHIND_ATTEMPTS) {
    yield put(poolReadBehind())
    return 'behind'
  }
  const samePool = plan.address !== null && plan.address.toLowerCase() === data.pool.toLowerCase()
  const chainTime = block?.timestamp ?? Math.floor(Date.now() / 1000)
  const answered = {
    userStakesCount: data.userStakesCount.toString(),
    totalStakedByUser: data.allUserStakesAmount.toString(),
  }
  const planned = planList({ plan, wallet, samePool, shown, answered, pageSize })
  // A row whose release day began since it was read stopped gaining at a rate no read has shown: read the rows again.
  const step =
    (planned.kind === 'bringForward' || planned.kind === 'newRows') &&
    releaseDayBegan(shown.userStakes, shown.chainTime, chainTime)
      ? ({ kind: 'readAgain' } as const)
      : planned
  let list: StakeRows | { error: string } | null = null
  if (step.kind === 'asRead') list = early
  else if (step.kind === 'bringForward')
    list = { rows: stakesAt(shown.userStakes, data.state.rate, chainTime, shown.chainTime), next: shown.nextOffset }
  else if (step.kind === 'newRows') {
    const rows: StakeEntry[] | null = yield call(newRowsOnly, lens, wallet!, data, shown, step.added)
    list = rows
      ? { rows: [...rows, ...stakesAt(shown.userStakes, data.state.rate, chainTime, shown.chainTime)], next: step.nextOffset }
      : yield call(stakeRowsOrFailure, lens, data.pool, wallet!, plan.rowCount)
  } else if (step.kind === 'readAgain') list = yield call(stakeRowsOrFailure, lens, data.pool, wallet!, plan.rowCount)
  if (answeredBehind({ shown, poolId, samePool, wallet, block: block?.number ?? null })) {
    log.warn('stake', 'a read answered from a block behind the figures on screen; set aside', {
      answered: block!.number,
      shown: shown.blockNumber,
    })
    yield put(poolReadBehind())
    return true
  }
  // The page renders the answer in a task of its own: decoding it (ethers) and drawing it were one long task on a
  // phone (docs/architecture.md §10).
  yield call(nextTask)
  const failed = list !== null && 'error' in list ? list.error : null
  const rows = list !== null && 'rows' in list ? list : null
  // The token figures and the allowance to this pool come with the same read. They land just before the pool, so a
  // pool just switched to never shows without its allowance. Without a holder to show there are none, but the
  // pool's figures still name the token.
  if (!wallet) yield put(tokenNamed({ name: data.tokenName, symbol: data.tokenSymbol }))
  else {
    yield put(tokenLoaded({ name: data.tokenName, symbol: data.tokenSymbol, balance: data.walletStakeTokenBalance.toString() }))
    yield put(allowanceLoaded({ chainId: network.chainId, owner: wallet, spender: data.pool, amount: data.allowance.toString() }))
  }
  yield put(
    poolLoaded({
      // A stream read of another address (the pool moved) is not this pool's.
      pool: toPoolInfo(data, plan.streams && samePool ? fees : null),
      chainTime,
      readAt: Date.now(),
      blockNumber: block?.number,
      // Without a wallet there is nothing to list (the empty state invites a first deposit).
      userStakes: !wallet ? [] : rows ? rows.rows : null,
      moreStakes: !!rows && rows.next !== null,
      nextOffset: rows?.next ?? null,
      ...answered,
      userShares: data.userShares.toString(),
    }),
  )
  if (failed !== null) {
    yield put(stakesFailed({ error: failed }))
    return false
  }
  return true
}

/**
 * One read of the page; a failure is logged and recorded (the figures on screen stay, marked as not current). An answer
 * from behind the app's last transaction is read again after BEHIND_RETRY_MS.
 */
function* readOnce(mode: ReadMode): SagaIterator<boolean> {
  try {
    for (;;) {
      const done: boolean | 'behind' = yield call(loadPool, mode)
      if (done !== 'behind') return done
      yield delay(timers.BEHIND_RETRY_MS)
    }
  } catch (err) {
    log.warn('stake', 'pool read failed', err)
    const error = readFailureMessage(err)
    yield put(poolFailed({ error }))
    // A list never read for this wallet says so too, rather than 'Loading your stakes…' for as long as the outage.
    const owner = yield* select(selectViewedAddress)
    const listStatus = yield* select(selectListStatus)
    if (owner && listStatus !== 'ok') yield put(stakesFailed({ error }))
    return false
  }
}

/**
 * The page's reads while it is open: a full read, then an update every 15 s (docs/product.md §3.9). The first error
 * stops that cadence, but not silently: the auto-update shows as paused and retries with backoff
 * (retryDelayMs) until a read succeeds, then resumes the 15 s updates by itself; no reload is needed (issue #14,
 * docs/product.md §10.1). Retries re-read the list when it never loaded.
 */
export function* pageReads(): SagaIterator {
  let ok: boolean = yield call(readOnce, 'full')
  for (;;) {
    if (ok) {
      yield put(autoUpdateChanged({ mode: 'running' }))
      yield delay(timers.STAKING_REFRESH_MS)
      ok = yield call(readOnce, 'refresh')
      if (!ok) log.warn('stake', 'auto-update paused at its first error; retrying with backoff')
      continue
    }
    for (let attempt = 0; !ok; attempt++) {
      const wait = retryDelayMs(attempt, Math.random(), timers.RETRY_FIRST_MS, timers.RETRY_MAX_MS)
      yield put(autoUpdateChanged({ mode: 'paused', retryAt: Date.now() + wait }))
      yield delay(wait)
      const listed = yield* select(selectListStatus)
      ok = yield call(readOnce, listed === 'ok' ? 'refresh' : 'full')
    }
  }
}

/** 'Show more': the next page of the list, added after the rows shown; a failure shows under the list with a Retry. */
export function* readMoreStakes(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectReadNetwork)
  const stake = yield* select(selectStake)
  const address = yield* select(selectViewedAddress)
  if (!network || !stake.pool || !address || stake.nextOffset === null) return
  const lens = contracts.lens(network.contracts.lens, chain.readProvider(network.chainId))
  try {
    const page: StakeRows = yield call(
      readStakeRows,
      lens,
      stake.pool.address,
      address,
      Number(stake.nextOffset),
      lists.STAKE_PAGE_SIZE,
    )
    yield put(stakesPageLoaded({ rows: page.rows, nextOffset: page.next }))
  } catch (err) {
    log.warn('stake', 'next page of the stake list failed', err)
    yield put(stakesFailed({ error: readFailureMessage(err) }))
  }
}

/**
 * While the staking page is open. A manual refresh (Retry), a wallet or pool change, or a confirmed transaction of
 * the page cancels the running cycle and starts a new one with a full read; the triggers are watched the whole
 * time, so none is missed while a read is in flight. 'Show more' reads one more page beside the cycle.
 */
export function* whileOnPage(): SagaIterator {
  let cycle: Task = yield fork(pageReads)
  const more: Task = yield takeLeading(moreStakesRequested.type, safely(readMoreStakes))
  try {
    for (;;) {
      const { closed }: { closed?: unknown } = yield race({
        closed: take(stakingPageClosed.type),
        again: take([stakeRefreshRequested.type, walletChanged.type, accountViewSet.type, poolSelected.type]),
        acted: take(
          (a: { type: string; payload?: { kind?: string } }) => a.type === txConfirmed.type && a.payload?.kind !== 'claim',
        ),
      })
      yield cancel(cycle)
      if (closed) return
      cycle = yield fork(pageReads)
    }
  } finally {
    yield cancel(more)
  }
}
