import type { SagaIterator, Task } from 'redux-saga'
import { all, call, cancel, delay, fork, put, race, select, take, takeLatest, takeLeading } from 'redux-saga/effects'
import { ZeroAddress, type Block, type Signer } from 'ethers'
import { retryDelayMs } from '../../app/backoff'
import { lists, timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain } from '../../chain/sagaContext'
import { safely } from '../../app/safely'
import { contracts } from '../../chain/contracts'
import { isUserRejection, readFailureMessage, toUserMessage } from '../../chain/errors'
import type { ChainLayer } from '../../chain/layer'
import { boundsOf, DAY, previewStake } from '../../domain/math'
import { permitDomain, signPermit } from '../../domain/permit'
import { runTx, type TxOutcome } from '../../chain/tx'
import { txConfirmed } from '../../chain/txActions'
import type { Lens } from '../../chain/types'
import { allowanceLoaded, tokenLoaded } from '../token/slice'
import { modalClosed, walletChanged } from '../wallet/slice'
import { selectAddress, selectNetworkId, selectSupportedNetwork } from '../wallet/selectors'
import { poolMath, selectActivePoolId, selectListStatus, selectPool, selectStake } from './selectors'
import {
  allowanceCheckRequested,
  approveRequested,
  approveSettled,
  autoUpdateChanged,
  depositRequested,
  depositWithPermitRequested,
  depositSettled,
  moreStakesRequested,
  poolFailed,
  poolReadBehind,
  poolLoaded,
  poolRequested,
  poolSelected,
  stakeRefreshRequested,
  stakesFailed,
  stakesPageLoaded,
  stakingPageClosed,
  stakingPageOpened,
  unstakeRequested,
  unstakeSettled,
  type DepositRequest,
  type DepositTerms,
  type ListStatus,
  type PoolInfo,
  type StakeEntry,
  type StakeState,
} from './slice'
import { stakesAt } from './refresh'

type Network = NonNullable<ReturnType<typeof selectSupportedNetwork>>
type PoolData = Awaited<ReturnType<Lens['getPoolDataById']>>
type StakePage = Awaited<ReturnType<Lens['getUnstakeDataPage']>>
type StakeInfos = StakePage['infos']
/** getFeeStream of a version 1 pool: fees not yet released (base units) and when the stream ends (unix seconds). */
type FeeStream = { pending: bigint; streamEnd: bigint }
/** The Lens's `next` at the end of a user's list. */
const END_OF_LIST = 2n ** 256n - 1n

function toPoolInfo(d: PoolData, fees: FeeStream | null): PoolInfo {
  const s = d.state
  return {
    id: Number(d.poolId),
    address: d.pool,
    version: Number(s.version),
    totalStaked: s.totalStaked.toString(),
    totalShares: s.totalShares.toString(),
    rate: s.rate.toString(),
    inflationPercent: s.inflationPercent.toString(),
    refererBonusPercent: s.refererBonusPercent.toString(),
    timeBonusPercent: s.timeBonusPercent.toString(),
    unHoldFee: s.unHoldFee.toString(),
    holdTimeRefMin: Number(s.holdTimeRefMin),
    holdTimeMax: Number(s.holdTimeMax),
    reservoirAvailable: s.reservoirAvailable.toString(),
    stakingPaused: s.stakingPaused,
    stakersCount: Number(s.stakersCount),
    feesStreaming: (fees?.pending ?? 0n).toString(),
    feeStreamEnd: Number(fees?.streamEnd ?? 0n),
  }
}

function toStakes(infos: StakeInfos): StakeEntry[] {
  return infos.map((i) => ({
    id: Number(i.stakeId),
    active: i.stake.active,
    stakeTime: Number(i.stake.stakeTime),
    holdTime: Number(i.stake.holdTime),
    closeTime: Number(i.stake.closeTime),
    stakeAmount: i.stake.stakeAmount.toString(),
    lpAmount: i.stake.lpAmount.toString(),
    bonus: i.stake.bonus.toString(),
    reward: i.stake.reward.toString(),
    unHoldFee: i.stake.unHoldFee.toString(),
    gains: i.stake.gains.toString(),
    entryRate: i.stake.entryRate.toString(),
    amountOut: i.amountOut.toString(),
    fee: i.fee.toString(),
    forfeited: i.forfeited.toString(),
  }))
}

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
  before: StakeState,
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

/** How a read treats the stake list: read it afresh ('full'), or only when a stake was made or closed ('refresh'). */
export type ReadMode = 'full' | 'refresh'

/**
 * The page's read. One batched JSON-RPC round trip: the pool and wallet figures (Lens.getPoolDataById), the latest
 * block, for a version 1 pool its fee stream (getFeeStream), and on a full read the stake list's rows shown so far
 * (at least one page). A refresh leaves the rows out: when the user's stake count and total staked are what they
 * were, no stake was made or closed, so the rows on screen are brought to the new block from their fixed terms and
 * the pool's rate (refresh.ts); after new stakes alone only their rows are read (newRowsOnly), otherwise the rows
 * shown are read again, in a second round trip. The pool's address and version
 * come from the last read or the deployment record; for a pool neither knows, the list follows in a second round
 * trip. Throws when the pool read fails; a failed list read is recorded (stakesFailed) and reported as false.
 */
export function* loadPool(mode: ReadMode = 'full'): SagaIterator<boolean> {
  const chain: ChainLayer = yield getChain()
  const network: Network | null = yield select(selectSupportedNetwork)
  const poolId: number | null = yield select(selectActivePoolId)
  const address: string | null = yield select(selectAddress)
  if (!network || poolId === null) return false
  const before: StakeState = yield select(selectStake)
  const known = before.pool
  const user = address ?? ZeroAddress
  const provider = chain.readProvider(network.chainId)
  const lens = contracts.lens(network.contracts.lens, provider)
  yield put(poolRequested())
  // The deployment record names its pools, so even the first read of one is a single round trip.
  const listed = network.pools.find((p) => p.id === poolId)
  const knownAddress = (known?.id === poolId ? known.address : null) ?? listed?.address ?? null
  const knownVersion = (known?.id === poolId ? known.version : null) ?? listed?.version ?? null
  // Only version 1 streams fees: a version 2 page keeps its three calls.
  const streams = knownAddress !== null && knownVersion === 1
  // What the list holds for this wallet now; a refresh can reuse it only when it was read.
  const listed_ = before.listStatus === 'ok' || before.listStatus === 'failed' ? before.userStakes : null
  const reuse = mode === 'refresh' && before.listStatus === 'ok' && before.userStakesCount !== null
  const rowCount = Math.max(lists.STAKE_PAGE_SIZE, listed_?.length ?? 0)
  const [data, early, block, fees]: [PoolData, StakeRows | { error: string } | null, Block | null, FeeStream | null] = yield all([
    call([lens, lens.getPoolDataById], network.contracts.poolsInfo, poolId, user),
    knownAddress && address && !reuse ? call(stakeRowsOrFailure, lens, knownAddress, address, rowCount) : call(nothing),
    call([provider, provider.getBlock], 'latest'),
    streams ? call(readFeeStream, contracts.pool(knownAddress, provider)) : call(nothing),
  ])
  const samePool = knownAddress !== null && knownAddress.toLowerCase() === data.pool.toLowerCase()
  const chainTime = block?.timestamp ?? Math.floor(Date.now() / 1000)
  let list: StakeRows | { error: string } | null = early
  if (address) {
    const unchanged =
      reuse &&
      samePool &&
      before.userStakesCount === data.userStakesCount.toString() &&
      before.totalStakedByUser === data.allUserStakesAmount.toString()
    const added = reuse && samePool ? Number(data.userStakesCount) - Number(before.userStakesCount) : 0
    if (unchanged)
      list = {
        rows: stakesAt(before.userStakes, data.state.rate, chainTime),
        next: before.nextOffset,
      }
    else if (added > 0 && added <= lists.STAKE_PAGE_SIZE) {
      // Only stakes were made (the usual change): read just the new rows, which come first, and bring the rest up.
      const rows: StakeEntry[] | null = yield call(newRowsOnly, lens, address, data, before, added)
      list = rows
        ? {
            rows: [...rows, ...stakesAt(before.userStakes, data.state.rate, chainTime)],
            next: before.nextOffset === null ? null : (BigInt(before.nextOffset) + BigInt(added)).toString(),
          }
        : yield call(stakeRowsOrFailure, lens, data.pool, address, rowCount)
    } else if (!samePool || reuse) list = yield call(stakeRowsOrFailure, lens, data.pool, address, rowCount)
  }
  // A node behind the one that answered last would take the figures back to an older block without a word (a stake
  // just confirmed would vanish from them): such an answer is set aside, unless three in a row come from behind,
  // which means the chain itself went back (a restarted local chain, a reorganisation).
  const sameView = samePool && known?.id === poolId && (before.owner ?? '').toLowerCase() === (address ?? '').toLowerCase()
  if (sameView && block && before.blockNumber !== null && block.number < before.blockNumber && before.behindReads < 2) {
    log.warn('stake', 'a read answered from a block behind the figures on screen; set aside', {
      answered: block.number,
      shown: before.blockNumber,
    })
    yield put(poolReadBehind())
    return true
  }
  const failed = list !== null && 'error' in list ? list.error : null
  const rows = list !== null && 'rows' in list ? list : null
  // The token figures and the allowance to this pool come with the same read. They land just before the pool, so a
  // pool just switched to never shows without its allowance. Without a wallet there are none.
  if (address) {
    yield put(tokenLoaded({ name: data.tokenName, symbol: data.tokenSymbol, balance: data.walletStakeTokenBalance.toString() }))
    yield put(
      allowanceLoaded({ chainId: network.chainId, owner: address, spender: data.pool, amount: data.allowance.toString() }),
    )
  }
  yield put(
    poolLoaded({
      // A stream read of another address (the pool moved) is not this pool's.
      pool: toPoolInfo(data, streams && samePool ? fees : null),
      chainTime,
      readAt: Date.now(),
      blockNumber: block?.number,
      // Without a wallet there is nothing to list (the empty state invites a first deposit).
      userStakes: !address ? [] : rows ? rows.rows : null,
      moreStakes: !!rows && rows.next !== null,
      nextOffset: rows?.next ?? null,
      totalStakedByUser: data.allUserStakesAmount.toString(),
      userStakesCount: data.userStakesCount.toString(),
      userShares: data.userShares.toString(),
    }),
  )
  if (failed !== null) {
    yield put(stakesFailed({ error: failed }))
    return false
  }
  return true
}

/** One read of the page; a failure is logged and recorded (the figures on screen stay, marked as not current). */
function* readOnce(mode: ReadMode): SagaIterator<boolean> {
  try {
    return yield call(loadPool, mode)
  } catch (err) {
    log.warn('stake', 'pool read failed', err)
    const error = readFailureMessage(err)
    yield put(poolFailed({ error }))
    // A list never read for this wallet says so too, rather than 'Loading your stakes…' for as long as the outage.
    const owner: string | null = yield select(selectAddress)
    const listStatus: ListStatus = yield select(selectListStatus)
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
      const listed: ListStatus = yield select(selectListStatus)
      ok = yield call(readOnce, listed === 'ok' ? 'refresh' : 'full')
    }
  }
}

/** 'Show more': the next page of the list, added after the rows shown; a failure shows under the list with a Retry. */
export function* readMoreStakes(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const network: Network | null = yield select(selectSupportedNetwork)
  const stake: StakeState = yield select(selectStake)
  const address: string | null = yield select(selectAddress)
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
function* whileOnPage(): SagaIterator {
  let cycle: Task = yield fork(pageReads)
  const more: Task = yield takeLeading(moreStakesRequested.type, safely(readMoreStakes))
  try {
    for (;;) {
      const { closed }: { closed?: unknown } = yield race({
        closed: take(stakingPageClosed.type),
        again: take([stakeRefreshRequested.type, walletChanged.type, poolSelected.type]),
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

/** Allowance to the pool, when the deposit modal opens and while an approval is awaited. */
function* readAllowance(): SagaIterator<bigint | null> {
  const chain: ChainLayer = yield getChain()
  const network: Network | null = yield select(selectSupportedNetwork)
  const pool: PoolInfo | null = yield select(selectPool)
  const address: string | null = yield select(selectAddress)
  if (!network || !pool || !address) return null
  const token = contracts.token(network.contracts.token, chain.readProvider(network.chainId))
  const allowance: bigint = yield call([token, token.allowance], address, pool.address)
  yield put(allowanceLoaded({ chainId: network.chainId, owner: address, spender: pool.address, amount: allowance.toString() }))
  return allowance
}

export function* checkAllowance(): SagaIterator {
  try {
    yield call(readAllowance)
  } catch (err) {
    log.error('stake', 'allowance read failed', err)
  }
}

/**
 * Approve the amount the dialog chose (the exact deposit, or the spec's 1e28 by default) for the pool, then poll the
 * allowance every 1 s until the chain shows at least that much (docs/product.md §3.3; 'approved' is allowance >= amount).
 */
export function* approveSaga({ payload }: ReturnType<typeof approveRequested>): SagaIterator {
  const network: Network | null = yield select(selectSupportedNetwork)
  const pool: PoolInfo | null = yield select(selectPool)
  let error: string | null = null
  try {
    if (!network || !pool) return
    const amount = BigInt(payload.amount)
    const token = contracts.token(network.contracts.token)
    const outcome: TxOutcome = yield call(
      runTx,
      'approve',
      {
        to: network.contracts.token,
        data: token.interface.encodeFunctionData('approve', [pool.address, amount]),
      },
      network.chainId,
    )
    // A rejection already shows its notice; the dialog shows only what went wrong.
    if (!outcome.ok) {
      error = outcome.rejected ? null : outcome.error
      return
    }
    const deadline = Date.now() + timers.ALLOWANCE_POLL_FOR_MS
    while (Date.now() < deadline) {
      const allowance: bigint | null = yield call(readAllowance)
      if (allowance !== null && allowance >= amount) return
      yield delay(timers.ALLOWANCE_POLL_MS)
    }
  } finally {
    yield put(approveSettled({ error }))
  }
}

/**
 * The terms the deposit's preview showed for this request, as the stake's bounds: the dialog's own figures when it
 * sends them, else the same preview of the pool on screen (depositPreview): the fee it shows, and the full bonus and
 * reward, or the lower ones the person accepted when the reservoir runs short (`minimums`).
 */
export function depositTerms(pool: PoolInfo, payload: DepositRequest): DepositTerms {
  if (payload.terms) return payload.terms
  const referred = !!payload.referral && payload.referral !== ZeroAddress && pool.version === 1
  const p = previewStake(poolMath(pool), BigInt(payload.amount), BigInt(payload.days) * DAY, referred)
  return {
    maxFee: boundsOf(p).maxFee.toString(),
    minBonus: payload.minimums?.bonus ?? p.bonusWanted.toString(),
    minReward: payload.minimums?.reward ?? p.rewardWanted.toString(),
  }
}

/** The stake's arguments up to its bounds: amount, hold in seconds, referer (the zero address for none), bounds. */
function stakeArgs(pool: PoolInfo, payload: DepositRequest) {
  const referral = payload.referral && payload.referral !== ZeroAddress ? payload.referral : ZeroAddress
  const t = depositTerms(pool, payload)
  return [
    BigInt(payload.amount),
    BigInt(payload.days) * DAY,
    referral,
    BigInt(t.maxFee),
    BigInt(t.minBonus),
    BigInt(t.minReward),
  ] as const
}

/**
 * The calldata of the guarded stake (docs/contracts.md, "Terms the holder saw"): stake(amount, hold, referer or 0,
 * maxFee, minBonus, minReward) with the figures the preview showed, so the stake lands on those terms or better, or
 * is refused with the term that changed.
 */
function stakeCall(pool: PoolInfo, payload: DepositRequest): string {
  return contracts
    .pool(pool.address)
    .interface.encodeFunctionData('stake(uint256,uint256,address,uint256,uint256,uint256)', [...stakeArgs(pool, payload)])
}

/**
 * The deposit: always the guarded stake(amount, days in seconds, referer or 0, maxFee, minBonus, minReward) with the
 * figures the preview showed (depositTerms): the fee it showed, the bonus and reward the reservoir funds (the accepted
 * lower terms when it runs short). Terms that changed in between (the owner's parameters, an emptied reservoir) get
 * the stake refused with the term that changed (FeeAboveMax, BonusBelowMin, RewardBelowMin), never landed on worse
 * ones. A refusal (found by the simulation before the wallet is asked, or on chain) shows its reason in the modal.
 */
export function* depositSaga({ payload }: ReturnType<typeof depositRequested>): SagaIterator {
  const pool: PoolInfo | null = yield select(selectPool)
  if (!pool) {
    yield put(depositSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  const chainId: number | null = yield select(selectNetworkId)
  const outcome: TxOutcome = yield call(runTx, 'stake', { to: pool.address, data: stakeCall(pool, payload) }, chainId)
  yield call(depositEnded, outcome)
}

/** What a deposit's end shows: the dialog closes, or says why and the figures are read again. */
function* depositEnded(outcome: TxOutcome): SagaIterator {
  yield put(depositSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
  // A refusal may come from figures that moved (the reservoir emptied, the owner's terms changed since the preview):
  // read them again now, not at the next 15 s update, so the open modal shows the new figures to confirm again.
  else if (!outcome.rejected) yield put(stakeRefreshRequested())
}

/** How long a deposit's permit stays good: the wallet's signature, then the stake, well within it. */
const PERMIT_FOR_SECONDS = 20 * 60

/**
 * The deposit in one signature: the wallet signs an EIP-2612 permit for exactly the amount to the pool (the token's
 * domain: its name, version 1, the chain, its address; the token's next nonce; a deadline PERMIT_FOR_SECONDS from the
 * chain's time), then the pool's stakeWithPermit(amount, hold, referer, maxFee, minBonus, minReward, deadline, v, r,
 * s) with the preview's bounds. The pool tolerates the permit having been submitted by someone else, and leaves no
 * allowance behind. A declined signature ends like a declined transaction.
 */
export function* depositWithPermitSaga({ payload }: ReturnType<typeof depositWithPermitRequested>): SagaIterator {
  const pool: PoolInfo | null = yield select(selectPool)
  const network: Network | null = yield select(selectSupportedNetwork)
  if (!pool || !network) {
    yield put(depositSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  const chain: ChainLayer = yield getChain()
  let permit: { deadline: bigint; v: number; r: string; s: string }
  try {
    const provider = chain.readProvider(network.chainId)
    const token = contracts.token(network.contracts.token, provider)
    const signer: Signer = yield call([chain.wallets, chain.wallets.signer])
    const owner: string = yield call([signer, signer.getAddress])
    const [name, nonce, block]: [string, bigint, Block | null] = yield all([
      call([token, token.name]),
      call([token, token.nonces], owner),
      call([provider, provider.getBlock], 'latest'),
    ])
    const deadline = BigInt((block?.timestamp ?? Math.floor(Date.now() / 1000)) + PERMIT_FOR_SECONDS)
    const domain = permitDomain(name, network.chainId, network.contracts.token)
    const value = BigInt(payload.amount)
    const sig: { v: number; r: string; s: string } = yield call(signPermit, signer, domain, {
      owner,
      spender: pool.address,
      value,
      nonce,
      deadline,
    })
    permit = { deadline, ...sig }
  } catch (err) {
    log.warn('stake', 'permit not signed', err)
    const rejected = isUserRejection(err)
    yield put(depositSettled({ ok: false, error: rejected ? null : toUserMessage(err) }))
    return
  }
  const data = contracts
    .pool(pool.address)
    .interface.encodeFunctionData('stakeWithPermit', [...stakeArgs(pool, payload), permit.deadline, permit.v, permit.r, permit.s])
  const outcome: TxOutcome = yield call(runTx, 'stake', { to: pool.address, data }, network.chainId)
  yield call(depositEnded, outcome)
}

/** unstake([id]); the list reloads after the receipt (the confirmed transaction restarts the page's reads). */
export function* unstakeSaga({ payload: id }: ReturnType<typeof unstakeRequested>): SagaIterator {
  const pool: PoolInfo | null = yield select(selectPool)
  if (!pool) return
  const chainId: number | null = yield select(selectNetworkId)
  const outcome: TxOutcome = yield call(
    runTx,
    'unstake',
    {
      to: pool.address,
      data: contracts.pool(pool.address).interface.encodeFunctionData('unstake', [[id]]),
    },
    chainId,
  )
  yield put(unstakeSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
}

export function* stakeSaga(): SagaIterator {
  yield takeLatest(stakingPageOpened.type, safely(whileOnPage))
  yield takeLatest(allowanceCheckRequested.type, safely(checkAllowance))
  yield takeLeading(approveRequested.type, safely(approveSaga))
  yield takeLeading(depositRequested.type, safely(depositSaga))
  yield takeLeading(depositWithPermitRequested.type, safely(depositWithPermitSaga))
  yield takeLeading(unstakeRequested.type, safely(unstakeSaga))
}
