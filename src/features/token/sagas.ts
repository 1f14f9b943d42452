import type { SagaIterator } from 'redux-saga'
import { call, delay, fork, put, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import { timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain } from '../../chain/sagaContext'
import { safely } from '../../kit/safely'
import type { ChainLayer } from '../../chain/layer'
import { followSafeTx, resumeSentTxs } from '../../chain/tx'
import { safeTxProposed, txConfirmed, txRejected, noticeClosed, rejectionNoticeClosed } from '../../chain/txActions'
import { safeAccountRead, walletChanged } from '../wallet/slice'
import { readSafeAccount, type SafeAccount } from '../../chain/safe'
import { selectAddress, selectNetworkId, selectReadNetwork, selectSupportedNetwork } from '../wallet/selectors'
import { selectFollowedHashes, selectSymbol } from './selectors'
import { TOKEN_DECIMALS } from '../../format/units'
import { scheduledCallsLoaded, scheduledCallsRequested, watchAssetRequested } from './slice'
import { contracts } from '../../chain/contracts'
import { scheduledCalls } from '../../chain/governance'
import type { ScheduledCall } from '../../domain/governance'
import { activitySaga } from './activity/sagas'
import { nextTask } from '../../kit/nextTask'

/** A confirmed transaction's notice goes away on its own after NOTICE_REMOVE_AFTER_MS (docs/product.md §3.5). */
function* removeNoticeLater({ payload }: ReturnType<typeof txConfirmed>): SagaIterator {
  yield delay(timers.NOTICE_REMOVE_AFTER_MS)
  yield put(noticeClosed({ hash: payload.hash }))
}

function* removeRejectionLater(): SagaIterator {
  yield delay(timers.NOTICE_REMOVE_AFTER_MS)
  yield put(rejectionNoticeClosed())
}

/** wallet_watchAsset for the platform token; a wallet that declines or lacks it changes nothing. */
export function* watchAsset(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectSupportedNetwork)
  const symbol = yield* select(selectSymbol)
  const provider = chain.wallets.provider()
  if (!network || !provider || !symbol) return
  try {
    yield call([provider, provider.request], {
      method: 'wallet_watchAsset',
      params: { type: 'ERC20', options: { address: network.contracts.token, symbol, decimals: TOKEN_DECIMALS } },
    })
  } catch (err) {
    log.warn('token', 'the wallet did not add the token', err)
  }
}

/**
 * The calls the network's TimelockController has scheduled for a pool and not yet run (docs/product.md §2.6): read from
 * the deployment's first block, so a change that became ready long ago but was never executed still shows. Without a
 * timelock (the local chain: the deployer owns everything) there are none. A failed read shows nothing new.
 */
export function* readScheduledCalls({ payload }: ReturnType<typeof scheduledCallsRequested>): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectReadNetwork)
  if (!network) return
  if (!network.timelock) {
    yield put(scheduledCallsLoaded({ chainId: network.chainId, target: payload.target, calls: [] }))
    return
  }
  const provider = chain.readProvider(network.chainId)
  try {
    const head: number = yield call([provider, provider.getBlockNumber])
    const calls: ScheduledCall[] = yield call(
      scheduledCalls,
      provider,
      network.timelock.address,
      payload.target,
      contracts.pool(payload.target).interface,
      network.timelock.fromBlock,
      head,
    )
    yield put(scheduledCallsLoaded({ chainId: network.chainId, target: payload.target, calls }))
  } catch (err) {
    log.warn('token', 'the timelock schedule could not be read', err)
  }
}

/** The connected wallet's transactions sent before on this chain, shown again and followed (docs/product.md §11). */
function* resumeSent(): SagaIterator {
  // Each reaction to a wallet event runs in a task of its own, not all in the one that put it (docs/architecture.md §10).
  yield call(nextTask)
  const chainId = yield* select(selectNetworkId)
  const address = yield* select(selectAddress)
  const followed = yield* select(selectFollowedHashes)
  yield call(resumeSentTxs, chainId, address, followed)
}

/**
 * Whether the connected account is a Safe (docs/product.md §11.4), so the dialogs say the other owners must confirm
 * and a deposit goes as one batch. A read that fails leaves it unknown: sends still find out (src/chain/tx.ts).
 */
function* readConnectedSafe(): SagaIterator {
  yield call(nextTask)
  const chain: ChainLayer = yield getChain()
  const network = yield* select(selectSupportedNetwork)
  const address = yield* select(selectAddress)
  if (!network || !address) return
  try {
    const safe: SafeAccount | null = yield call(readSafeAccount, chain.readProvider(network.chainId), address)
    yield put(safeAccountRead({ address, chainId: network.chainId, safe }))
  } catch (err) {
    log.warn('token', 'could not tell whether the account is a Safe', err)
  }
}

export function* tokenSaga(): SagaIterator {
  // No reads of its own: the token figures come with the reads that need them anyway, the vesting read on connect
  // and after a claim, the staking page's batched read with the pool's allowance.
  yield takeEvery(txConfirmed.type, safely(removeNoticeLater))
  yield takeLatest(txRejected.type, safely(removeRejectionLater))
  yield takeLeading(watchAssetRequested.type, safely(watchAsset))
  yield takeLatest(scheduledCallsRequested.type, safely(readScheduledCalls))
  // Every connect, reload and account change: that wallet's transactions sent before on this chain show again and
  // are followed (takeEvery: each resume forks followers that must outlive the next wallet event).
  yield takeEvery(walletChanged.type, safely(resumeSent))
  yield takeLatest(walletChanged.type, safely(readConnectedSafe))
  // The Activity section of both pages (docs/product.md §2.9): the holder's history from the API's index.
  yield fork(activitySaga)
  // A Safe transaction proposed: followed here, through its owners to its end, while its dialog has closed.
  yield takeEvery(
    safeTxProposed.type,
    safely(({ payload }: ReturnType<typeof safeTxProposed>) => followSafeTx(payload.entry)),
  )
}
