import type { SagaIterator } from 'redux-saga'
import { all, spawn } from 'redux-saga/effects'
import { walletSaga } from '../features/wallet/sagas'
import { tokenSaga } from '../features/token/sagas'
import { vestingSaga } from '../features/vesting/sagas'

/** One root per feature, spawned (not forked) so a crash in one leaves the others running. */
export function* rootSaga(): SagaIterator {
  yield all([spawn(walletSaga), spawn(tokenSaga), spawn(vestingSaga)])
}
