import { combineReducers, configureStore, type StoreEnhancer } from '@reduxjs/toolkit'
import createSagaMiddleware from 'redux-saga'
import walletReducer from '../features/wallet/slice'
import tokenReducer from '../features/token/slice'
import stakeReducer from '../features/stake/slice'
import vestingReducer from '../features/vesting/slice'
import { log } from '../platform/log'
import { appClosed, rootSaga } from './rootSaga'
import type { SagaDeps } from '../chain/sagaContext'

export const rootReducer = combineReducers({
  wallet: walletReducer,
  token: tokenReducer,
  stake: stakeReducer,
  vesting: vestingReducer,
})

export type RootState = ReturnType<typeof rootReducer>

/**
 * The store for the app and for tests. With `deps` the sagas run with the chain layer and browser environment in
 * their context; without, it is a plain store (component tests read and dispatch, nothing reaches a chain).
 * `enhancer` lets a test watch every reducer call (the replay test records a session with it).
 */
export function makeStore(preloadedState?: Partial<RootState>, deps?: SagaDeps, enhancer?: StoreEnhancer) {
  const sagaMiddleware = createSagaMiddleware({
    context: deps ? { ...deps } : {},
    onError: (err) => log.error('saga', 'a root saga died', err),
  })
  const base = rootReducer(undefined, { type: '@@init' })
  const state: RootState = {
    ...base,
    ...preloadedState,
    wallet: {
      ...base.wallet,
      networks: deps?.chain.networks ?? {},
      defaultChainId: deps?.chain.config.defaultChainId ?? null,
      ...preloadedState?.wallet,
    },
  }
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: state,
    // The serializable check stays on: a bigint or an ethers object in an action or the state is a bug. Their "took
    // N ms" notices (32 ms by default) only measure a busy machine: test runs on two shared cores printed them.
    middleware: (getDefault) =>
      getDefault({ thunk: false, serializableCheck: { warnAfter: 250 }, immutableCheck: { warnAfter: 250 } }).concat(
        sagaMiddleware,
      ),
    devTools: process.env.NODE_ENV !== 'production',
    enhancers: (getDefault) => (enhancer ? getDefault().concat(enhancer) : getDefault()),
  })
  if (deps) sagaMiddleware.run(rootSaga)
  // close() stops every saga (tests end their stores with it; nothing is left reading after a test).
  return Object.assign(store, { close: () => void store.dispatch(appClosed()) })
}

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']
