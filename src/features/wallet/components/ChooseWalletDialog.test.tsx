import { act, screen } from '@testing-library/react'
import { renderWithProviders, walletState } from '../../../../test/support/render'
import { ChooseWalletDialog } from './ChooseWalletDialog'
import type { WalletOption } from '../../../chain/wallets'
import { connectFailed } from '../slice'

const options: WalletOption[] = [
  {
    name: 'browser',
    label: 'Browser wallet',
    description: 'ext',
    unavailable: 'No browser wallet found.',
    deepLink: null,
    icon: null,
  },
  { name: 'mobile', label: 'Mobile wallet', description: 'app', unavailable: null, deepLink: null, icon: null },
  {
    name: 'walletconnect',
    label: 'WalletConnect',
    description: 'qr',
    unavailable: 'WalletConnect is not configured for this site (no project id).',
    deepLink: null,
    icon: null,
  },
  { name: 'dev', label: 'Development account', description: 'local', unavailable: null, deepLink: null, icon: null },
]

const setup = (over = {}) =>
  renderWithProviders(<ChooseWalletDialog />, {
    preloadedState: { wallet: walletState({ options, openModal: 'chooseWallet', ...over }) },
  })

const RABBY_ICON = 'data:image/svg+xml;base64,PHN2Zy8+'
const rabby: WalletOption = {
  name: 'io.rabby',
  label: 'Rabby Wallet',
  description: 'Installed in this browser (io.rabby)',
  icon: RABBY_ICON,
  unavailable: null,
  deepLink: null,
}

describe('Choose Wallet dialog', () => {
  it('lists an announced wallet by its own name and icon, and connects through it by its rdns', async () => {
    const { user, store } = setup({ options: [rabby, ...options] })
    const option = screen.getByText('Rabby Wallet').closest('label')!
    expect(option.querySelector('img')!.getAttribute('src')).toBe(RABBY_ICON)
    expect(screen.getByText('Installed in this browser (io.rabby)')).toBeTruthy()
    await user.click(screen.getByText('Rabby Wallet'))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(store.getState().wallet.selected).toBe('io.rabby')
    expect(store.getState().wallet.connecting).toBe(true)
  })

  it('enables Continue only once an available wallet is selected', async () => {
    const { user } = setup()
    const action = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement
    expect(action.disabled).toBe(true)
    await user.click(screen.getByText('WalletConnect'))
    expect(action.disabled).toBe(true)
    expect(screen.getByText('WalletConnect is not configured for this site (no project id).')).toBeTruthy()
    await user.click(screen.getByText('Development account'))
    expect(action.disabled).toBe(false)
  })

  it('Continue asks the chosen wallet to connect', async () => {
    const { user, store } = setup()
    await user.click(screen.getByText('Mobile wallet'))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(store.getState().wallet.connecting).toBe(true)
    expect(screen.getByRole('button', { name: 'Check your wallet…' })).toBeTruthy()
  })

  it('offers Disconnect for the wallet that is connected, Continue for another', async () => {
    const { user } = setup({ address: '0x1', networkId: 31337, wallet: { name: 'dev', connected: true }, selected: 'dev' })
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeTruthy()
    expect(screen.getByText('Development account (connected)')).toBeTruthy()
    await user.click(screen.getByText('Mobile wallet'))
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy()
  })

  it('shows why connecting failed and lets the person try again', async () => {
    const { user, store } = setup()
    await user.click(screen.getByText('Mobile wallet'))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    act(() => {
      store.dispatch(connectFailed({ message: 'You rejected the connection in your wallet.' }))
    })
    expect((await screen.findByRole('alert')).textContent).toBe('You rejected the connection in your wallet.')
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('closes with Escape and with the close control', async () => {
    const { user, store } = setup()
    await user.keyboard('{Escape}')
    expect(store.getState().wallet.openModal).toBeNull()
  })
})
