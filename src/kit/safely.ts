import { call } from 'redux-saga/effects'
import type { Action } from '@reduxjs/toolkit'
import type { SagaIterator } from 'redux-saga'
import { log } from '../platform/log'

/**
 * Wraps a worker so an uncaught error is logged instead of killing the watcher that forked it
 * (takeLatest / takeLeading stop for good when a worker throws).
 */
export function safely<A extends Action>(worker: (action: A) => SagaIterator | Generator) {
  return function* safeWorker(action: A): SagaIterator {
    try {
      yield call(worker, action)
    } catch (err) {
      log.error('saga', `${worker.name || 'worker'} failed on ${action.type}`, err)
    }
  }
}
