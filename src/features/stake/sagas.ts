import type { SagaIterator, Task } from 'redux-saga'
import { all, call, cancel, delay, fork, put, race, select, take, takeLatest, takeLeading } from 'redux-saga/effects'
import { lists, timers } from '../../app/config'
import { log } from '../../app/log'
import { getChain } from '../../app/sagaContext'
import { safely } from '../../app/safely'
import type { RootState } from '../../app/store'
import { contracts } from '../../chain/contracts'
import type { ChainLayer } from '../../chain/layer'
import { DAY } from '../../chain/math'
import { runTx, type TxOutcome } from '../../chain/tx'
import { txConfirmed } from '../../chain/txActions'
import type { Lens } from '../../chain/types'
import { allowanceLoaded } from '../token/slice'
import { modalClosed, walletChanged } from '../wallet/slice'
import { selectSupportedNetwork } from '../wallet/selectors'
import { selectActivePoolId } from './selectors'
import {
  allowanceCheckRequested,
  approveRequested,
  approveSettled,
  autoUpdateChanged,
  depositRequested,
  depositSettled,
  moreStakesRequested,
  poolFailed,
  poolLoaded,
  poolRequested,
  poolSelected,
  stakeRefreshRequested,
  stakingPageClosed,
  stakingPageOpened,
  unstakeRequested,
  unstakeSettled,
  type DepositRequest,
  type PoolInfo,
  type StakeEntry,
} from './slice'

type Network = NonNullable<ReturnType<typeof selectSupportedNetwork>>
type PoolData = Awaited<ReturnType<Lens['getPoolDataById']>>
type StakePage = Awaited<ReturnType<Lens['getUnstakeDataPage']>>
type StakeInfos = StakePage['infos']
/** getFeeStream of a version 1 pool: fees not yet released (base units) and when the stream ends (unix seconds). */
type FeeStream = { pending: bigint; streamEnd: bigint }
/** The Lens's `next` at the end of a user's list. */
const END_OF_LIST = 2n ** 256n - 1n

const ZERO = '0x0000000000000000000000000000000000000000'

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

/**
 * The stake list read, failing silently to an empty list (SPEC section 8): active stakes, then those closed in the
 * last six months, newest close first, as many pages as the page shows, in one Lens call. Its gas depends on the
 * rows read, not on how many stakes the user ever made.
 */
function* readStakes(lens: Lens, pool: string, user: string, pages: number): SagaIterator<StakePage | null> {
  try {
    return yield call([lens, lens.getUnstakeDataPage], pool, user, 0, pages * lists.STAKE_PAGE_SIZE)
  } catch (err) {
    log.warn('stake', 'unstake data read failed; showing an empty list', err)
    return null
  }
}

/**
 * The page's whole read in one batched JSON-RPC round trip: the pool and wallet figures (Lens.getPoolDataById), the
 * user's stakes with their close figures, the latest block's time and, for a version 1 pool, its fee stream
 * (getFeeStream; the Lens does not carry it, but in the same batch it costs no round trip). The pool's address and
 * version come from the last read or the deployment record; for a pool neither knows (or one whose address differs),
 * the stake list follows in a second round trip and the fee stream waits for the next read. Throws when the pool
 * read fails.
 */
export function* loadPool(): SagaIterator<boolean> {
  const chain: ChainLayer = yield getChain()
  const network: Network | null = yield select(selectSupportedNetwork)
  const poolId: number | null = yield select(selectActivePoolId)
  const address: string | null = yield select((s: RootState) => s.wallet.address)
  if (!network || poolId === null) return false
  const known: PoolInfo | null = yield select((s: RootState) => s.stake.pool)
  const pages: number = yield select((s: RootState) => s.stake.stakePages)
  const user = address ?? ZERO
  const lens = contracts.lens(network.contracts.lens, chain.readProvider(network.chainId))
  const provider = chain.readProvider(network.chainId)
  yield put(poolRequested())
  // The deployment record names its pools, so even the first read of one is a single round trip.
  const listed = network.pools.find((p) => p.id === poolId)
  const knownAddress = (known?.id === poolId ? known.address : null) ?? listed?.address ?? null
  const knownVersion = (known?.id === poolId ? known.version : null) ?? listed?.version ?? null
  // Only version 1 streams fees: a version 2 page keeps its three calls.
  const streams = knownAddress !== null && knownVersion === 1
  const [data, early, block, fees]: [PoolData, StakePage | null, { timestamp: number } | null, FeeStream | null] = yield all([
    call([lens, lens.getPoolDataById], network.contracts.poolsInfo, poolId, user),
    knownAddress && address ? call(readStakes, lens, knownAddress, address, pages) : call(nothing),
    call([provider, provider.getBlock], 'latest'),
    streams ? call(readFeeStream, contracts.pool(knownAddress, provider)) : call(nothing),
  ])
  let page = early
  if (address && (!knownAddress || knownAddress.toLowerCase() !== data.pool.toLowerCase()))
    page = yield call(readStakes, lens, data.pool, address, pages)
  yield put(
    poolLoaded({
      // A stream read of another address (the pool moved) is not this pool's.
      pool: toPoolInfo(data, streams && knownAddress.toLowerCase() === data.pool.toLowerCase() ? fees : null),
      chainTime: block?.timestamp ?? Math.floor(Date.now() / 1000),
      readAt: Date.now(),
      userStakes: address && page ? toStakes(page.infos) : null,
      moreStakes: !!address && !!page && page.next !== END_OF_LIST,
      totalStakedByUser: data.allUserStakesAmount.toString(),
      userShares: data.userShares.toString(),
      token: address
        ? {
            name: data.tokenName,
            symbol: data.tokenSymbol,
            balance: data.walletStakeTokenBalance.toString(),
            allowance: data.allowance.toString(),
          }
        : null,
    }),
  )
  return true
}

/** loadPool for a page event: a failure is logged and leaves the figures as they were. */
function* reloadPool(): SagaIterator {
  try {
    yield call(loadPool)
  } catch (err) {
    log.error('stake', 'pool read failed', err)
    yield put(poolFailed())
  }
}

/** Every 15 s while the page is open; the first error stops it (SPEC section 4) until the page or the user restarts it. */
export function* autoUpdate(): SagaIterator {
  yield put(autoUpdateChanged('running'))
  for (;;) {
    yield delay(timers.STAKING_REFRESH_MS)
    try {
      yield call(loadPool)
    } catch (err) {
      log.warn('stake', 'auto-update stopped at its first error', err)
      yield put(autoUpdateChanged('stopped'))
      return
    }
  }
}

/** One cycle of the page's reads: load now, then the auto-update. */
function* pageReads(): SagaIterator {
  yield call(reloadPool)
  yield call(autoUpdate)
}

/**
 * While the staking page is open. A manual refresh, a wallet or pool change, or a confirmed transaction of the page
 * cancels the running cycle and starts a new one (which also restarts a stopped auto-update); the triggers are
 * watched the whole time, so none is missed while a read is in flight.
 */
function* whileOnPage(): SagaIterator {
  let cycle: Task = yield fork(pageReads)
  for (;;) {
    const { closed }: { closed?: unknown } = yield race({
      closed: take(stakingPageClosed.type),
      again: take([stakeRefreshRequested.type, walletChanged.type, poolSelected.type, moreStakesRequested.type]),
      acted: take(
        (a: { type: string; payload?: { kind?: string } }) => a.type === txConfirmed.type && a.payload?.kind !== 'claim',
      ),
    })
    yield cancel(cycle)
    if (closed) return
    cycle = yield fork(pageReads)
  }
}

/** Allowance to the pool, when the deposit modal opens and while an approval is awaited. */
function* readAllowance(): SagaIterator<bigint | null> {
  const chain: ChainLayer = yield getChain()
  const network: Network | null = yield select(selectSupportedNetwork)
  const pool: PoolInfo | null = yield select((s: RootState) => s.stake.pool)
  const address: string | null = yield select((s: RootState) => s.wallet.address)
  if (!network || !pool || !address) return null
  const token = contracts.token(network.contracts.token, chain.readProvider(network.chainId))
  const allowance: bigint = yield call([token, token.allowance], address, pool.address)
  yield put(allowanceLoaded({ allowance: allowance.toString() }))
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
 * allowance every 1 s until the chain shows at least that much (SPEC section 4; 'approved' is allowance >= amount).
 */
export function* approveSaga({ payload }: ReturnType<typeof approveRequested>): SagaIterator {
  const network: Network | null = yield select(selectSupportedNetwork)
  const pool: PoolInfo | null = yield select((s: RootState) => s.stake.pool)
  let error: string | null = null
  try {
    if (!network || !pool) return
    const amount = BigInt(payload.amount)
    const token = contracts.token(network.contracts.token)
    const outcome: TxOutcome = yield call(runTx, 'approve', {
      to: network.contracts.token,
      data: token.interface.encodeFunctionData('approve', [pool.address, amount]),
    })
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

/** The calldata of the stake overload the request needs (SPEC section 5, and the minimums of the lower terms). */
function stakeCall(poolAddress: string, payload: DepositRequest): string {
  const pool = contracts.pool(poolAddress).interface
  const hold = BigInt(payload.days) * DAY
  const referral = payload.referral && payload.referral !== ZERO ? payload.referral : null
  const minimums = payload.minimums ?? null
  if (minimums)
    return pool.encodeFunctionData('stake(uint256,uint256,address,uint256,uint256)', [
      payload.amount,
      hold,
      referral ?? ZERO,
      BigInt(minimums.bonus),
      BigInt(minimums.reward),
    ])
  return referral
    ? pool.encodeFunctionData('stake(uint256,uint256,address)', [payload.amount, hold, referral])
    : pool.encodeFunctionData('stake(uint256,uint256)', [payload.amount, hold])
}

/**
 * stake(amount, days in seconds[, referral]): the referral is left out when there is none (SPEC section 5). The pool
 * refuses these when its reservoir cannot fund the full bonus and reward (RewardsUnavailable); when the person
 * accepted the lower terms the preview showed, stake(amount, hold, referer or 0, minBonus, minReward) sends them as
 * minimums, so a reservoir emptied in the meantime refuses the stake rather than give it less than they saw. A
 * refusal (found by the simulation before the wallet is asked, or on chain) shows its reason in the modal.
 */
export function* depositSaga({ payload }: ReturnType<typeof depositRequested>): SagaIterator {
  const pool: PoolInfo | null = yield select((s: RootState) => s.stake.pool)
  if (!pool) {
    yield put(depositSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  const outcome: TxOutcome = yield call(runTx, 'stake', { to: pool.address, data: stakeCall(pool.address, payload) })
  yield put(depositSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
  // A refusal may come from figures that moved (the reservoir emptied since the last read): read them again now, not
  // at the next 15 s update, so the open modal's estimate shows what the pool can fund and asks to accept it.
  else if (!outcome.rejected) yield put(stakeRefreshRequested())
}

/** unstake([id]); the list reloads after the receipt (the confirmed transaction restarts the page's reads). */
export function* unstakeSaga({ payload: id }: ReturnType<typeof unstakeRequested>): SagaIterator {
  const pool: PoolInfo | null = yield select((s: RootState) => s.stake.pool)
  if (!pool) return
  const outcome: TxOutcome = yield call(runTx, 'unstake', {
    to: pool.address,
    data: contracts.pool(pool.address).interface.encodeFunctionData('unstake', [[id]]),
  })
  yield put(unstakeSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
}

export function* stakeSaga(): SagaIterator {
  yield takeLatest(stakingPageOpened.type, safely(whileOnPage))
  yield takeLatest(allowanceCheckRequested.type, safely(checkAllowance))
  yield takeLeading(approveRequested.type, safely(approveSaga))
  yield takeLeading(depositRequested.type, safely(depositSaga))
  yield takeLeading(unstakeRequested.type, safely(unstakeSaga))
}
