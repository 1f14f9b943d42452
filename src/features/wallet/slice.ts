import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { NetworkConfig } from '../../config/networks'
import type { WalletName, WalletOption } from '../../chain/wallets'

/** Dialogs the shell can open; features add their own names (the deposit modal, for one). */
export type ModalName = 'chooseWallet' | 'connect' | 'deposit' | (string & {})

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
  openModal: ModalName | null
  /** The referral from the ref cookie (a checksummed address), offered as 'Your referral' in the deposit form. */
  referral: string | null
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
    /** A screen asks for a modal; the saga opens the connect modal instead when it needs a wallet and has none. */
    modalRequested(_state, _action: PayloadAction<{ name: ModalName; needsWallet?: boolean }>) {},
    modalOpened(state, action: PayloadAction<ModalName>) {
      state.openModal = action.payload
      if (action.payload === 'chooseWallet') state.selected = state.wallet.name
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
  walletSelected,
  connectRequested,
  connectFailed,
  walletChanged,
  networkNamed,
  disconnectRequested,
  switchChainRequested,
  switchChainSettled,
  modalRequested,
  referralLoaded,
  modalOpened,
  modalClosed,
} = walletSlice.actions
export default walletSlice.reducer
