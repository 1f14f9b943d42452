import type { SagaIterator } from 'redux-saga'
import { getContext } from 'redux-saga/effects'
import type { BrowserEnv } from '../platform/browserEnv'
import type { ChainLayer } from './layer'

/** What every saga can reach through its context (set by makeStore). */
export interface SagaDeps {
  chain: ChainLayer
  env: BrowserEnv
}

export const getChain = () => getContext('chain')
export const getEnv = () => getContext('env')

/**
 * What the root saga puts in the context as `chainSagas`: the wallet saga calls it (`yield call(chainSagas)`) to have
 * the chain sagas (a lazy chunk) running before it connects; they start once a store.
 */
export type ChainSagas = () => SagaIterator
export const getChainSagas = () => getContext('chainSagas')
