import { act, screen } from '@testing-library/react'
import { App } from '../../../App'
import { DAY, E18, T0, testPool } from '../../../testFixtures'
import { connectedWallet, renderWithProviders } from '../../../testUtils'
import { initialTokenState } from '../../token/slice'
import { initialStakeState, poolFailed, poolRequested } from '../slice'

const open = () =>
  renderWithProviders(<App />, { preloadedState: { wallet: connectedWallet(), stake: initialStakeState }, route: '/staking' })

describe('staking page before and after its first read', () => {
  it('shows skeletons and a loading line while the first read is under way', () => {
    const { store } = open()
    act(() => {
      store.dispatch(poolRequested())
    })
    expect(screen.getAllByLabelText('Loading')).toHaveLength(3)
    expect(screen.getByText('Loading your stakes…')).toBeTruthy()
  })

  it('ends the skeletons when the first read fails: dashes and the empty list, with no error message', () => {
    const { store } = open()
    act(() => {
      store.dispatch(poolRequested())
      store.dispatch(poolFailed())
    })
    expect(screen.queryAllByLabelText('Loading')).toHaveLength(0)
    expect(screen.getByTestId('pool-total-staked').textContent).toBe('—')
    expect(screen.getByTestId('pool-apr').textContent).toBe('—')
    expect(screen.getByTestId('pool-holders').textContent).toBe('—')
    expect(screen.queryByText('Loading your stakes…')).toBeNull()
    expect(screen.getByText('You do not have any deposits')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows the early-close fees still being shared under the main figures, and no line when there are none', () => {
    const show = (feesStreaming: string) =>
      renderWithProviders(<App />, {
        preloadedState: {
          wallet: connectedWallet(),
          token: { ...initialTokenState, symbol: 'PLT' },
          stake: {
            ...initialStakeState,
            status: 'succeeded',
            pool: testPool({ feesStreaming, feeStreamEnd: T0 + 30 * DAY }),
          },
        },
        route: '/staking',
      })
    const { unmount } = show((250n * E18).toString())
    expect(screen.getByTestId('pool-fee-stream').textContent).toBe(
      '250.00 PLT of early-close fees being shared until Sun, 14 Feb 2027',
    )
    unmount()
    show('0')
    expect(screen.getByTestId('pool-total-staked')).toBeTruthy()
    expect(screen.queryByTestId('pool-fee-stream')).toBeNull()
  })
})
