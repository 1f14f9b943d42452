import { makeStore } from '../../app/store'
import { walletState } from '../../../test/support/render'
import {
  selectActBlock,
  selectChooserAction,
  selectHolderView,
  selectReadNetwork,
  selectShellView,
  selectSupportedNetworkList,
  selectViewedAddress,
  selectViewingOther,
  selectWalletButton,
} from './selectors'
import type { WalletOption } from '../../chain/wallets'

const option = (name: WalletOption['name'], unavailable: string | null = null): WalletOption => ({
  name,
  label: name,
  description: '',
  icon: null,
  unavailable,
  deepLink: null,
})
const state = (over: Parameters<typeof walletState>[0]) => makeStore({ wallet: walletState(over) }).getState()

describe('wallet selectors', () => {
  it('derives the shell view: loading, connect, unsupported, ready', () => {
    expect(selectShellView(state({ ready: false }))).toBe('loading')
    expect(selectShellView(state({}))).toBe('connect')
    expect(selectShellView(state({ address: '0x1', networkId: 1 }))).toBe('unsupported')
    expect(selectShellView(state({ address: '0x1', networkId: 137 }))).toBe('unsupported')
    expect(selectShellView(state({ address: '0x1', networkId: 97 }))).toBe('ready')
  })

  it('shows the default network’s page without a wallet (the public view), even while a wallet reconnects', () => {
    expect(selectShellView(state({ defaultChainId: 31337 }))).toBe('ready')
    expect(selectShellView(state({ defaultChainId: 31337, ready: false }))).toBe('ready')
    expect(selectReadNetwork(state({ defaultChainId: 31337 }))?.chainId).toBe(31337)
    // A default network without contracts has nothing public to show.
    expect(selectShellView(state({ defaultChainId: 56 }))).toBe('connect')
    expect(selectReadNetwork(state({ defaultChainId: 56 }))).toBeNull()
    // Once connected, the wallet's network is read, and an unsupported one is said so as before.
    expect(selectReadNetwork(state({ defaultChainId: 31337, address: '0x1', networkId: 97 }))?.chainId).toBe(97)
    expect(selectShellView(state({ defaultChainId: 31337, address: '0x1', networkId: 1 }))).toBe('unsupported')
  })

  it('says whose figures show, and why nothing can be done on another address’s', () => {
    const own = '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266'
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    expect(selectHolderView(state({ defaultChainId: 31337 }))).toBe('connect')
    expect(selectHolderView(state({ defaultChainId: 31337, ready: false }))).toBe('waiting')
    expect(selectHolderView(state({ address: own }))).toBe('figures')
    expect(selectViewedAddress(state({ address: own, viewAccount: other }))).toBe(other)
    expect(selectActBlock(state({ address: own, viewAccount: other }))).toBe(
      'Read only: this page shows 0x70 ... 79C8. Go back to your own address to act.',
    )
    expect(selectActBlock(state({ viewAccount: other }))).toMatch(/^Read only/)
    // Viewing one's own address through a link is no view at all.
    expect(selectActBlock(state({ address: own, viewAccount: own }))).toBeNull()
    expect(selectViewingOther(state({ address: own, viewAccount: own }))).toBe(false)
    // A bad link shows nobody's figures (not the wallet's under another's link) and acts on nothing.
    const bad = state({ address: own, viewError: 'bad' })
    expect(selectHolderView(bad)).toBe('invalid')
    expect(selectViewedAddress(bad)).toBeNull()
    expect(selectActBlock(bad)).toMatch(/not a valid address/)
  })

  it('lists only networks with contracts as supported', () => {
    expect(selectSupportedNetworkList(state({})).map((n) => n.chainId)).toEqual([97, 31337])
  })

  it('labels the header button', () => {
    expect(selectWalletButton(state({}))).toEqual({ connected: false, label: 'Connect Wallet', networkName: '', iconSet: null })
    const s = state({ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266', networkId: 4, networkName: 'Rinkeby' })
    expect(selectWalletButton(s)).toEqual({
      connected: true,
      label: '0xf3 ... 2266',
      networkName: 'Rinkeby',
      iconSet: 'ethereum',
    })
  })

  it('decides the chooser button: Continue, Disconnect, or disabled', () => {
    const options = [option('browser', 'none here'), option('dev')]
    expect(selectChooserAction(state({ options }))).toEqual({ label: 'Continue', disconnect: false, disabled: true })
    expect(selectChooserAction(state({ options, selected: 'browser' })).disabled).toBe(true)
    expect(selectChooserAction(state({ options, selected: 'dev' }))).toEqual({
      label: 'Continue',
      disconnect: false,
      disabled: false,
    })
    expect(selectChooserAction(state({ options, selected: 'dev', connecting: true })).disabled).toBe(true)
    const connected = { options, selected: 'dev' as const, address: '0x1', wallet: { name: 'dev' as const, connected: true } }
    expect(selectChooserAction(state(connected))).toEqual({ label: 'Disconnect', disconnect: true, disabled: false })
  })
})
