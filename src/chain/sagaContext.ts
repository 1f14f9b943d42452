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
