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

/** The chain sagas run: a page may ask for its reads. */
export const selectReadsReady = (s: State) => s.wallet.readsReady
export const selectViewAccount = (s: State) => s.wallet.viewAccount
export const selectViewError = (s: State) => s.wallet.viewError

/**
 * The network the pages read: the wallet's once one is connected (null on a chain without contracts), else the
 * build's default network, so a visitor without a wallet sees its figures (the public view, docs/product.md §2.8).
 */
export const selectReadNetwork = (s: State) => {
  if (s.wallet.address) return selectSupportedNetwork(s)
  const id = s.wallet.defaultChainId
  const n = id === null ? undefined : s.wallet.networks[id]
  return isSupported(n) ? n : null
}

/** Whose figures the pages read: the `?account=` address, else the wallet's; null for nobody's (also after a bad link). */
export const selectViewedAddress = (s: State): string | null => {
  if (s.wallet.viewError) return null
  return s.wallet.viewAccount ?? s.wallet.address
}

/** The pages show an address that is not the connected wallet's (read only). */
export const selectViewingOther = (s: State) => s.wallet.viewAccount !== null && s.wallet.viewAccount !== s.wallet.address

/**
 * Why no action can be taken on what the page shows, or null when it can: another address shown read only, or a
 * link whose account could not be read. Without a wallet, actions stay open: they ask for one (docs/product.md §2.2).
 */
export const selectActBlock = createSelector([selectViewAccount, selectViewError, selectViewingOther], (view, error, other) => {
  if (error) return 'The account in the link is not a valid address, so nothing here can be done.'
  if (view !== null && other) return `Read only: this page shows ${shortenAddress(view)}. Go back to your own address to act.`
  return null
})

/** What stands where the holder's own figures go: them, the connect prompt, or the bad-link message. */
export type HolderView = 'figures' | 'connect' | 'invalid' | 'waiting'
export const selectHolderView = (s: State): HolderView => {
  if (s.wallet.viewError) return 'invalid'
  // A remembered wallet still reconnecting: its figures are coming, the connect prompt would be wrong.
  if (!s.wallet.ready && !s.wallet.viewAccount) return 'waiting'
  return selectViewedAddress(s) ? 'figures' : 'connect'
}

/** What the shell shows instead of, or around, the routed page (docs/product.md §2.2). */
export type ShellView = 'loading' | 'connect' | 'unsupported' | 'ready'
export const selectShellView = createSelector(
  [selectReady, selectAddress, selectSupportedNetwork, selectReadNetwork],
  (ready, address, supported, readable): ShellView => {
    // A page that needs no wallet shows at once: while a remembered wallet reconnects, only the holder's part waits
    // (HolderGate). Without one, the spinner until the wallet layer is ready.
    if (!ready) return readable ? 'ready' : 'loading'
    // Without a wallet the pages show the default network's figures; only a build without one asks to connect.
    if (!address) return readable ? 'ready' : 'connect'
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

/** The network fee quote the open dialog asked for (features/wallet/feeQuote.ts). */
export const selectFeeQuote = (s: State) => s.wallet.feeQuote

/** The connected account's Safe (threshold, owners), or null for an account with a key (docs/product.md §11.4). */
export const selectSafe = (s: State) => s.wallet.safe

/** The Safe is open in Safe{Wallet}, which takes several calls as one Safe transaction (a deposit's approve and stake). */
export const selectCanBatch = (s: State) => s.wallet.safe !== null && s.wallet.wallet.name === 'safe'
