import type { SagaIterator } from 'redux-saga'
import { call, delay, put, takeLatest, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { ZeroAddress } from 'ethers'
import { timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain } from '../../chain/sagaContext'
import { safely } from '../../kit/safely'
import { contracts } from '../../chain/contracts'
import type { ChainLayer } from '../../chain/layer'
import { DAY } from '../../domain/math'
import { runTx, type TxOutcome } from '../../chain/tx'
import { allowanceLoaded } from '../token/slice'
import { modalClosed } from '../wallet/slice'
import { selectAddress, selectNetworkId, selectSupportedNetwork } from '../wallet/selectors'
import { selectPool } from './selectors'
import {
  allowanceCheckRequested,
  approveRequested,
  approveSettled,
  depositRequested,
  depositSettled,
  stakeRefreshRequested,
  stakingPageOpened,
  unstakeRequested,
  unstakeSettled,
  type DepositRequest,
} from './slice'
import { whileOnPage } from './poolReads'

/** Allowance to the pool, when the deposit modal opens and while an approval is awaited. */
function* readAllowance(): SagaIterator<bigint | null> {
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectSupportedNetwork)
  const pool = yield* select(selectPool)
  const address = yield* select(selectAddress)
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
  const network = yield* select(selectSupportedNetwork)
  const pool = yield* select(selectPool)
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

/** The calldata of the stake overload the request needs (docs/product.md §4.3, with the minimums of the lower terms). */
function stakeCall(poolAddress: string, payload: DepositRequest): string {
  const pool = contracts.pool(poolAddress).interface
  const hold = BigInt(payload.days) * DAY
  const referral = payload.referral && payload.referral !== ZeroAddress ? payload.referral : null
  const minimums = payload.minimums ?? null
  if (minimums)
    return pool.encodeFunctionData('stake(uint256,uint256,address,uint256,uint256)', [
      payload.amount,
      hold,
      referral ?? ZeroAddress,
      BigInt(minimums.bonus),
      BigInt(minimums.reward),
    ])
  return referral
    ? pool.encodeFunctionData('stake(uint256,uint256,address)', [payload.amount, hold, referral])
    : pool.encodeFunctionData('stake(uint256,uint256)', [payload.amount, hold])
}

/**
 * stake(amount, days in seconds[, referral]): the referral is left out when there is none (docs/product.md §4.3). The pool
 * refuses these when its reservoir cannot fund the full bonus and reward (RewardsUnavailable); when the person
 * accepted the lower terms the preview showed, stake(amount, hold, referer or 0, minBonus, minReward) sends them as
 * minimums, so a reservoir emptied in the meantime refuses the stake rather than give it less than they saw. A
 * refusal (found by the simulation before the wallet is asked, or on chain) shows its reason in the modal.
 */
export function* depositSaga({ payload }: ReturnType<typeof depositRequested>): SagaIterator {
  const pool = yield* select(selectPool)
  if (!pool) {
    yield put(depositSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  const chainId = yield* select(selectNetworkId)
  const outcome: TxOutcome = yield call(runTx, 'stake', { to: pool.address, data: stakeCall(pool.address, payload) }, chainId)
  yield put(depositSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
  // A refusal may come from figures that moved (the reservoir emptied since the last read): read them again now, not
  // at the next 15 s update, so the open modal's estimate shows what the pool can fund and asks to accept it.
  else if (!outcome.rejected) yield put(stakeRefreshRequested())
}

/** unstake([id]); the list reloads after the receipt (the confirmed transaction restarts the page's reads). */
export function* unstakeSaga({ payload: id }: ReturnType<typeof unstakeRequested>): SagaIterator {
  const pool = yield* select(selectPool)
  if (!pool) return
  const chainId = yield* select(selectNetworkId)
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
  yield takeLeading(unstakeRequested.type, safely(unstakeSaga))
}
