import { createSelector } from '@reduxjs/toolkit'
import type { RootState } from '../../app/store'
import { isSupported, supportedNetworks, type NetworkConfig } from '../../config/networks'
import { shortenAddress } from '../../format/units'

export const selectWallet = (s: RootState) => s.wallet
export const selectAddress = (s: RootState) => s.wallet.address
export const selectNetworkId = (s: RootState) => s.wallet.networkId
export const selectNetworks = (s: RootState) => s.wallet.networks
export const selectOpenModal = (s: RootState) => s.wallet.openModal
const selectReady = (s: RootState) => s.wallet.ready
const selectNetworkName = (s: RootState) => s.wallet.networkName
/** The wallet in use ('dev' for the development account), null when none is connected. */
export const selectWalletName = (s: RootState) => s.wallet.wallet.name
/** The referral from the ref cookie, offered in the deposit form (docs/product.md §2.6). */
export const selectReferral = (s: RootState) => s.wallet.referral
/** The chain a switch was asked for, and the last connect or switch problem (the shell's messages). */
export const selectSwitchingTo = (s: RootState) => s.wallet.switchingTo
export const selectWalletError = (s: RootState) => s.wallet.error

/** The wallet's network config, when the app knows the chain. */
export const selectNetwork = createSelector([selectNetworks, selectNetworkId], (networks, id): NetworkConfig | undefined =>
  id === null ? undefined : networks[id],
)

/** The wallet's network when it has contracts, else null. */
export const selectSupportedNetwork = (s: RootState) => {
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
