import type { Action } from '@reduxjs/toolkit'
import type { Block } from 'ethers'
import type { SagaIterator, Task } from 'redux-saga'
import { all, call, cancel, delay, fork, put, race, take, takeLatest, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { retryDelayMs } from '../../kit/backoff'
import { timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain } from '../../chain/sagaContext'
import { safely } from '../../kit/safely'
import { contracts } from '../../chain/contracts'
import { readFailureMessage } from '../../chain/errors'
import type { ChainLayer } from '../../chain/layer'
import { answerClaimArgs } from '../../domain/vestingAnswer'
import { runTx, type TxOutcome } from '../../chain/tx'
import { txConfirmed, txEnded, txFailed } from '../../chain/txActions'
import type { Lens, RewardHarvest } from '../../chain/types'
import { allowanceLoaded, tokenLoaded } from '../token/slice'
import { accountViewSet, feeQuoted, feeQuoteRequested, modalClosed, walletChanged } from '../wallet/slice'
import { isClaimPurpose, type FeePurpose } from '../wallet/feeQuote'
import { quoteFee, type FeeFigures } from '../../chain/fees'
import { selectActBlock, selectReadNetwork, selectSupportedNetwork, selectViewedAddress } from '../wallet/selectors'
import { fetchVestingInfo } from './api'
import {
  selectClaimBlock,
  selectClaimPageLeft,
  selectVestingHolder,
  selectHarvestPool,
  selectVesting,
  selectVestingInfo,
} from './selectors'
import {
  claimRequested,
  claimSettled,
  harvestTermsLoaded,
  lastClaimedBlockLoaded,
  stakingRequested,
  vestingChainRead,
  vestingFailed,
  vestingLoaded,
  vestingRetryScheduled,
  claimPageClosed,
  claimPageOpened,
  vestingRefreshRequested,
  vestingRequested,
  vestingHolderChanged,
  type VestingInfo,
  type VestingState,
} from './slice'
import { landedFee, ONE, PERCENT, rewardFraction, type StakeBounds } from '../../domain/math'
import { nextTask } from '../../kit/nextTask'

type Network = NonNullable<ReturnType<typeof selectSupportedNetwork>>

/** The vesting API's answer, or why it could not be had (down, too slow, or an answer of another shape). */
function* readVestingInfo(base: string, address: string, quiet: boolean): SagaIterator<VestingInfo | { error: string }> {
  try {
    return yield call(fetchVestingInfo, base, address)
  } catch (err) {
    if (!quiet) log.warn('vesting', 'vesting API unavailable; keeping the last answer', err)
    return { error: readFailureMessage(err, 'api') }
  }
}

type PoolData = Awaited<ReturnType<Lens['getPoolDataById']>>

/**
 * In one batched RPC round trip: the wallet's last claimed block and the default pool's harvest terms, with the
 * token's name, symbol, the wallet balance and the allowance to that pool, and the latest block (the chain's clock,
 * for the unlock timeline's "today").
 */
function* readChain(
  chain: ChainLayer,
  network: Network,
  address: string,
  quiet: boolean,
): SagaIterator<[bigint, PoolData, Block | null] | { error: string }> {
  const provider = chain.readProvider(network.chainId)
  const harvest = contracts.harvest(network.contracts.harvest, provider)
  const lens = contracts.lens(network.contracts.lens, provider)
  try {
    return yield all([
      call([harvest, harvest.getLastBlock], address, network.contracts.token),
      call([lens, lens.getPoolDataById], network.contracts.poolsInfo, network.defaultPoolId, address),
      call([provider, provider.getBlock], 'latest'),
    ])
  } catch (err) {
    if (!quiet) log.warn('vesting', 'reading the last claimed block or the harvest terms failed', err)
    return { error: readFailureMessage(err) }
  }
}

type Answers = [VestingInfo | { error: string }, [bigint, PoolData, Block | null] | { error: string }]

/**
 * The API's status and the chain reads, side by side, never from behind what the page has already shown. Behind a load
 * balancer the chain reads may come from a backend that trails the newest block a transaction of this app landed in
 * (a claim's): they are asked for again, not shown (BEHIND_RETRY_MS, at most BEHIND_ATTEMPTS times; after that the
 * chain itself went back). A status older than the one on screen (another replica of the API, behind) is not shown
 * either: the one on screen stays. A status behind the claim's block is shown as it is, and the claim page says it is
 * being processed (selectClaimBlock: 'stale') while refreshUntilCurrent asks again.
 */
function* readNotBehind(chain: ChainLayer, network: Network, address: string, quiet: boolean): SagaIterator<Answers> {
  const shown = yield* select(selectVestingInfo)
  const holder = yield* select(selectVestingHolder)
  const sameHolder = (holder ?? '').toLowerCase() === address.toLowerCase()
  for (let attempt = 1; ; attempt++) {
    const floor = chain.blockFloor(network.chainId)
    const answers: Answers = yield all([
      call(readVestingInfo, network.vestingApiBase, address, quiet),
      call(readChain, chain, network, address, quiet),
    ])
    const [info, onChain] = answers
    const chainBehind = Array.isArray(onChain) && onChain[2] !== null && onChain[2].number < floor
    if (!chainBehind || attempt >= timers.BEHIND_ATTEMPTS) {
      const older = sameHolder && !('error' in info) && Number(info.currentBlock) < Number(shown.currentBlock)
      return older ? [shown, onChain] : answers
    }
    yield delay(timers.BEHIND_RETRY_MS)
  }
}

/**
 * Vesting status from the network's API and, at the same time, the chain reads. The chain results land first and the
 * status last, so the page never sees a new status next to an old last claimed block (which would flash the claim as
 * stale). A failure of either keeps what was shown and is recorded for the page to say (issue #14,
 * docs/product.md §10.1). Returns whether both answered.
 */
export function* loadVesting(quiet = false): SagaIterator<boolean> {
  const chain: ChainLayer = yield getChain()
  // The connected wallet's status, or the `?account=` address's (read only); nobody's in the public view.
  const address = yield* select(selectViewedAddress)
  const network = yield* select(selectReadNetwork)
  if (!address || !network) return true
  const holder = yield* select(selectVestingHolder)
  if ((holder ?? '').toLowerCase() !== address.toLowerCase()) yield put(vestingHolderChanged(address))
  yield put(vestingRequested())
  // Building the calls takes a task of its own, not the one of the wallet event or click that asked (§10).
  yield call(nextTask)
  const [info, onChain]: [VestingInfo | { error: string }, [bigint, PoolData, Block | null] | { error: string }] = yield call(
    readNotBehind,
    chain,
    network,
    address,
    quiet,
  )
  // The page renders the answers in a task of their own, not in the one that decoded them (docs/architecture.md §10).
  yield call(nextTask)
  if (Array.isArray(onChain)) {
    const [lastBlock, pool, block] = onChain
    // The same Lens answer carries the token figures and the allowance to the default pool, kept under that pool's
    // address (no other reader's allowance is touched): an account change re-reads them (docs/product.md §3.1)
    // without a read of their own.
    yield put(tokenLoaded({ name: pool.tokenName, symbol: pool.tokenSymbol, balance: pool.walletStakeTokenBalance.toString() }))
    yield put(
      allowanceLoaded({ chainId: network.chainId, owner: address, spender: pool.pool, amount: pool.allowance.toString() }),
    )
    yield put(
      harvestTermsLoaded({
        pool: pool.pool,
        terms: pool.harvestTerms.map((t) => ({ hold: Number(t.hold), bonus: t.bonus.toString() })),
        inflationPercent: pool.state.inflationPercent.toString(),
        unHoldFee: pool.state.unHoldFee.toString(),
      }),
    )
    yield put(lastClaimedBlockLoaded(lastBlock.toString()))
    const readAt: number = yield call(Date.now)
    yield put(vestingChainRead({ error: null, ...(block ? { clock: { chainTime: block.timestamp, readAt } } : {}) }))
  } else {
    yield put(vestingChainRead(onChain))
  }
  if ('error' in info) yield put(vestingFailed(info))
  else yield put(vestingLoaded({ info, at: (yield call(Date.now)) as number }))
  return Array.isArray(onChain) && !('error' in info)
}

/**
 * loadVesting, and after a failure again with backoff (retryDelayMs) until the API and the chain both answer, so the
 * claim page comes back by itself after an outage, without a reload. `failedAlready`: the caller's own read just
 * failed, so the first try waits. A newer load (wallet change, page shown, Retry) replaces this one (takeLatest).
 */
export function* loadVestingUntilAnswered(failedAlready = false): SagaIterator {
  try {
    for (let attempt = failedAlready ? 1 : 0; ; attempt++) {
      if (attempt > 0) {
        // Off the claim page nobody sees these figures: no retries there; the page reads again when shown.
        if (yield* select(selectClaimPageLeft)) return
        const wait = retryDelayMs(attempt - 1, Math.random(), timers.RETRY_FIRST_MS, timers.RETRY_MAX_MS)
        yield put(vestingRetryScheduled(Date.now() + wait))
        const { left }: { left?: unknown } = yield race({ wait: delay(wait), left: take(claimPageClosed.type) })
        if (left) return
      }
      // Only the first failure of an outage is logged; its retries say nothing new.
      const ok: boolean = yield call(loadVesting, attempt > 0)
      if (ok) return
    }
  } finally {
    yield put(vestingRetryScheduled(null))
  }
}

/**
 * After a claim the vesting API may still answer with the block before it (it caches, or lags behind the chain);
 * re-read every few seconds until it has caught up, so the page does not stay on 'still being processed', and after
 * VESTING_CATCH_UP_FOR_MS on, more slowly (backoff), for as long as it lags. An outage meanwhile is retried with
 * backoff until it answers (the banner says the page updates by itself).
 */
export function* refreshUntilCurrent(): SagaIterator {
  const fastUntil = Date.now() + timers.VESTING_CATCH_UP_FOR_MS
  for (let slow = 0; ;) {
    const ok: boolean = yield call(loadVesting)
    if (!ok) yield call(loadVestingUntilAnswered, true)
    const block = yield* select(selectClaimBlock)
    if (block !== 'stale') return
    if (Date.now() < fastUntil) yield delay(timers.VESTING_CATCH_UP_MS)
    else yield delay(retryDelayMs(slow++, Math.random(), timers.VESTING_CATCH_UP_MS, timers.RETRY_MAX_MS))
  }
}

/** The calldata of harvest or harvestStake for the signed claim's arguments. */
type HarvestCall = (harvest: RewardHarvest['interface'], args: NonNullable<ReturnType<typeof answerClaimArgs>>) => string

/**
 * Sends a signed claim (to the wallet or into a stake) through the shared transaction helper, then re-reads until
 * the vesting API has seen it. Nothing is sent when the status holds no signed, unlocked amount. A claim that
 * failed (the contract refused it as expired or made for a state that has changed) is replaced by a fresh read, so
 * the next click sends a claim that can pass.
 */
function* sendClaim(kind: 'claim' | 'claimStake', send: HarvestCall): SagaIterator<boolean> {
  // The figures shown may be another address's (`?account=`): only the wallet's own status can be claimed.
  const blocked = yield* select(selectActBlock)
  if (blocked) {
    yield put(claimSettled({ ok: false, error: blocked }))
    return false
  }
  const info = yield* select(selectVestingInfo)
  const network = yield* select(selectSupportedNetwork)
  const args = answerClaimArgs(info)
  if (!network || !args) {
    yield put(claimSettled({ ok: false, error: 'There is nothing to claim.' }))
    return false
  }
  // The signed claim as the API gave it: it commits to the claimed total and last claim block it was made for, and is
  // simulated on a node that has reached that block (the wallet's may trail the API's by a block or two).
  const outcome: TxOutcome = yield call(
    runTx,
    kind,
    {
      to: network.contracts.harvest,
      data: send(contracts.harvest(network.contracts.harvest).interface, args),
    },
    network.chainId,
    { atLeastBlock: Number(info.currentBlock) },
  )
  // A rejection already shows its notice; the page shows only what went wrong (a revert's reason, a dropped send).
  yield put(claimSettled({ ok: outcome.ok, error: outcome.rejected ? null : outcome.error }))
  // Proposed to a Safe's owners: the dialog closes; the claim refreshes the page when it runs (restoredClaimEnded).
  if (outcome.proposed) {
    yield put(modalClosed())
    return false
  }
  // A claim declined in the wallet is still good; one that failed (refused, expired) is replaced by a fresh read.
  if (!outcome.ok && !outcome.rejected) yield call(loadVesting)
  return outcome.ok
}

/** Claim to the wallet: harvest(unlocked, lastUpdateBlock, currentBlock, claimed, deadline, message, signature, rewardToken). */
export function* claimSaga(): SagaIterator {
  const ok: boolean = yield call(sendClaim, 'claim', (h, args) => h.encodeFunctionData('harvest', [...args]))
  if (ok) yield call(refreshUntilCurrent)
}

/**
 * The terms the term chooser showed for staking `amount` under the term of `hold` seconds, as the stake's bounds: the
 * pool's early-close fee, the term's bonus and the inflation reward over the hold (the same math as the chooser). A
 * figure not read yet bounds nothing (fee 100%, reward 0).
 */
export function harvestBounds(v: VestingState, amount: bigint, hold: number): StakeBounds {
  const term = v.harvestTerms.find((t) => t.hold === hold)
  const bonus = (amount * (BigInt(term?.bonus ?? '0') / 100n)) / ONE
  const reward =
    v.harvestInflationPercent === null ? 0n : (amount * rewardFraction(BigInt(v.harvestInflationPercent), BigInt(hold))) / ONE
  const maxFee = v.harvestUnHoldFee === null ? PERCENT : landedFee(BigInt(v.harvestUnHoldFee))
  return { maxFee, minBonus: bonus, minReward: reward }
}

/** The calldata of claim and stake for `hold`: harvestStakeGuarded with the terms the chooser shows. */
function claimStakeCall(vesting: VestingState, pool: string, hold: number): HarvestCall {
  const bounds = harvestBounds(vesting, BigInt(vesting.info.unlocked), hold)
  return (h, args) => h.encodeFunctionData('harvestStakeGuarded', [...args, pool, hold, bounds])
}

/** The network fee of claiming and staking for the term the chooser has selected (docs/product.md §4.4). */
export function* claimFeeQuoteSaga({ payload }: ReturnType<typeof feeQuoteRequested>): SagaIterator {
  if (payload.purpose.kind !== 'claimStake') return
  yield delay(timers.FEE_QUOTE_PAUSE_MS)
  const network = yield* select(selectSupportedNetwork)
  const pool = yield* select(selectHarvestPool)
  const vesting = yield* select(selectVesting)
  const args = answerClaimArgs(vesting.info)
  const figures: FeeFigures =
    network && pool && args
      ? yield call(
          quoteFee,
          {
            to: network.contracts.harvest,
            data: claimStakeCall(
              vesting,
              pool,
              payload.purpose.hold,
            )(contracts.harvest(network.contracts.harvest).interface, args),
          },
          network.chainId,
        )
      : { error: 'There is nothing to claim.' }
  if ('error' in figures)
    yield put(feeQuoted({ key: payload.key, status: 'failed', fee: null, need: null, balance: null, error: figures.error }))
  else yield put(feeQuoted({ key: payload.key, status: 'ready', error: null, ...figures }))
}

/**
 * Claim and stake: harvestStakeGuarded(..., default pool, hold, bounds) with the chosen term's hold in seconds and the
 * terms the chooser showed, so the claim lands on them or better, or is refused with the term that changed (and
 * nothing is claimed).
 */
export function* claimAndStakeSaga({ payload }: ReturnType<typeof stakingRequested>): SagaIterator {
  const pool = yield* select(selectHarvestPool)
  if (!pool) {
    yield put(claimSettled({ ok: false, error: 'There is nothing to claim.' }))
    return
  }
  const vesting = yield* select(selectVesting)
  const ok: boolean = yield call(sendClaim, 'claimStake', claimStakeCall(vesting, pool, payload.hold))
  if (ok) {
    yield put(modalClosed())
    yield call(refreshUntilCurrent)
  }
}

type TxEndAction = { type: string; payload?: { kind?: string; restored?: boolean } }

/** A claim sent before this page loaded reached its end (mined, reverted, replaced, dropped). */
const restoredClaimEnded = (a: TxEndAction) =>
  [txConfirmed.type, txFailed.type, txEnded.type].includes(a.type) &&
  !!a.payload?.restored &&
  (a.payload.kind === 'claim' || a.payload.kind === 'claimStake')

/**
 * The page's read on each trigger, newest first as takeLatest does (an address or network change supersedes a load in
 * flight), except that a trigger for the read already on the wire joins it: a returning wallet's load sends
 * walletChanged, accountViewSet and the page's own request within a moment, and fetched the same status three times.
 * A read waiting out a backoff is not on the wire: Retry starts a fresh one at once.
 *
 * Once a read has answered, what asks again for the same holder on the same network is weighed by what it is: a wallet
 * event or an `?account=` check that changes neither reads nothing (the figures on screen are already theirs); the
 * page shown again reads only when its figures are older than VESTING_FRESH_MS; Retry (vestingRefreshRequested)
 * always reads. A returning wallet's load read its status twice otherwise: once as the wallet reconnected, again when
 * the page's first render checked the address and asked, a moment after the answer (docs/architecture.md §10).
 */
function* readOnEachTrigger(): SagaIterator {
  let running: { key: string; task: Task } | null = null
  // The holder and network of the last read both sources answered (an object: the read's task sets it).
  const last: { answered: string | null } = { answered: null }
  for (;;) {
    const trigger: Action = yield take([
      walletChanged.type,
      accountViewSet.type,
      claimPageOpened.type,
      vestingRefreshRequested.type,
    ])
    // Which read the trigger asks for: the holder shown, on the network read.
    const key = `${(yield* select(selectReadNetwork))?.chainId ?? ''}:${((yield* select(selectViewedAddress)) ?? '').toLowerCase()}`
    const vesting = yield* select(selectVesting)
    const waiting = vesting.retryAt !== null
    if (running?.task.isRunning() && running.key === key && !waiting) continue
    // The figures on screen are this read's, and both sources answered it.
    const shown = last.answered === key && vesting.status === 'succeeded' && vesting.chainStatus === 'succeeded'
    if (shown && !vestingRefreshRequested.match(trigger)) {
      if (!claimPageOpened.match(trigger)) continue
      if ((yield call(Date.now)) - (vesting.loadedAt ?? 0) < timers.VESTING_FRESH_MS) continue
    }
    if (running?.task.isRunning()) yield cancel(running.task)
    running = { key, task: (yield fork(safely(readFor(key)), trigger)) as Task }
  }

  function readFor(key: string) {
    return function* readAndNote(): SagaIterator {
      yield call(loadVestingUntilAnswered, false)
      const v = yield* select(selectVesting)
      if (v.status === 'succeeded' && v.chainStatus === 'succeeded') last.answered = key
    }
  }
}

export function* vestingSaga(): SagaIterator {
  // No claim saga waits for a claim found again after a reload: its end refreshes the page here instead.
  yield takeLatest(restoredClaimEnded, safely(refreshUntilCurrent))
  yield fork(readOnEachTrigger)
  // Writes: a second click while one is open is ignored.
  yield takeLeading(claimRequested.type, safely(claimSaga))
  yield takeLeading(stakingRequested.type, safely(claimAndStakeSaga))
  yield takeLatest(
    (a: { type: string; payload?: { purpose?: FeePurpose } }) =>
      a.type === feeQuoteRequested.type && isClaimPurpose(a.payload!.purpose!),
    safely(claimFeeQuoteSaga),
  )
}
