import type { SagaIterator } from 'redux-saga'
import { call, delay, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects'
import { timers } from '../../app/config'
import { log } from '../../app/log'
import { getChain } from '../../app/sagaContext'
import { safely } from '../../app/safely'
import type { RootState } from '../../app/store'
import { contracts } from '../../chain/contracts'
import type { ChainLayer } from '../../chain/layer'
import { txConfirmed, txRejected, noticeClosed, rejectionNoticeClosed } from '../../chain/txActions'
import type { Lens } from '../../chain/types'
import { selectActivePoolId } from '../stake/selectors'
import { walletChanged } from '../wallet/slice'
import { selectSupportedNetwork } from '../wallet/selectors'
import { TOKEN_DECIMALS } from '../../format/units'
import { tokenLoaded, tokenRefreshRequested, watchAssetRequested } from './slice'

/**
 * Token name, symbol, wallet balance and allowance to the current pool, in one Lens call. Runs on connect, on an
 * account change (the spec's "re-reads the allowance"), when the pool changes and after every confirmed transaction.
 */
export function* loadToken(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const address: string | null = yield select((s: RootState) => s.wallet.address)
  const network: ReturnType<typeof selectSupportedNetwork> = yield select(selectSupportedNetwork)
  const poolId: number | null = yield select(selectActivePoolId)
  if (!address || !network || poolId === null) return
  try {
    const lens = contracts.lens(network.contracts.lens, chain.readProvider(network.chainId))
    const d: Awaited<ReturnType<Lens['getPoolDataById']>> = yield call(
      [lens, lens.getPoolDataById],
      network.contracts.poolsInfo,
      poolId,
      address,
    )
    yield put(
      tokenLoaded({
        name: d.tokenName,
        symbol: d.tokenSymbol,
        balance: d.walletStakeTokenBalance.toString(),
        allowance: d.allowance.toString(),
      }),
    )
  } catch (err) {
    log.error('token', 'token read failed', err)
  }
}

/** A confirmed transaction's notice goes away on its own after NOTICE_REMOVE_AFTER_MS (SPEC section 4). */
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
  const network: ReturnType<typeof selectSupportedNetwork> = yield select(selectSupportedNetwork)
  const symbol: string = yield select((s: RootState) => s.token.symbol)
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

export function* tokenSaga(): SagaIterator {
  // Reads: the newest trigger wins.
  // The staking page reads the token in its own batched read (pool changes and its transactions included), so only
  // the claim page's transactions bring the token read here.
  const claimConfirmed = (a: { type: string; payload?: { kind?: string } }) =>
    a.type === txConfirmed.type && (a.payload?.kind === 'claim' || a.payload?.kind === 'claimStake')
  yield takeLatest(
    (a: { type: string; payload?: { kind?: string } }) =>
      a.type === walletChanged.type || a.type === tokenRefreshRequested.type || claimConfirmed(a),
    safely(loadToken),
  )
  yield takeEvery(txConfirmed.type, safely(removeNoticeLater))
  yield takeLatest(txRejected.type, safely(removeRejectionLater))
  yield takeLeading(watchAssetRequested.type, safely(watchAsset))
}
