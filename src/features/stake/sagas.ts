import type { SagaIterator } from 'redux-saga'
import { all, call, delay, fork, put, takeLatest, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { ZeroAddress, type Block, type Signer } from 'ethers'
import { timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain } from '../../chain/sagaContext'
import { statsSaga } from './statsSagas'
import { safely } from '../../kit/safely'
import { contracts } from '../../chain/contracts'
import type { ChainLayer } from '../../chain/layer'
import { boundsOf, DAY, previewStake } from '../../domain/math'
import { permitDomain, signPermit } from '../../domain/permit'
import { isUserRejection, toUserMessage } from '../../chain/errors'
import { runTx, type TxOutcome, type TxRequest } from '../../chain/tx'
import { quoteFee, type FeeFigures } from '../../chain/fees'
import { allowanceLoaded } from '../token/slice'
import { feeQuoted, feeQuoteRequested, modalClosed } from '../wallet/slice'
import { isClaimPurpose, type FeePurpose } from '../wallet/feeQuote'
import { selectActBlock, selectAddress, selectNetworkId, selectSupportedNetwork } from '../wallet/selectors'
import { daysLimits, poolMath, selectCloseAllMatured, selectPermitFor, selectPool, selectRestakePlan } from './selectors'
import { restakeTerms, type RestakePlan } from './restakePlan'
import { daysRangeText } from './days'
import {
  allowanceCheckRequested,
  approveRequested,
  approveSettled,
  closeAllMaturedRequested,
  closeAllMaturedSettled,
  depositRequested,
  depositSettled,
  depositWithPermitRequested,
  permitSignRequested,
  permitSigned,
  permitSupportLoaded,
  restakeRequested,
  restakeSettled,
  stakeRefreshRequested,
  stakingPageOpened,
  unstakeRequested,
  unstakeSettled,
  type DepositMinimums,
  type DepositRequest,
  type DepositTerms,
  type PoolInfo,
  type SignedPermit,
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
    yield all([call(readAllowance), call(readPermitSupport)])
  } catch (err) {
    log.error('stake', 'allowance read failed', err)
  }
}

/** EIP-7702: an account whose code is a delegation still has its key, and signs like any other. */
const DELEGATED = /^0xef0100[0-9a-f]{40}$/i

/**
 * Whether this wallet can deposit in one signature (docs/product.md §4.6): its account has no code (a contract wallet
 * such as a Safe cannot sign a permit with a key), and the token answers nonces(owner) (it has EIP-2612 permits).
 * Either read failing counts as no: Approve is always there.
 */
function* readPermitSupport(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectSupportedNetwork)
  const pool = yield* select(selectPool)
  const address = yield* select(selectAddress)
  if (!network || !pool || !address) return
  const provider = chain.readProvider(network.chainId)
  const token = contracts.token(network.contracts.token, provider)
  let signable = false
  try {
    const [code]: [string, bigint] = yield all([
      call([provider, provider.getCode], address),
      call([token, token.nonces], address),
    ])
    signable = code === '0x' || DELEGATED.test(code)
  } catch (err) {
    log.warn('stake', 'no permit for this wallet or token', err)
  }
  yield put(permitSupportLoaded({ owner: address.toLowerCase(), pool: pool.address.toLowerCase(), signable }))
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
    // The page may show another address read only (`?account=`): nothing is sent for it.
    error = yield* select(selectActBlock)
    if (error || !network || !pool) return
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
    // Proposed to a Safe's owners: the allowance comes when they execute it, and the page reads it again then.
    if (outcome.proposed) return
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
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(depositSettled({ ok: false, error: blocked }))
    return
  }
  const pool = yield* select(selectPool)
  if (!pool) {
    yield put(depositSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  const chainId = yield* select(selectNetworkId)
  const network = yield* select(selectSupportedNetwork)
  const stake: TxRequest = { to: pool.address, data: stakeCall(pool, payload) }
  const approve: TxRequest | null =
    payload.approveFirst && network
      ? {
          to: network.contracts.token,
          data: contracts
            .token(network.contracts.token)
            .interface.encodeFunctionData('approve', [pool.address, BigInt(payload.approveFirst)]),
        }
      : null
  const outcome: TxOutcome = yield call(runTx, 'stake', approve ? [approve, stake] : stake, chainId)
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
 * The wallet signs an EIP-2612 permit for exactly `amount` to the pool on screen: the token's domain (its name,
 * version 1, the chain, its address), the token's next nonce, a deadline PERMIT_FOR_SECONDS from the chain's time.
 * Throws what the wallet or the chain threw.
 */
function* signDepositPermit(amount: string): SagaIterator<SignedPermit> {
  const chain: ChainLayer = yield getChain()
  const pool = yield* select(selectPool)
  const network = yield* select(selectSupportedNetwork)
  if (!pool || !network) throw new Error('The pool is not loaded yet.')
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
  const sig: { v: number; r: string; s: string } = yield call(signPermit, signer, domain, {
    owner,
    spender: pool.address,
    value: BigInt(amount),
    nonce,
    deadline,
  })
  return {
    owner: owner.toLowerCase(),
    pool: pool.address.toLowerCase(),
    amount,
    deadline: deadline.toString(),
    ...sig,
  }
}

/**
 * Sign, the first step of Sign and stake (docs/product.md §4.6): the permit is kept for the deposit on screen, so the
 * dialog can quote the network fee of the very transaction Confirm sends. Signing sends nothing and costs nothing.
 */
export function* signPermitSaga({ payload }: ReturnType<typeof permitSignRequested>): SagaIterator {
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(permitSigned({ permit: null, error: blocked }))
    return
  }
  try {
    const permit: SignedPermit = yield call(signDepositPermit, payload.amount)
    yield put(permitSigned({ permit, error: null }))
  } catch (err) {
    // A decline is the person's choice, not a fault: only the wallet's notice.
    if (isUserRejection(err)) {
      yield put(permitSigned({ permit: null, error: null }))
      return
    }
    log.warn('stake', 'permit not signed', err)
    yield put(permitSigned({ permit: null, error: toUserMessage(err) }))
  }
}

/** stakeWithPermit(amount, hold, referer, maxFee, minBonus, minReward, deadline, v, r, s): the guarded stake's bounds. */
function permitStakeCall(pool: PoolInfo, payload: DepositRequest, permit: SignedPermit): string {
  return contracts
    .pool(pool.address)
    .interface.encodeFunctionData('stakeWithPermit', [
      ...stakeArgs(pool, payload),
      BigInt(permit.deadline),
      permit.v,
      permit.r,
      permit.s,
    ])
}

/**
 * The deposit in one signature: the permit the wallet signed for this amount (or, without one, a permit signed now),
 * then the pool's stakeWithPermit with the preview's bounds. The pool tolerates the permit having been submitted by
 * someone else, and leaves no allowance behind. A declined signature ends like a declined transaction.
 */
export function* depositWithPermitSaga({ payload }: ReturnType<typeof depositWithPermitRequested>): SagaIterator {
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(depositSettled({ ok: false, error: blocked }))
    return
  }
  const pool = yield* select(selectPool)
  const network = yield* select(selectSupportedNetwork)
  if (!pool || !network) {
    yield put(depositSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  let permit = yield* select(selectPermitFor(payload.amount))
  if (!permit) {
    try {
      permit = (yield call(signDepositPermit, payload.amount)) as SignedPermit
    } catch (err) {
      const rejected = isUserRejection(err)
      if (!rejected) log.warn('stake', 'permit not signed', err)
      yield put(depositSettled({ ok: false, error: rejected ? null : toUserMessage(err) }))
      return
    }
  }
  const data = permitStakeCall(pool, payload, permit)
  const outcome: TxOutcome = yield call(runTx, 'stake', { to: pool.address, data }, network.chainId)
  yield call(depositEnded, outcome)
}

/** unstake([id]); the list reloads after the receipt (the confirmed transaction restarts the page's reads). */
export function* unstakeSaga({ payload: id }: ReturnType<typeof unstakeRequested>): SagaIterator {
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(unstakeSettled({ ok: false, error: blocked }))
    return
  }
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

/** Why "Close all matured" sent nothing: the list changed under the dialog (a stake closed meanwhile, another pool). */
export const NOT_MATURED = 'The matured stakes changed since these figures were shown: check them and confirm again.'

/**
 * "Close all matured" (docs/product.md §2.4): one unstake(ids) of the stakes the dialog showed, each of which must be
 * matured in the list as read now (a stake that is pending, closed or not listed is never sent: the page's action is
 * checked, not trusted). The list reloads after the receipt, as after a single close.
 */
export function* closeAllMaturedSaga({ payload }: ReturnType<typeof closeAllMaturedRequested>): SagaIterator {
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(closeAllMaturedSettled({ ok: false, error: blocked }))
    return
  }
  const pool = yield* select(selectPool)
  const matured = yield* select(selectCloseAllMatured)
  const ids = payload.ids
  const each = new Set(ids)
  if (!pool || !matured || ids.length === 0 || each.size !== ids.length || ids.some((id) => !matured.ids.includes(id))) {
    yield put(closeAllMaturedSettled({ ok: false, error: NOT_MATURED }))
    return
  }
  const chainId = yield* select(selectNetworkId)
  const outcome: TxOutcome = yield call(
    runTx,
    'unstake',
    { to: pool.address, data: contracts.pool(pool.address).interface.encodeFunctionData('unstake', [ids]) },
    chainId,
  )
  yield put(closeAllMaturedSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
}

/**
 * The calldata of a restake (docs/contracts.md, "A close"): restake(ids, hold, maxFee, minBonus, minReward) of the
 * plan's stakes for its term, bounded by the terms its preview showed (restakeTerms), so the new stake lands on them or
 * better, or is refused naming the term that changed. No amount is sent: the pool stakes what the closes pay.
 */
function restakeCall(pool: PoolInfo, plan: RestakePlan, minimums: DepositMinimums | null): string {
  const t = restakeTerms(plan, minimums)
  return contracts
    .pool(pool.address)
    .interface.encodeFunctionData('restake', [plan.ids, plan.hold, BigInt(t.maxFee), BigInt(t.minBonus), BigInt(t.minReward)])
}

/**
 * Why a restake cannot be sent as asked, or null: a term outside the pool's days (the dialog's own rule, docs/product.md
 * §4.2), or stakes that are not all matured in the list as read now (NOT_MATURED).
 */
function restakeProblem(pool: PoolInfo, plan: RestakePlan | null, days: number): string | null {
  const limits = daysLimits(pool, false)
  if (!Number.isInteger(days) || days < limits.min || days > limits.max) return daysRangeText(limits)
  return plan ? null : NOT_MATURED
}

/**
 * Restake (docs/product.md §2.6a): one restake(ids, hold, maxFee, minBonus, minReward) of the stakes the dialog showed,
 * each of which must be matured in the list as read now (the page's action is checked, not trusted, as for "Close all
 * matured"), for the days chosen, bounded by the preview of the amount they pay (restakePlan.ts): the fee it showed,
 * and the full bonus and reward or the lower ones the person accepted. Nothing leaves the pool, so no approval. A
 * refusal (the simulation or the chain: the owner's terms changed, the reservoir emptied) says why in the dialog and
 * the page reads the figures again; a confirmation closes it, and the page reads the list again after the receipt.
 */
export function* restakeSaga({ payload }: ReturnType<typeof restakeRequested>): SagaIterator {
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(restakeSettled({ ok: false, error: blocked }))
    return
  }
  const pool = yield* select(selectPool)
  if (!pool) {
    yield put(restakeSettled({ ok: false, error: 'The pool is not loaded yet.' }))
    return
  }
  const plan = yield* select(selectRestakePlan(payload.ids, payload.days))
  const problem = restakeProblem(pool, plan, payload.days)
  if (problem || !plan) {
    yield put(restakeSettled({ ok: false, error: problem ?? NOT_MATURED }))
    return
  }
  const chainId = yield* select(selectNetworkId)
  const outcome: TxOutcome = yield call(
    runTx,
    'restake',
    { to: pool.address, data: restakeCall(pool, plan, payload.minimums) },
    chainId,
  )
  yield put(restakeSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  if (outcome.ok) yield put(modalClosed())
  // As after a refused deposit: the figures that moved are read again now, so the open dialog shows the new ones.
  else if (!outcome.rejected) yield put(stakeRefreshRequested())
}

/** The transaction a deposit or close dialog would send for `purpose`: the same calldata its saga sends. */
function requestFor(purpose: FeePurpose, tokenAddress: string, pool: PoolInfo): TxRequest {
  const poolContract = contracts.pool(pool.address)
  switch (purpose.kind) {
    case 'approve':
      return {
        to: tokenAddress,
        data: contracts.token(tokenAddress).interface.encodeFunctionData('approve', [pool.address, BigInt(purpose.amount)]),
      }
    case 'stake':
      return { to: pool.address, data: stakeCall(pool, purpose) }
    case 'permitStake':
      return { to: pool.address, data: permitStakeCall(pool, purpose, purpose.permit) }
    case 'close':
      return { to: pool.address, data: poolContract.interface.encodeFunctionData('unstake', [[purpose.id]]) }
    case 'closeAll':
      return { to: pool.address, data: poolContract.interface.encodeFunctionData('unstake', [purpose.ids]) }
    case 'restake':
      throw new Error('A restake is quoted from its plan (feeQuoteSaga).')
    case 'claimStake':
      throw new Error('A claim is quoted by the claim page (features/vesting/sagas.ts).')
  }
}

/**
 * The network fee of what the open dialog would send (docs/product.md §4.4). The newest request wins; a short pause
 * first, so typing an amount quotes once it stops rather than at every key.
 */
export function* feeQuoteSaga({ payload }: ReturnType<typeof feeQuoteRequested>): SagaIterator {
  yield delay(timers.FEE_QUOTE_PAUSE_MS)
  const network = yield* select(selectSupportedNetwork)
  const pool = yield* select(selectPool)
  const failed = (error: string) =>
    put(feeQuoted({ key: payload.key, status: 'failed', fee: null, need: null, balance: null, error }))
  if (!network || !pool) {
    yield failed('The pool is not loaded yet.')
    return
  }
  const purpose = payload.purpose
  let request: TxRequest
  if (purpose.kind === 'restake') {
    // The restake's calldata, as restakeSaga builds it from the list as read.
    const plan = yield* select(selectRestakePlan(purpose.ids, purpose.days))
    const problem = restakeProblem(pool, plan, purpose.days)
    if (problem || !plan) {
      yield failed(problem ?? NOT_MATURED)
      return
    }
    request = { to: pool.address, data: restakeCall(pool, plan, purpose.minimums) }
  } else request = requestFor(purpose, network.contracts.token, pool)
  const figures: FeeFigures = yield call(quoteFee, request, network.chainId)
  if ('error' in figures) yield failed(figures.error)
  else yield put(feeQuoted({ key: payload.key, status: 'ready', error: null, ...figures }))
}

export function* stakeSaga(): SagaIterator {
  // The statistics block (docs/product.md §2.10): the pool's charts from the API's index.
  yield fork(statsSaga)
  yield takeLatest(stakingPageOpened.type, safely(whileOnPage))
  yield takeLatest(allowanceCheckRequested.type, safely(checkAllowance))
  yield takeLeading(approveRequested.type, safely(approveSaga))
  yield takeLeading(depositRequested.type, safely(depositSaga))
  yield takeLeading(depositWithPermitRequested.type, safely(depositWithPermitSaga))
  yield takeLeading(permitSignRequested.type, safely(signPermitSaga))
  yield takeLeading(unstakeRequested.type, safely(unstakeSaga))
  // A write: a second click while the first is in flight is ignored, as for a single close.
  yield takeLeading(closeAllMaturedRequested.type, safely(closeAllMaturedSaga))
  yield takeLeading(restakeRequested.type, safely(restakeSaga))
  yield takeLatest(
    (a: { type: string; payload?: { purpose?: FeePurpose } }) =>
      a.type === feeQuoteRequested.type && !isClaimPurpose(a.payload!.purpose!),
    safely(feeQuoteSaga),
  )
}
