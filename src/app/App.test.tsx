import { act, screen, within } from '@testing-library/react'
import { App, loadScreens } from './App'
import { txSubmitted } from '../chain/txActions'
import { connectedWallet, renderWithProviders, walletState } from '../../test/support/render'

const connected = (chainId: number, name = 'Localhost') => connectedWallet({ networkId: chainId, networkName: name })

// Pages and dialogs are lazy chunks: loaded first, they render at once, as the tests expect.
beforeAll(loadScreens)

describe('shell states', () => {
  it('shows the spinner until the wallet layer is ready', () => {
    renderWithProviders(<App />, { preloadedState: { wallet: walletState({ ready: false }) } })
    expect(screen.getByRole('status', { name: 'Loading wallet' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Claim your allocation' })).toBeNull()
  })

  it('asks for a wallet when there is no address', async () => {
    const { user, store } = renderWithProviders(<App />)
    expect(screen.getByText('Connect the wallet to continue working')).toBeTruthy()
    await user.click(screen.getAllByRole('button', { name: 'Connect Wallet' })[0])
    expect(store.getState().wallet.openModal).toBe('chooseWallet')
    expect(screen.getByRole('dialog', { name: 'Choose Wallet' })).toBeTruthy()
  })

  it('lists the supported networks on an unsupported one, and asks to switch on a click', async () => {
    const { user, store } = renderWithProviders(<App />, { preloadedState: { wallet: connected(1, 'Ethereum') } })
    expect(
      screen.getByText('This network is not supported. Please change your network to one of the networks below:'),
    ).toBeTruthy()
    const buttons = screen.getAllByRole('button').filter((b) => /Localhost|Testnet/.test(b.textContent ?? ''))
    expect(buttons.map((b) => b.textContent)).toEqual(['BNB Smart Chain Testnet', 'Localhost'])
    await user.click(buttons[0])
    expect(store.getState().wallet.switchingTo).toBe(97)
    expect(screen.getByText('Check your wallet…')).toBeTruthy()
  })

  it('shows the page with the shortened address and network name once connected', () => {
    renderWithProviders(<App />, { preloadedState: { wallet: connected(31337) } })
    expect(screen.getByRole('heading', { name: 'Claim your allocation' })).toBeTruthy()
    const button = screen.getByRole('button', { name: /Wallet/ })
    expect(within(button).getByText('0xf3 ... 2266')).toBeTruthy()
    expect(within(button).getByText('Localhost')).toBeTruthy()
  })

  it('routes /staking/:id to the staking page, marks its link active and selects the pool id', () => {
    const { store } = renderWithProviders(<App />, { preloadedState: { wallet: connected(31337) }, route: '/staking/0' })
    expect(screen.getByRole('heading', { name: 'Staking & Subscription' })).toBeTruthy()
    const main = screen.getByRole('navigation', { name: 'Main' })
    expect(within(main).getByRole('link', { name: 'Staking' }).getAttribute('aria-current')).toBe('page')
    expect(within(main).getByRole('link', { name: 'Claim' }).getAttribute('aria-current')).toBeNull()
    expect(store.getState().stake.poolId).toBe(0)
  })

  it('ignores a route pool id that is not a whole number', () => {
    const { store } = renderWithProviders(<App />, { preloadedState: { wallet: connected(31337) }, route: '/staking/1e3' })
    expect(store.getState().stake.poolId).toBeNull()
  })

  it('shows the transaction stack over any page', () => {
    const { store } = renderWithProviders(<App />, { preloadedState: { wallet: connected(97, 'BNB Smart Chain Testnet') } })
    act(() => {
      store.dispatch(txSubmitted({ kind: 'approve', hash: '0xabc', chainId: 97 }))
    })
    expect(screen.getByText('Transaction in progress')).toBeTruthy()
  })
})
