import { act, screen } from '@testing-library/react'
import { App } from '../../../App'
import { connectedWallet, renderWithProviders } from '../../../testUtils'
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
})
