import { createSelector } from '@reduxjs/toolkit'
import type { WalletRoot } from './slice'
import { isSupported, supportedNetworks, type NetworkConfig } from '../../config/networks'
import { shortenAddress } from '../../format/units'

/** What these selectors read: wallet (docs/architecture.md §5). */
type State = WalletRoot

export const selectWallet = (s: State) => s.wallet
export const selectAddress = (s: State) => s.wallet.address
export const selectNetworkId = (s: State) => s.wallet.networkId
export const selectNetworks = (s: State) => s.wallet.networks
export const selectOpenModal = (s: State) => s.wallet.openModal
const selectReady = (s: State) => s.wallet.ready
const selectNetworkName = (s: State) => s.wallet.networkName
/** The wallet in use ('dev' for the development account), null when none is connected. */
export const selectWalletName = (s: State) => s.wallet.wallet.name
/** The referral from the ref cookie, offered in the deposit form (docs/product.md §2.6). */
export const selectReferral = (s: State) => s.wallet.referral
/** The chain a switch was asked for, and the last connect or switch problem (the shell's messages). */
export const selectSwitchingTo = (s: State) => s.wallet.switchingTo
export const selectWalletError = (s: State) => s.wallet.error

/** The wallet's network config, when the app knows the chain. */
export const selectNetwork = createSelector([selectNetworks, selectNetworkId], (networks, id): NetworkConfig | undefined =>
  id === null ? undefined : networks[id],
)

/** The wallet's network when it has contracts, else null. */
export const selectSupportedNetwork = (s: State) => {
  const n = selectNetwork(s)
  return isSupported(n) ? n : null
}

export const selectSupportedNetworkList = createSelector([selectNetworks], supportedNetworks)

/** What the shell shows instead of, or around, the routed page (docs/product.md §2.2). */
export type ShellView = 'loading' | 'connect' | 'unsupported' | 'ready'
export const selectShellView = createSelector(
  [selectReady, selectAddress, selectSupportedNetwork],
  (ready, address, supported): ShellView => {
    if (!ready) return 'loading'
    if (!address) return 'connect'
    if (!supported) return 'unsupported'
    return 'ready'
  },
)

/** The header's wallet button: 'Connect Wallet', or the shortened address and the network name. */
export const selectWalletButton = createSelector(
  [selectAddress, selectNetworkName, selectNetwork],
  (address, networkName, network) => ({
    connected: !!address,
    label: address ? shortenAddress(address) : 'Connect Wallet',
    networkName: address ? networkName : '',
    iconSet: network?.label ?? (address ? 'other' : null),
  }),
)

/** The Choose Wallet action button: 'Disconnect' when the selected wallet is the connected one, else 'Continue'. */
export const selectChooserAction = createSelector([selectWallet], (w) => {
  const option = w.options.find((o) => o.name === w.selected)
  const isConnected = w.wallet.connected && w.wallet.name === w.selected
  return {
    label: isConnected ? 'Disconnect' : 'Continue',
    disconnect: isConnected,
    disabled: !option || (!isConnected && (!!option.unavailable || w.connecting)),
  }
})
