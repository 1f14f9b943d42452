import { buffers, eventChannel, type EventChannel, type SagaIterator } from 'redux-saga'
import { all, call, delay, fork, put, race, spawn, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects'
import { select } from 'typed-redux-saga'
import type { Web3ReactState, Web3ReactStore } from '@web3-react/types'
import { timers } from '../../config/timers'
import { log } from '../../platform/log'
import { getChain, getChainSagas, getEnv, type ChainSagas } from '../../chain/sagaContext'
import { safely } from '../../kit/safely'
import { isModalName, needsWallet } from '../../kit/modals'
import type { BrowserEnv } from '../../platform/browserEnv'
import { addChainParameters, catalogueEntry } from '../../config/catalogue'
import type { ChainLayer } from '../../chain/layer'
import { switchTarget } from '../../config/networks'
import { isBuiltinWallet, isWalletName, type LoadedWallet, type WalletName } from '../../chain/wallets'
import { retryDelayMs } from '../../kit/backoff'
import type { SafeAccount } from '../../chain/safe'
import {
  accountParamChanged,
  accountViewSet,
  connectFailed,
  connectRequested,
  disconnectRequested,
  modalOpened,
  networkNamed,
  referralLoaded,
  switchChainRequested,
  switchChainSettled,
  walletChanged,
  walletOptionsLoaded,
  walletReady,
} from './slice'
import { selectAddress } from './selectors'
import { nextTask } from '../../kit/nextTask'

/**
 * The error reader (src/chain/errors.ts, with ethers' ABI decoder): only a failed request needs it, so it comes from
 * the "chain" chunk (src/app/rootSaga.ts) rather than the first view.
 */
type Errors = typeof import('../../chain/errors')
const loadErrors = (): Promise<Errors> => import(/* webpackChunkName: "chain" */ '../../chain/errors')

/**
 * Address checks (ethers' checksum, with its keccak: about 9 KB gzip) come from the "chain" chunk, as the error reader
 * does: the first view needs neither, and every saga that does runs once that chunk is on its way.
 */
type AddressTools = Pick<typeof import('ethers'), 'getAddress' | 'isAddress'>
const loadAddressTools = (): Promise<AddressTools> =>
  import(/* webpackChunkName: "chain", webpackExports: ["getAddress", "isAddress"] */ 'ethers')

interface ConnectorSnapshot {
  chainId: number | null
  account: string | null
}

/** Connector store updates as a channel, so wallet events arrive in the store as actions. */
export const createConnectorChannel = (store: Web3ReactStore) =>
  eventChannel<ConnectorSnapshot>((emit) =>
    store.subscribe((s: Web3ReactState) => emit({ chainId: s.chainId ?? null, account: s.accounts?.[0] ?? null })),
  )

function networkNameOf(chain: ChainLayer, chainId: number | null): string {
  if (chainId === null) return ''
  return chain.networks[chainId]?.name ?? `Chain ${chainId}`
}

/** Names an unknown chain from the catalogue (a lazy chunk) once it is known. */
function* nameUnknownChain(chainId: number): SagaIterator {
  try {
    const entry: Awaited<ReturnType<typeof catalogueEntry>> = yield call(catalogueEntry, chainId)
    if (entry) yield put(networkNamed({ chainId, name: entry.name }))
  } catch (err) {
    log.warn('wallet', 'chain catalogue unavailable', err)
  }
}

/** After connecting: a modal remembered in the 'modal' cookie opens now (docs/product.md §2.2). */
function* openRememberedModal(env: BrowserEnv): SagaIterator {
  const remembered = env.cookies.get('modal')
  if (!remembered) return
  env.cookies.remove('modal')
  // A cookie is the browser's to change: only a dialog the app has opens.
  if (isModalName(remembered)) yield put(modalOpened(remembered))
}

/**
 * Follows one connector: connect, account change (address updates; token data re-reads through walletChanged),
 * chain change (reload, docs/product.md §3.1) and a disconnect from the wallet's side (cookie removed, reload).
 */
export function* watchConnector(wallet: LoadedWallet): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const env: BrowserEnv = yield getEnv()
  const chan: EventChannel<ConnectorSnapshot> = yield call(createConnectorChannel, wallet.store)
  let prev: ConnectorSnapshot = { chainId: null, account: null }
  try {
    while (true) {
      const next: ConnectorSnapshot = yield take(chan)
      if (next.account === prev.account && next.chainId === prev.chainId) continue
      const name: WalletName = chain.wallets.active ?? wallet.name
      if (prev.chainId !== null && next.chainId !== null && next.chainId !== prev.chainId) {
        env.reload()
        return
      }
      if (prev.account && !next.account) {
        env.cookies.remove('walletName')
        env.reload()
        return
      }
      const wasConnected = prev.account !== null
      prev = next
      if (!next.account || next.chainId === null) continue
      const { getAddress }: AddressTools = yield call(loadAddressTools)
      yield put(
        walletChanged({
          name,
          account: getAddress(next.account),
          chainId: next.chainId,
          networkName: networkNameOf(chain, next.chainId),
        }),
      )
      if (!chain.networks[next.chainId]) yield fork(nameUnknownChain, next.chainId)
      if (!wasConnected) {
        env.cookies.set('walletName', name)
        yield call(openRememberedModal, env)
      }
    }
  } finally {
    chan.close()
  }
}

const watched = new WeakSet<Web3ReactStore>()

function* loadAndWatch(name: WalletName): SagaIterator<LoadedWallet> {
  const chain: ChainLayer = yield getChain()
  // The chain sagas (a lazy chunk) take walletChanged: they run before a wallet can connect (src/app/rootSaga.ts).
  const chainSagas: ChainSagas | undefined = yield getChainSagas()
  const [wallet]: [LoadedWallet] = yield all([
    call([chain.wallets, chain.wallets.load], name),
    ...(chainSagas ? [call(chainSagas)] : []),
  ])
  if (!watched.has(wallet.store)) {
    watched.add(wallet.store)
    // Spawned: it outlives the connect request that loaded the wallet (a forked child would keep that call open).
    yield spawn(watchConnector, wallet)
  }
  return wallet
}

/** Continue in the Choose Wallet dialog: activate the chosen wallet (the account request). */
export function* connectWallet({ payload: name }: ReturnType<typeof connectRequested>): SagaIterator {
  const chain: ChainLayer = yield getChain()
  try {
    if (chain.wallets.active && chain.wallets.active !== name) yield call([chain.wallets, chain.wallets.disconnect])
    const wallet: LoadedWallet = yield call(loadAndWatch, name)
    chain.wallets.use(wallet)
    yield call([wallet.connector, wallet.connector.activate])
  } catch (err) {
    const { isUserRejection, toUserMessage }: Errors = yield call(loadErrors)
    const message = isUserRejection(err) ? 'You rejected the connection in your wallet.' : toUserMessage(err)
    if (!isUserRejection(err)) log.error('wallet', `connecting ${name} failed`, err)
    yield put(connectFailed({ message }))
  }
}

/** Disconnect: the connector lets go, the walletName cookie goes, the page reloads (docs/product.md §3.1). */
export function* disconnectWallet(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const env: BrowserEnv = yield getEnv()
  try {
    yield call([chain.wallets, chain.wallets.disconnect])
  } finally {
    env.cookies.remove('walletName')
    env.reload()
  }
}

interface RpcLike {
  code?: number
  data?: { originalError?: { code?: number } }
}
const errorCode = (err: unknown) => (err as RpcLike)?.code ?? (err as RpcLike)?.data?.originalError?.code

/**
 * Asks the wallet to switch chain: 1 goes to 4 and 56 to 97 when the target has no contracts; a wallet that does not
 * know the chain (4902) is asked to add it first. The wallet's chainChanged then reloads the page.
 */
export function* switchChain({ payload }: ReturnType<typeof switchChainRequested>): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const target = switchTarget(payload.chainId, chain.networks)
  const provider = chain.wallets.provider()
  if (!provider) {
    yield put(switchChainSettled({ error: 'Connect a wallet first.' }))
    return
  }
  const hexId = `0x${target.toString(16)}`
  try {
    try {
      yield call([provider, provider.request], { method: 'wallet_switchEthereumChain', params: [{ chainId: hexId }] })
    } catch (err) {
      if (errorCode(err) !== 4902) throw err
      const entry: Awaited<ReturnType<typeof catalogueEntry>> = yield call(catalogueEntry, target)
      const params = addChainParameters(chain.networks[target], entry)
      yield call([provider, provider.request], { method: 'wallet_addEthereumChain', params: [params] })
      yield call([provider, provider.request], { method: 'wallet_switchEthereumChain', params: [{ chainId: hexId }] })
    }
    yield put(switchChainSettled({ error: null }))
  } catch (err) {
    const { isUserRejection, toUserMessage }: Errors = yield call(loadErrors)
    if (!isUserRejection(err)) log.error('wallet', `switching to ${target} failed`, err)
    yield put(
      switchChainSettled({
        error: isUserRejection(err) ? 'You rejected the network switch in your wallet.' : toUserMessage(err),
      }),
    )
  }
}

/**
 * A dialog that needs a wallet, asked for without one: the reducer opened the connect dialog instead, and the name
 * goes into the 'modal' cookie, so the dialog opens once connected (docs/product.md §2.2), even after a reload.
 */
export function* rememberModal({ payload }: ReturnType<typeof modalOpened>): SagaIterator {
  const env: BrowserEnv = yield getEnv()
  const address = yield* select(selectAddress)
  if (needsWallet(payload) && !address) env.cookies.set('modal', payload)
}

/** The ref query parameter goes into the ref cookie, only when it is an address (docs/product.md §2.1). */
export function* storeReferral(): SagaIterator {
  const env: BrowserEnv = yield getEnv()
  const ref = new URLSearchParams(env.search()).get('ref')?.trim()
  // Most visits carry no referral: they need no address check, and no evaluation of ethers' modules for one in the
  // task where the chain chunk arrives (docs/architecture.md §10).
  if (!ref && env.cookies.get('ref') === undefined) {
    yield put(referralLoaded(null))
    return
  }
  const { getAddress, isAddress }: AddressTools = yield call(loadAddressTools)
  if (ref && isAddress(ref)) env.cookies.set('ref', getAddress(ref))
  const stored = env.cookies.get('ref')
  yield put(referralLoaded(stored && isAddress(stored) ? getAddress(stored) : null))
}

/** At most this much of a refused `?account=` value is repeated back (it may be anything). */
const SHOWN_PARAM = 48

/**
 * `?account=` (docs/product.md §2.8): an address (any case, or checksummed) is shown read only; anything else is
 * refused with the reason, and the pages show nobody's figures rather than the wallet's under another's link.
 */
export function* checkAccountParam({ payload }: ReturnType<typeof accountParamChanged>): SagaIterator {
  const raw = payload?.trim() ?? ''
  if (raw === '') {
    yield put(accountViewSet({ address: null, error: null }))
    return
  }
  const { getAddress, isAddress }: AddressTools = yield call(loadAddressTools)
  // (isAddress is a type guard: on `raw` itself it would leave nothing for the refusal below.)
  if (isAddress(raw as unknown)) {
    yield put(accountViewSet({ address: getAddress(raw), error: null }))
    return
  }
  const shown = raw.length > SHOWN_PARAM ? `${raw.slice(0, SHOWN_PARAM)}…` : raw
  const why = /^0x[0-9a-fA-F]{40}$/.test(raw)
    ? 'its mixed-case letters do not match an address checksum (a typo?)'
    : 'an address is 0x followed by 40 hexadecimal characters'
  yield put(accountViewSet({ address: null, error: `The link's account "${shown}" is not an address: ${why}.` }))
}

/**
 * The public view: the pages read the default network before any wallet connects, so the chain sagas (a lazy chunk)
 * start once the wallet layer is ready, and until their chunk arrives, again with backoff (an offline moment).
 */
export function* startReads(): SagaIterator {
  const chainSagas: ChainSagas | undefined = yield getChainSagas()
  if (!chainSagas) return
  for (let attempt = 0; ; attempt++) {
    try {
      yield call(chainSagas)
      return
    } catch (err) {
      log.warn('wallet', 'the chain code did not load; trying again', err)
      yield delay(retryDelayMs(attempt, Math.random(), timers.RETRY_FIRST_MS, timers.RETRY_MAX_MS))
    }
  }
}

/**
 * Wallets announcing themselves (EIP-6963), for as long as the app runs: each new one is listed in Choose Wallet by
 * its own name and icon. Their providers stay in the chain layer; the store gets the options as JSON.
 */
export function* watchAnnouncedWallets(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  // Announcements made while subscribing (the usual case: extensions answer the request at once) wait in the buffer.
  const chan: EventChannel<true> = yield call(() =>
    eventChannel<true>((emit) => chain.wallets.discover(() => emit(true)), buffers.sliding(1)),
  )
  try {
    while (true) {
      yield take(chan)
      yield put(walletOptionsLoaded(chain.wallets.options()))
    }
  } finally {
    chan.close()
  }
}

/** The remembered wallet is one that announces itself but has not yet: wait a moment for it (an extension loading). */
function* awaitAnnouncement(rdns: string): SagaIterator {
  const chain: ChainLayer = yield getChain()
  if (chain.wallets.isAnnounced(rdns)) return
  yield race({
    announced: take(
      (a: { type: string; payload?: unknown }) =>
        a.type === walletOptionsLoaded.type && (a.payload as { name: string }[]).some((o) => o.name === rdns),
    ),
    timeout: delay(timers.WALLET_ANNOUNCE_WAIT_MS),
  })
}

/** Asks the parent window whether it is Safe{Wallet}; a frame that does not answer is an ordinary page. */
function* findSafeApp(): SagaIterator<SafeAccount | null> {
  const chain: ChainLayer = yield getChain()
  try {
    const safe: SafeAccount | null = yield call([chain.wallets, chain.wallets.findSafeApp], timers.SAFE_APP_WAIT_MS)
    if (safe) yield put(walletOptionsLoaded(chain.wallets.options()))
    return safe
  } catch (err) {
    log.warn('wallet', 'Safe{Wallet} did not answer', err)
    return null
  }
}

function* pollUntilSettled(store: Web3ReactStore | null): SagaIterator {
  while (store?.getState().activating) yield delay(timers.WALLET_READY_POLL_MS)
}

/**
 * Startup: wallet options (and the wallets that announce themselves), eager reconnect from the walletName cookie (a
 * spec option's name, or an announced wallet's rdns), then the readiness poll (200 ms).
 */
export function* startWallet(): SagaIterator {
  const chain: ChainLayer = yield getChain()
  const env: BrowserEnv = yield getEnv()
  yield put(walletOptionsLoaded(chain.wallets.options()))
  // Opened in Safe{Wallet} (a frame whose parent answers as one): the Safe is the account, connected at once.
  const inSafe: SafeAccount | null = env.framed ? yield call(findSafeApp) : null
  const remembered = inSafe ? 'safe' : env.cookies.get('walletName')
  if (isWalletName(remembered) && !isBuiltinWallet(remembered)) yield call(awaitAnnouncement, remembered)
  let store: Web3ReactStore | null = null
  const option = chain.wallets.options().find((o) => o.name === remembered)
  if (isWalletName(remembered) && option && !option.unavailable) {
    try {
      const wallet: LoadedWallet = yield call(loadAndWatch, remembered)
      chain.wallets.use(wallet)
      store = wallet.store
      // Not awaited here: the readiness poll below watches it, with a time limit.
      yield fork(function* eager(): SagaIterator {
        try {
          yield call([wallet.connector, wallet.connector.connectEagerly!])
        } catch (err) {
          log.warn('wallet', 'eager reconnect failed', err)
        }
      })
      yield delay(0)
    } catch (err) {
      log.warn('wallet', `could not reload ${remembered}`, err)
    }
  }
  yield race({ settled: call(pollUntilSettled, store), timeout: delay(timers.WALLET_READY_TIMEOUT_MS) })
  yield put(walletReady())
  yield fork(startReads)
}

/** The Choose Wallet dialog opened: a connect is likely, so the chain sagas' chunk loads while the person chooses. */
export function* warmChainSagas(): SagaIterator {
  const chainSagas: ChainSagas | undefined = yield getChainSagas()
  if (chainSagas) yield call(chainSagas)
}

export function* walletSaga(): SagaIterator {
  // Writes and wallet prompts: ignore double clicks while one is open.
  yield takeLeading(connectRequested.type, safely(connectWallet))
  yield takeLeading(disconnectRequested.type, safely(disconnectWallet))
  yield takeLatest(switchChainRequested.type, safely(switchChain))
  yield takeEvery(modalOpened.type, safely(rememberModal))
  yield takeLatest(accountParamChanged.type, safely(checkAccountParam))
  yield takeLeading(
    (a: { type: string; payload?: unknown }) => a.type === modalOpened.type && a.payload === 'chooseWallet',
    safely(warmChainSagas),
  )
  // The startup's three parts each in a task of their own (nextTask): together they were one
  // task of about 40 ms as the page loads (docs/architecture.md §10). Every action the page can send is taken above.
  yield fork(safely(storeReferral), { type: 'wallet/init' })
  yield call(nextTask)
  // Before startWallet: wallets that answer the request at once are known when it looks for the remembered one.
  yield fork(safely(watchAnnouncedWallets), { type: 'wallet/init' })
  yield call(nextTask)
  yield fork(safely(startWallet), { type: 'wallet/init' })
}
