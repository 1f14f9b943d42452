import { createAction } from '@reduxjs/toolkit'
import type { Saga, SagaIterator } from 'redux-saga'
import { all, call, race, spawn, take } from 'redux-saga/effects'
import { walletSaga } from '../features/wallet/sagas'
import { tokenSaga } from '../features/token/sagas'
import { vestingSaga } from '../features/vesting/sagas'
import { stakeSaga } from '../features/stake/sagas'

/** The store is being closed: every feature saga stops (and with it every poll and read it started). */
export const appClosed = createAction('app/closed')

function stopsOnClose(feature: Saga) {
  return function* run(): SagaIterator {
    yield race({ run: call(feature), closed: take(appClosed.type) })
  }
}

/**
 * One root per feature, spawned (not forked) so a crash in one leaves the others running; a spawned task is not
 * cancelled with its parent, so each one also ends on appClosed.
 */
export function* rootSaga(): SagaIterator {
  yield all([walletSaga, tokenSaga, vestingSaga, stakeSaga].map((f) => spawn(stopsOnClose(f))))
}
