import { makeStore } from '../../app/store'
import { walletState } from '../../../test/support/render'
import { selectChooserAction, selectShellView, selectSupportedNetworkList, selectWalletButton } from './selectors'
import type { WalletOption } from '../../chain/wallets'

const option = (name: WalletOption['name'], unavailable: string | null = null): WalletOption => ({
  name,
  label: name,
  description: '',
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
