import { act, screen, within } from '@testing-library/react'
import { App, loadScreens } from '../../../app/App'
import { DAY, E18, T0, testPool, testStake } from '../../../../test/support/fixtures'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { initialTokenState } from '../../token/slice'
import { autoUpdateChanged, initialStakeState, poolFailed, poolRequested, stakesFailed, type StakeState } from '../slice'

/** The staking page with the stake slice at `stake` over its initial state, for a token called PLT. */
const open = (stake: Partial<StakeState> = {}) =>
  renderWithProviders(<App />, {
    preloadedState: {
      wallet: connectedWallet(),
      token: { ...initialTokenState, symbol: 'PLT' },
      stake: { ...initialStakeState, ...stake },
    },
    route: '/staking',
  })

// Pages and dialogs are lazy chunks: loaded first, they render at once, as the tests expect.
beforeAll(loadScreens)

describe('staking page before and after its first read', () => {
  it('shows skeletons and a loading line while the first read is under way', () => {
    const { store } = open()
    act(() => {
      store.dispatch(poolRequested())
    })
    expect(screen.getAllByLabelText('Loading')).toHaveLength(4)
    expect(screen.getByText('Loading your stakes…')).toBeTruthy()
  })

  it('ends the skeletons when the first read fails: dashes, the outage with a Retry, and never the empty state', async () => {
    const { store, user, dispatched } = open()
    act(() => {
      store.dispatch(poolRequested())
      store.dispatch(poolFailed({ error: 'The network did not answer in time.' }))
      store.dispatch(stakesFailed({ error: 'The network did not answer in time.' }))
      store.dispatch(autoUpdateChanged({ mode: 'paused', retryAt: Date.now() + 8_000 }))
    })
    expect(screen.queryAllByLabelText('Loading')).toHaveLength(0)
    expect(screen.getByTestId('pool-total-staked').textContent).toBe('—')
    expect(screen.getByTestId('pool-apr').textContent).toBe('—')
    expect(screen.getByTestId('pool-holders').textContent).toBe('—')
    expect(screen.getByTestId('my-total-staked').textContent).toBe('—')
    expect(screen.queryByText('Loading your stakes…')).toBeNull()
    expect(screen.queryByText('You do not have any deposits')).toBeNull()
    const outage = screen.getByTestId('staking-outage')
    expect(outage.querySelector('h2')!.textContent).toBe("Can't reach the network")
    expect(outage.textContent).toContain('Nothing could be read yet. The page tries again by itself. Next try in 8 s.')
    expect(outage.textContent).toContain('The network did not answer in time.')
    expect(screen.getByTestId('stake-list-error').textContent).toContain('Your stakes could not be read.')
    dispatched.length = 0
    await user.click(within(outage).getByRole('button', { name: 'Retry' }))
    await user.click(within(screen.getByTestId('stake-list-error')).getByRole('button', { name: 'Retry' }))
    expect(dispatched.map((a) => a.type)).toEqual(['stake/stakeRefreshRequested', 'stake/stakeRefreshRequested'])
  })

  it('keeps the last figures and rows on screen when a later read fails, marked with their block and age', () => {
    // 3 min 20 s: the page's shared clock ticks once a second, so a test reads it up to a tick late.
    const readAt = Date.now() - 200_000
    open({
      status: 'failed',
      error: "Can't reach the network.",
      autoUpdate: 'paused',
      retryAt: Date.now() + 30_000,
      pool: testPool(),
      blockNumber: 1234,
      readAt,
      chainTime: T0 + 25 * DAY,
      userStakes: [testStake()],
      listStatus: 'ok',
      totalStakedByUser: (1_000n * E18).toString(),
    })
    const outage = screen.getByTestId('staking-outage')
    expect(outage.textContent).toMatch(
      /Showing the figures of block 1,234, read 3 min ago\. Updates are paused and resume by themselves when the network answers\. Next try in 3\d s\./,
    )
    expect(screen.getByTestId('my-total-staked').textContent).toBe('1,000.00 PLT')
    expect(screen.getByTestId('stake-3')).toBeTruthy()
    expect(screen.queryByTestId('pool-as-of')).toBeNull()
  })

  it('says which block current figures are as of', () => {
    open({ status: 'succeeded', pool: testPool(), blockNumber: 98_765, readAt: Date.now() })
    expect(screen.getByTestId('pool-as-of').textContent).toBe('As of block 98,765, read just now')
    expect(screen.queryByTestId('staking-outage')).toBeNull()
  })

  it('shows the early-close fees still being shared under the main figures, and no line when there are none', () => {
    const show = (feesStreaming: string) =>
      open({ status: 'succeeded', pool: testPool({ feesStreaming, feeStreamEnd: T0 + 30 * DAY }) })
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
