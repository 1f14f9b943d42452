import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { NetworkConfig } from '../../config/networks'
import type { WalletName, WalletOption } from '../../chain/wallets'
import { needsWallet, type ModalName } from '../../kit/modals'
import type { FeePurpose, FeeQuote } from './feeQuote'
import type { SafeAccount } from '../../chain/safe'

export interface WalletState {
  /** The wallet and chain layer finished starting (eager reconnect settled): the spinner goes away. */
  ready: boolean
  address: string | null
  networkId: number | null
  networkName: string
  wallet: { name: WalletName | null; connected: boolean }
  /** The app's network table (config, plain JSON), so selectors can tell supported networks apart. */
  networks: Record<number, NetworkConfig>
  options: WalletOption[]
  /** The option the person picked in the Choose Wallet dialog. */
  selected: WalletName | null
  connecting: boolean
  /** Last connect or switch problem, shown in the dialog or the shell; null when none. */
  error: string | null
  switchingTo: number | null
  /**
   * The dialog open, for the whole app (its names: src/app/modals.ts). It lives here rather than in a slice of its own
   * because the wallet gates it: a dialog that needs a wallet opens the connect dialog while there is no address, a
   * connection closes the wallet's own dialogs, and opening or closing those resets the chooser's selection, its
   * connect-in-progress and its error; kept apart, each of these would be an action crossing two slices.
   */
  openModal: ModalName | null
  /** The referral from the ref cookie (a checksummed address), offered as 'Your referral' in the deposit form. */
  referral: string | null
  /** The chain the pages read before a wallet names one (the build's DEFAULT_CHAIN_ID): the public view. */
  defaultChainId: number | null
  /** The chain sagas (a lazy chunk) are running: the pages may ask for their reads (src/app/rootSaga.ts). */
  readsReady: boolean
  /**
   * The `?account=` view (docs/product.md §2.8): the checksummed address the pages show read only, or null for the
   * connected wallet's own; `viewError` says why a given value was refused (the pages then show nobody's figures).
   */
  viewAccount: string | null
  viewError: string | null
  /** The network fee of what the open dialog would send (feeQuote.ts); null when no dialog asked. */
  feeQuote: FeeQuote | null
  /**
   * The connected account is a Safe (docs/product.md §11.4): its threshold and owner count, read from the chain;
   * null for an account with a key (or until read). Its sends are proposals its other owners must confirm.
   */
  safe: SafeAccount | null
}

/** The part of the store this slice owns: what its selectors read, typed without the whole store. */
export interface WalletRoot {
  wallet: WalletState
}

export const initialWalletState: WalletState = {
  ready: false,
  address: null,
  networkId: null,
  networkName: '',
  wallet: { name: null, connected: false },
  networks: {},
  options: [],
  selected: null,
  connecting: false,
  error: null,
  switchingTo: null,
  openModal: null,
  referral: null,
  defaultChainId: null,
  readsReady: false,
  viewAccount: null,
  viewError: null,
  feeQuote: null,
  safe: null,
}

const walletSlice = createSlice({
  name: 'wallet',
  initialState: initialWalletState,
  reducers: {
    walletOptionsLoaded(state, action: PayloadAction<WalletOption[]>) {
      state.options = action.payload
    },
    referralLoaded(state, action: PayloadAction<string | null>) {
      state.referral = action.payload
    },
    walletReady(state) {
      state.ready = true
    },
    chainReadsStarted(state) {
      state.readsReady = true
    },
    /** The page's `?account=` value, as the router has it (null without one); the wallet saga checks it. */
    accountParamChanged(_state, _action: PayloadAction<string | null>) {},
    /** The checked `?account=`: the address to show read only, or why the value was refused. */
    accountViewSet(state, action: PayloadAction<{ address: string | null; error: string | null }>) {
      state.viewAccount = action.payload.address
      state.viewError = action.payload.error
    },
    walletSelected(state, action: PayloadAction<WalletName>) {
      state.selected = action.payload
      state.error = null
    },
    /** Continue in the Choose Wallet dialog. */
    connectRequested(state, _action: PayloadAction<WalletName>) {
      state.connecting = true
      state.error = null
    },
    connectFailed(state, action: PayloadAction<{ message: string }>) {
      state.connecting = false
      state.error = action.payload.message
    },
    /** The connector reported an account and chain (connect, account change) or lost them. */
    walletChanged(
      state,
      action: PayloadAction<{ name: WalletName; account: string | null; chainId: number | null; networkName: string }>,
    ) {
      const { name, account, chainId, networkName } = action.payload
      if (account?.toLowerCase() !== state.address?.toLowerCase() || chainId !== state.networkId) state.safe = null
      state.address = account
      state.networkId = chainId
      state.networkName = networkName
      state.wallet = { name: account ? name : null, connected: !!account }
      if (account) {
        state.connecting = false
        state.error = null
        if (state.openModal === 'chooseWallet' || state.openModal === 'connect') state.openModal = null
      }
    },
    /** What the connected account is, read from the chain; a read for an account no longer connected is dropped. */
    safeAccountRead(state, action: PayloadAction<{ address: string; chainId: number; safe: SafeAccount | null }>) {
      const { address, chainId, safe } = action.payload
      if (address.toLowerCase() === state.address?.toLowerCase() && chainId === state.networkId) state.safe = safe
    },
    networkNamed(state, action: PayloadAction<{ chainId: number; name: string }>) {
      if (state.networkId === action.payload.chainId) state.networkName = action.payload.name
    },
    disconnectRequested() {},
    switchChainRequested(state, action: PayloadAction<{ chainId: number }>) {
      state.switchingTo = action.payload.chainId
      state.error = null
    },
    switchChainSettled(state, action: PayloadAction<{ error: string | null }>) {
      state.switchingTo = null
      state.error = action.payload.error
    },
    /**
     * The one way to open a dialog. One that needs a wallet (src/app/modals.ts) opens the connect dialog instead while
     * there is no address; the wallet saga then remembers it in the 'modal' cookie (docs/product.md §2.2).
     */
    modalOpened(state, action: PayloadAction<ModalName>) {
      const name = needsWallet(action.payload) && !state.address ? 'connect' : action.payload
      state.openModal = name
      if (name === 'chooseWallet') state.selected = state.wallet.name
    },
    /** A dialog's Confirm would send `purpose` (its key made by feeQuoteKey): quote its network fee. */
    feeQuoteRequested(state, action: PayloadAction<{ key: string; purpose: FeePurpose }>) {
      if (state.feeQuote?.key === action.payload.key && state.feeQuote.status !== 'failed') return
      state.feeQuote = { key: action.payload.key, status: 'pending', fee: null, need: null, balance: null, error: null }
    },
    feeQuoted(state, action: PayloadAction<FeeQuote>) {
      // An answer for what the dialog no longer shows is dropped.
      if (state.feeQuote?.key === action.payload.key) state.feeQuote = action.payload
    },
    modalClosed(state) {
      state.openModal = null
      state.connecting = false
      state.error = null
    },
  },
})

export const {
  walletOptionsLoaded,
  walletReady,
  chainReadsStarted,
  accountParamChanged,
  accountViewSet,
  walletSelected,
  connectRequested,
  connectFailed,
  walletChanged,
  networkNamed,
  safeAccountRead,
  disconnectRequested,
  switchChainRequested,
  switchChainSettled,
  referralLoaded,
  modalOpened,
  modalClosed,
  feeQuoteRequested,
  feeQuoted,
} = walletSlice.actions
export default walletSlice.reducer
