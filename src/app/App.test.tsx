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

  it('shows the default network’s page to a visitor without a wallet, the prompt where the figures go', async () => {
    const { user, store } = renderWithProviders(<App />, {
      preloadedState: { wallet: walletState({ defaultChainId: 31337 }) },
      route: '/staking',
    })
    expect(screen.getByRole('heading', { name: 'Staking & Subscription' })).toBeTruthy()
    expect(screen.getByText('Total staked')).toBeTruthy()
    const prompt = screen.getByTestId('holder-connect')
    expect(within(prompt).getByText('Connect the wallet to continue working')).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
    await user.click(within(prompt).getByRole('button', { name: 'Connect Wallet' }))
    expect(store.getState().wallet.openModal).toBe('chooseWallet')
  })

  it('keeps the page while a remembered wallet reconnects: only the holder’s part waits', () => {
    renderWithProviders(<App />, { preloadedState: { wallet: walletState({ defaultChainId: 31337, ready: false }) } })
    expect(screen.getByRole('heading', { name: 'Claim your allocation' })).toBeTruthy()
    expect(within(screen.getByTestId('holder-waiting')).getByRole('status', { name: 'Loading wallet' })).toBeTruthy()
    expect(screen.queryByText('Connect the wallet to continue working')).toBeNull()
  })

  it('hands ?account= to the store, and names a viewed address with the way back', async () => {
    const viewed = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const { dispatched, user } = renderWithProviders(<App />, {
      preloadedState: { wallet: connectedWallet({ viewAccount: viewed, defaultChainId: 31337 }) },
      route: `/staking?account=${viewed.toLowerCase()}&ref=0x1`,
    })
    expect(dispatched).toContainEqual({ type: 'wallet/accountParamChanged', payload: viewed.toLowerCase() })
    const banner = screen.getByTestId('account-view-banner')
    expect(banner.textContent).toContain(viewed)
    expect((screen.getByRole('button', { name: 'Deposit' }) as HTMLButtonElement).disabled).toBe(true)
    // The navigation keeps the view; the way back keeps the rest of the query.
    expect(screen.getAllByRole('link', { name: 'Claim' })[0].getAttribute('href')).toBe(`/?account=${viewed.toLowerCase()}`)
    expect(within(banner).getByRole('link', { name: 'Back to your own address' }).getAttribute('href')).toBe('/staking?ref=0x1')
    await user.click(within(banner).getByRole('link', { name: 'Back to your own address' }))
    expect(dispatched.at(-1)).toEqual({ type: 'wallet/accountParamChanged', payload: null })
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
