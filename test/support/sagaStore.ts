import fs from 'node:fs'
import path from 'node:path'
import { JsonRpcProvider } from 'ethers'
import { runSaga, type Saga } from 'redux-saga'
import type { StoreEnhancer } from '@reduxjs/toolkit'
import { setTimers, timers, type Timers } from '../../src/config/timers'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { makeStore, type AppStore, type RootState } from '../../src/app/store'
import type { BuildConfig } from '../../src/config/buildConfig'
import { createMemoryEnv } from '../../src/platform/browserEnv'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { createChainLayer } from '../../src/chain/layer'
import type { SafeAppFinder } from '../../src/chain/wallets'
import { TestWallet } from '../../scripts/lib/testWallet'

export const CHAIN_URL = () => process.env.CHAIN_URL!

// Short timers keep the suite quick; the logic under test is the same.
setTimers({
  WALLET_READY_POLL_MS: 20,
  RECEIPT_POLL_MS: 50,
  ALLOWANCE_POLL_MS: 50,
  NOTICE_REMOVE_AFTER_MS: 300,
  VESTING_CATCH_UP_MS: 50,
  VESTING_CATCH_UP_FOR_MS: 1_000,
})

export function deployment(): DeploymentRecord {
  return JSON.parse(fs.readFileSync(path.join(process.env.TEST_DEPLOYMENTS_DIR!, '31337.json'), 'utf8'))
}

/** Nothing listens on port 1: the APIs are down unless a test passes a running service's URL. */
export function buildConfig(
  apiUrl = 'http://127.0.0.1:1',
  rpcUrl: string | string[] = CHAIN_URL(),
  record: Partial<DeploymentRecord> = {},
): BuildConfig {
  return {
    deployments: { 31337: { ...deployment(), ...record } },
    api: { vesting: { 31337: `${apiUrl}/vesting` }, parser: { 31337: apiUrl } },
    localRpcUrls: Array.isArray(rpcUrl) ? rpcUrl : [rpcUrl],
    localExplorerUrl: `${apiUrl}/explorer`,
    defaultChainId: 31337,
    walletConnectProjectId: '',
    safeAppOrigins: ['https://app.safe.global'],
  }
}

/** Hardhat's default accounts, as the node lists them. */
export async function nodeAccounts(): Promise<string[]> {
  return new JsonRpcProvider(CHAIN_URL(), 31337, { staticNetwork: true }).send('eth_accounts', [])
}

/** A scripted injected wallet on `chainId`, installed as window.ethereum for the MetaMask connector. */
export function installInjectedWallet(account: string, chainId = 31337, knownChains?: number[]): TestWallet {
  const wallet = new TestWallet(CHAIN_URL(), { account, chainId, knownChains })
  Object.assign(globalThis, { window: { ethereum: wallet, addEventListener() {}, removeEventListener() {} } })
  return wallet
}

const open: AppStore[] = []
// Every store a test made stops its sagas when the test ends, so no read outlives the test (or its API server).
afterEach(() => {
  for (const store of open.splice(0)) store.close()
})

/**
 * A store with the app's sagas; `rpcUrl` puts something (a counting proxy) between its reads and the node, or lists
 * several endpoints to fall back between.
 */
export function makeTestStore(
  opts: {
    env?: ReturnType<typeof createMemoryEnv>
    injected?: unknown
    apiUrl?: string
    rpcUrl?: string | string[]
    enhancer?: StoreEnhancer
    /** Fields that replace the deployment record's (a timelock, for instance). */
    record?: Partial<DeploymentRecord>
    /** A Safe{Wallet} stand-in around the app (with an env that is `framed`). */
    findSafeApp?: SafeAppFinder
  } = {},
) {
  const env = opts.env ?? createMemoryEnv({ injected: opts.injected })
  const chain = createChainLayer(buildConfig(opts.apiUrl, opts.rpcUrl, opts.record), env, { findSafeApp: opts.findSafeApp })
  const store = makeStore(undefined, { chain, env }, opts.enhancer)
  open.push(store)
  return { store, env, chain }
}

/** Resolves once `predicate(state)` holds; fails with the last state after `timeoutMs`. */
export function waitFor(store: AppStore, predicate: (s: RootState) => boolean, timeoutMs = 15_000): Promise<RootState> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const s = store.getState()
      if (predicate(s)) {
        unsubscribe()
        clearTimeout(timer)
        resolve(s)
      }
    }
    const unsubscribe = store.subscribe(check)
    const timer = setTimeout(() => {
      unsubscribe()
      const { networks: _n, ...wallet } = store.getState().wallet
      reject(
        new Error(
          `condition not met in ${timeoutMs} ms; wallet: ${JSON.stringify(wallet)}; token: ${JSON.stringify(store.getState().token)}; vesting: ${JSON.stringify(store.getState().vesting)}; stake: ${JSON.stringify({ ...store.getState().stake, userStakes: store.getState().stake.userStakes.length })}`,
        ),
      )
    }, timeoutMs)
    check()
  })
}

/** Runs one saga against `store` with the store's context, as a feature saga would. */
export function runWithStore<Args extends unknown[], R>(
  store: AppStore,
  deps: { chain: unknown; env: unknown },
  saga: Saga<Args>,
  ...args: Args
): Promise<R> {
  return runSaga({ dispatch: store.dispatch, getState: store.getState, context: deps }, saga, ...args).toPromise()
}

export async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  return new JsonRpcProvider(CHAIN_URL(), 31337, { staticNetwork: true, cacheTimeout: -1 }).send(method, params)
}

/**
 * Every line the app logs during a saga test is captured, so a green run is quiet. Most stores here have no vesting
 * API (nothing listens on its port) and log at each connect that it is unavailable: expected, dropped, as are RTK's
 * notices that its development checks ran slowly on a busy machine. Any other line
 * must be taken by the test (capturingLogs, expectLogged), or the test fails with it.
 */
const expectedHere = (line: string) =>
  line.startsWith('[vesting] vesting API unavailable') ||
  // RTK's development checks say when they ran slowly: a measure of a busy machine (two cores shared with a fuzz run),
  // not of the app. The checks themselves stay on and still fail on a bigint or an ethers object.
  /^(Serializable|Immutable)StateInvariantMiddleware took \d+ms/.test(line)
let logged: string[] = []
let spies: jest.SpyInstance[] = []
beforeEach(() => {
  logged = []
  const keep = (...args: unknown[]) => void logged.push(String(args[0]))
  spies = [jest.spyOn(console, 'warn').mockImplementation(keep), jest.spyOn(console, 'error').mockImplementation(keep)]
})
afterEach(() => {
  spies.forEach((s) => s.mockRestore())
  const unexpected = logged.filter((l) => !expectedHere(l))
  logged = []
  expect(unexpected).toEqual([])
})

/** Runs `body`: its value, and the first argument of each line logged meanwhile (taken, so they do not fail the test). */
export async function capturingLogs<T>(body: () => Promise<T>): Promise<{ value: T; logged: string[] }> {
  const from = logged.length
  const value = await body()
  return { value, logged: logged.splice(from) }
}

/** Takes `line` out of what the test logged, failing when it was not logged. */
export function expectLogged(line: string) {
  expect(logged).toContain(line)
  logged.splice(logged.indexOf(line), 1)
}

/**
 * Runs `body` with a fault proxy in front of `target` (the node or the API; `proxy.setFault` cuts it) and with the
 * timers `overrides` shortens; both are undone afterwards, pass or fail.
 */
export async function withFaultProxy(
  target: string,
  overrides: Partial<Timers>,
  body: (proxy: Awaited<ReturnType<typeof startRpcProxy>>) => Promise<void>,
): Promise<void> {
  const saved = { ...timers }
  setTimers(overrides)
  const proxy = await startRpcProxy(target)
  try {
    await body(proxy)
  } finally {
    setTimers(saved)
    await proxy.stop()
  }
}
