import { act, screen, within } from '@testing-library/react'
// Importing it mocks IntersectionObserver in every test here: nothing is near the screen until a test says so.
import { mockAllIsIntersecting } from 'react-intersection-observer/test-utils'
import { loadScreens } from '../../../app/App'
import { initialTokenState } from '../../token/slice'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { testPool, tokens } from '../../../../test/support/fixtures'
import { initialStakeState, statsFailed, statsLoaded, statsRequested, statsShown, type StatPoint } from '../slice'
import { PoolStatistics } from './PoolStatistics'

// The charts are a lazy chunk: loaded first, they render at once.
beforeAll(loadScreens)

const POOL = testPool().address.toLowerCase()
const day = (d: number) => new Date(Date.UTC(2027, 0, d)).toISOString()
const point = (d: number, total: bigint, stakers: number, fees = 0n): StatPoint => ({
  time: day(d),
  totalStaked: tokens(total),
  stakers,
  staked: '0',
  closed: '0',
  fees: tokens(fees),
})
const index = (lag = 0) => ({ indexedBlock: 700, headBlock: 700 + lag, lag })

/** The block, scrolled within 200 px of the screen unless `near` is false. */
function renderStats(near = true) {
  const view = renderWithProviders(<PoolStatistics />, {
    preloadedState: {
      wallet: connectedWallet({ readsReady: true }),
      token: { ...initialTokenState, symbol: 'PLT' },
      stake: { ...initialStakeState, pool: testPool() },
    },
  })
  if (near) act(() => mockAllIsIntersecting(true))
  const answer = (points: StatPoint[], lag = 0, range: '7d' | '30d' | 'all' = '30d') => {
    act(() => {
      view.store.dispatch(statsRequested({ pool: POOL, range }))
      view.store.dispatch(statsLoaded({ pool: POOL, range, interval: 'day', points, index: index(lag), at: Date.now() }))
    })
    // The charts' place, drawn with the answer, is near the screen too.
    if (near) act(() => mockAllIsIntersecting(true))
  }
  return { ...view, answer }
}

describe('the statistics block', () => {
  it('asks for the pool shown, and for another period when one is chosen', async () => {
    const { dispatched, user } = renderStats()
    expect(dispatched).toContainEqual(statsShown({ pool: testPool().address }))
    expect(screen.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true')
    await user.click(screen.getByRole('button', { name: 'All time' }))
    expect(dispatched.at(-1)).toEqual({ type: 'stake/statsRangeChosen', payload: 'all' })
    expect(screen.getByRole('button', { name: 'All time' }).getAttribute('aria-pressed')).toBe('true')
  })

  it('waits to ask until the block comes within 200 px of the screen', () => {
    const { dispatched } = renderStats(false)
    expect(dispatched.map((a) => a.type)).not.toContain(statsShown.type)
    act(() => mockAllIsIntersecting(true))
    expect(dispatched).toContainEqual(statsShown({ pool: testPool().address }))
  })

  it('draws the charts beside a summary and a table of the same figures, newest day first', () => {
    const { answer } = renderStats()
    expect(screen.getByLabelText('Loading the statistics')).toBeTruthy()
    answer([point(1, 1_000n, 2), point(2, 1_500n, 3, 4n)])
    const summary = screen.getByTestId('statistics-summary')
    expect(summary.textContent).toBe(
      'Total staked1,500.00 PLT+500.00 PLT over the last 30 daysStakers3Fees shared with holders4.00 PLT over the last 30 days',
    )
    const rows = within(screen.getByTestId('statistics-table')).getAllByRole('row')
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['Day', 'Total staked', 'Stakers', 'Staked', 'Closed', 'Fees shared'],
      ['Sat, 2 Jan 2027', '1,500.00', '3', '0.00', '0.00', '4.00'],
      ['Fri, 1 Jan 2027', '1,000.00', '2', '0.00', '0.00', '0.00'],
    ])
    const charts = screen.getByTestId('statistics-charts')
    expect(
      within(charts).getByRole('img', { name: /^Total staked by day, 1 Jan to 2 Jan: from 1,000 to 1,500 PLT/ }),
    ).toBeTruthy()
    expect(within(charts).getByRole('img', { name: 'Stakers by day, 1 Jan to 2 Jan: from 2 to 3.' })).toBeTruthy()
  })

  it('says when the service is down (Retry), or the index behind, and never draws an empty period as nothing', async () => {
    const { store, user, dispatched, answer } = renderStats()
    act(() => {
      store.dispatch(statsRequested({ pool: POOL, range: '30d' }))
      store.dispatch(statsFailed({ pool: POOL, range: '30d', error: "Can't reach the statistics service.", failure: 'down' }))
    })
    const down = screen.getByTestId('statistics-down')
    expect(down.textContent).toContain("Can't reach the statistics service")
    expect(screen.queryByTestId('statistics-empty')).toBeNull()
    expect(screen.queryByLabelText('Loading the statistics')).toBeNull()
    await user.click(within(down).getByRole('button', { name: 'Retry' }))
    expect(dispatched.at(-1)?.type).toBe('stake/statsRefreshRequested')
    answer([], 40)
    expect(screen.getByTestId('statistics-behind').textContent).toContain('The statistics are 40 blocks behind the chain')
    expect(screen.getByTestId('statistics-empty').textContent).toBe('Nothing indexed for this pool up to block 700 yet.')
    answer([], 0)
    expect(screen.getByTestId('statistics-empty').textContent).toBe('No stakes in this pool in the last 30 days.')
  })
})
