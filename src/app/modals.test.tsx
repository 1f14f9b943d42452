import { screen } from '@testing-library/react'
import { App, loadScreens } from './App'
import { initialStakeState } from '../features/stake/slice'
import { initialTokenState } from '../features/token/slice'
import reducer, { initialWalletState, modalClosed, modalOpened } from '../features/wallet/slice'
import { testPool, testStake } from '../../test/support/fixtures'
import { connectedWallet, renderWithProviders } from '../../test/support/render'
import { isModalName, MODALS, needsWallet, type ModalName } from '../kit/modals'

const NAMES = Object.keys(MODALS) as ModalName[]

// The dialogs are lazy chunks: loaded first, they render at once, as after the prefetch in the browser.
beforeAll(loadScreens)

describe('the modal names', () => {
  it('are a closed list: a cookie or any other string is a dialog only when listed', () => {
    expect(NAMES).toEqual([
      'chooseWallet',
      'connect',
      'deposit',
      'stakeSummary',
      'closeAllMatured',
      'restake',
      'claimWarning',
      'claimTerms',
    ])
    for (const name of NAMES) expect(isModalName(name)).toBe(true)
    for (const other of ['', 'Deposit', 'toString', '__proto__', 'constructor', undefined, null, 1])
      expect(isModalName(other)).toBe(false)
  })

  it('say which dialogs need a wallet (the staking page acts for one)', () => {
    expect(NAMES.filter(needsWallet)).toEqual(['deposit', 'stakeSummary', 'closeAllMatured', 'restake'])
  })
})

describe('modalOpened, the one way to open a dialog', () => {
  const connected = { ...initialWalletState, address: '0xAbC', wallet: { name: 'browser' as const, connected: true } }

  it('opens the dialog named', () => {
    for (const name of NAMES) expect(reducer(connected, modalOpened(name)).openModal).toBe(name)
    expect(reducer(initialWalletState, modalOpened('claimWarning')).openModal).toBe('claimWarning')
  })

  it('opens the connect dialog instead when the dialog needs a wallet and there is none (docs/product.md §2.2)', () => {
    expect(reducer(initialWalletState, modalOpened('deposit')).openModal).toBe('connect')
    expect(reducer(initialWalletState, modalOpened('stakeSummary')).openModal).toBe('connect')
  })

  it('preselects the connected wallet when it opens the chooser, and one dialog replaces another', () => {
    const deposit = reducer(connected, modalOpened('deposit'))
    const chooser = reducer(deposit, modalOpened('chooseWallet'))
    expect(chooser).toMatchObject({ openModal: 'chooseWallet', selected: 'browser' })
    expect(reducer(chooser, modalClosed()).openModal).toBeNull()
  })
})

describe('the open dialog', () => {
  const stake = testStake()
  const open = (openModal: ModalName) =>
    renderWithProviders(<App />, {
      route: '/staking',
      preloadedState: {
        wallet: connectedWallet({ openModal }),
        token: { ...initialTokenState, symbol: 'PLT' },
        stake: {
          ...initialStakeState,
          pool: testPool(),
          status: 'succeeded',
          userStakes: [stake],
          closing: { id: stake.id, status: 'idle', error: null },
        },
      },
    })

  it.each([
    ['chooseWallet', 'Choose Wallet'],
    ['connect', 'Connect your wallet'],
    ['deposit', 'Create deposit'],
    ['stakeSummary', `Stake #${stake.id}`],
    ['closeAllMatured', 'Close all matured'],
    ['restake', 'Restake'],
    ['claimWarning', 'Before you stake'],
    ['claimTerms', 'Choose a staking term'],
  ] satisfies [ModalName, string][])('renders %s from the registry, and only it', async (name, title) => {
    open(name)
    // The deposit dialog is a lazy chunk: it shows once loaded.
    expect(await screen.findByRole('dialog', { name: title })).toBeTruthy()
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
  })

  it('renders no dialog when none is open', () => {
    renderWithProviders(<App />, { preloadedState: { wallet: connectedWallet() } })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
