import { createAction } from '@reduxjs/toolkit'
import type { Saga, SagaIterator } from 'redux-saga'
import { all, call, put, race, setContext, spawn, take } from 'redux-saga/effects'
import type { ChainLayer } from '../chain/layer'
import { walletSaga } from '../features/wallet/sagas'
import { chainReadsStarted } from '../features/wallet/slice'
import { getChain, type ChainSagas } from '../chain/sagaContext'
import { nextTask } from '../kit/nextTask'

/** The store is being closed: every feature saga stops (and with it every poll and read it started). */
export const appClosed = createAction('app/closed')

function stopsOnClose(feature: Saga) {
  return function* run(): SagaIterator {
    yield race({ run: call(feature), closed: take(appClosed.type) })
  }
}

/**
 * The sagas that read and write the chain (token, vesting, stake) come with ethers' providers and the contracts' ABIs
 * in a lazy chunk, "chain", so the first view paints without them (docs/architecture.md §5). The wallet saga starts
 * them once the wallet layer is ready (the public view reads the default network), and before it connects a wallet
 * (`chainSagas` in the saga context, see loadAndWatch). The pages ask for their reads only after chainReadsStarted,
 * so nothing they take can come before they run. Their modules load one import a step (each evaluates its module
 * tree; loadChainStepwise yields in between).
 */
const chainSagaSteps: (() => Promise<Saga>)[] = [
  () => import(/* webpackChunkName: "chain" */ '../features/token/sagas').then((m) => m.tokenSaga),
  () => import(/* webpackChunkName: "chain" */ '../features/vesting/sagas').then((m) => m.vestingSaga),
  () => import(/* webpackChunkName: "chain" */ '../features/stake/sagas').then((m) => m.stakeSaga),
]

/**
 * The chunk's modules are evaluated in steps, each in a task of its own (nextTask): its file's
 * arrival (chunkArrived), ethers' contract and ABI code with our ABIs, the ABIs' parse a few fragments a step (the Lens's
 * whole was tens of ms on a phone), the provider, then each feature's sagas. In one go they were a task of 150 ms on a throttled CPU, and
 * the parses were paid inside the task that sends the first read.
 */
function* loadChainStepwise(chain: ChainLayer): SagaIterator<Saga[]> {
  yield call(() => import(/* webpackChunkName: "chain" */ '../chain/chunkArrived'))
  yield call(nextTask)
  const { parseAbis }: typeof import('../chain/contracts') = yield call(
    () => import(/* webpackChunkName: "chain" */ '../chain/contracts'),
  )
  for (const parse of parseAbis()) {
    yield call(nextTask)
    parse()
  }
  yield call(nextTask)
  yield call([chain, chain.loadReads])
  const sagas: Saga[] = []
  for (const step of chainSagaSteps) {
    yield call(nextTask)
    sagas.push(yield call(step))
  }
  return sagas
}

function chainSagasOnce(): ChainSagas {
  let running: Promise<void> | null = null
  let settle = { resolve: () => {}, reject: (_err: unknown) => {} }
  function* start(): SagaIterator {
    try {
      const chain: ChainLayer = yield getChain()
      const sagas: Saga[] = yield call(loadChainStepwise, chain)
      yield all(sagas.map((f) => spawn(stopsOnClose(f))))
      // The pages ask for their reads from now on (they wait for this: an ask before would find no saga taking it).
      yield put(chainReadsStarted())
      settle.resolve()
    } catch (err) {
      // The chunk did not load (offline, a release replaced it): the next connect tries again.
      running = null
      settle.reject(err)
    }
  }
  return function* chainSagas(): SagaIterator {
    if (!running) {
      running = new Promise<void>((resolve, reject) => (settle = { resolve, reject }))
      // Spawned: it belongs to the store, not to the connect that asked first.
      yield spawn(stopsOnClose(start))
    }
    const started = running
    yield call(() => started)
  }
}

/**
 * One root per feature, spawned (not forked) so a crash in one leaves the others running; a spawned task is not
 * cancelled with its parent, so each one also ends on appClosed.
 */
export function* rootSaga(): SagaIterator {
  yield setContext({ chainSagas: chainSagasOnce() })
  yield all([walletSaga].map((f) => spawn(stopsOnClose(f))))
}
