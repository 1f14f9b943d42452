import { act, screen, within } from '@testing-library/react'
import { loadScreens } from '../../../app/App'
import { formatDate } from '../../../format/dates'
import { EMPTY_VESTING_INFO, vestingLoaded, type VestingInfo } from '../slice'
import { DAY, tokens } from '../../../../test/support/fixtures'
import { answeredClaimState, renderWithProviders } from '../../../../test/support/render'
import { UnlockTimeline } from './UnlockTimeline'

// The chart is a lazy chunk: loaded first, it renders at once.
beforeAll(loadScreens)

// Dates around the real clock, which the component reads for "today": the first two unlocks are past, three ahead.
const NOW = Math.floor(Date.now() / 1000)
const AMOUNTS = [3_000n, 3_000n, 1_000n, 1_000n, 2_000n]
const DATES = [-45, -15, 15, 45, 75].map((days) => NOW + days * DAY)
const SCHEDULE = AMOUNTS.map((amount, i) => ({ date: new Date(DATES[i] * 1000).toISOString(), amount: tokens(amount) }))

function renderTimeline(info: Partial<VestingInfo> = {}, loadedAt: number | null = Date.now()) {
  const preloadedState = answeredClaimState({
    loadedAt,
    info: { ...EMPTY_VESTING_INFO, total: tokens(10_000n), claimed: tokens(2_000n), schedule: SCHEDULE, ...info },
  })
  return renderWithProviders(<UnlockTimeline />, { preloadedState })
}

const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent)

describe('the unlock timeline', () => {
  it('lists every unlock of the schedule in a table: date, amount, running total, standing', () => {
    renderTimeline()
    const table = screen.getByRole('table', { name: /Every unlock/ })
    const [head, ...rows] = within(table).getAllByRole('row')
    expect(
      within(head)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Date', 'Unlocks (PLT)', 'Unlocked in all (PLT)', 'Status'])
    expect(rows.map(cells)).toEqual([
      [formatDate(DATES[0]), '3,000.00', '3,000.00', 'Partly claimed'],
      [formatDate(DATES[1]), '3,000.00', '6,000.00', 'Claimable'],
      [formatDate(DATES[2]), '1,000.00', '7,000.00', 'Locked'],
      [formatDate(DATES[3]), '1,000.00', '8,000.00', 'Locked'],
      [formatDate(DATES[4]), '2,000.00', '10,000.00', 'Locked'],
    ])
    expect(table.querySelector('caption')!.textContent).toBe(`Every unlock (dates in UTC; today is ${formatDate(NOW)})`)
  })

  it('splits the allocation at today: claimed, claimable now, still locked', () => {
    renderTimeline()
    const split = screen.getByRole('region', { name: 'Unlock timeline' }).querySelector('dl')!
    expect(
      [...split.querySelectorAll('div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]),
    ).toEqual([
      ['Claimed', '2,000.00 PLT'],
      ['Claimable now', '4,000.00 PLT'],
      ['Still locked', '4,000.00 PLT'],
    ])
    expect(screen.getByText(`As of today, ${formatDate(NOW)}`)).toBeTruthy()
  })

  it('follows a new answer: a claim moves the claimable part to claimed', () => {
    const { store } = renderTimeline()
    act(() => {
      store.dispatch(
        vestingLoaded({
          info: { ...store.getState().vesting.info, claimed: tokens(6_000n), unlocked: '0' },
          at: Date.now(),
        }),
      )
    })
    expect(screen.getByTestId('timeline-claimed').textContent).toBe('6,000.00 PLT')
    expect(screen.getByTestId('timeline-claimable').textContent).toBe('0.00 PLT')
    expect(
      screen
        .getAllByRole('row')
        .slice(1, 3)
        .map((r) => cells(r)[3]),
    ).toEqual(['Claimed', 'Claimed'])
  })

  it('draws a point for each unlock: one tab stop, the arrow keys move, and focus shows the date and amounts', async () => {
    const { user } = renderTimeline()
    const chart = screen.getByRole('group', { name: /Chart of the unlocks/ })
    const points = within(chart).getAllByRole('img')
    expect(points).toHaveLength(5)
    expect(points[2].getAttribute('aria-label')).toBe(`${formatDate(DATES[2])}: 1,000.00 PLT unlock, 7,000.00 PLT in all, locked`)
    // The tab stop is the next unlock.
    expect(points.map((p) => p.getAttribute('tabindex'))).toEqual(['-1', '-1', '0', '-1', '-1'])
    await user.tab()
    expect(document.activeElement).toBe(points[2])
    expect(chart.textContent).toContain(`${formatDate(DATES[2])}1,000.00 PLT unlock7,000.00 PLT in all · Locked`)
    await user.keyboard('{ArrowLeft}')
    expect(document.activeElement).toBe(points[1])
    expect(chart.textContent).toContain(`${formatDate(DATES[1])}3,000.00 PLT unlock6,000.00 PLT in all · Claimable`)
    expect(chart.textContent).not.toContain(formatDate(DATES[2]))
    await user.keyboard('{End}')
    expect(document.activeElement).toBe(points[4])
    expect(points.map((p) => p.getAttribute('tabindex'))).toEqual(['-1', '-1', '-1', '-1', '0'])
  })

  it('shows the same on hover, and hides it when the pointer leaves', async () => {
    const { user } = renderTimeline()
    const chart = screen.getByRole('group', { name: /Chart of the unlocks/ })
    const points = within(chart).getAllByRole('img')
    await user.hover(points[0])
    expect(chart.textContent).toContain(`${formatDate(DATES[0])}3,000.00 PLT unlock3,000.00 PLT in all · Partly claimed`)
    await user.unhover(points[0])
    expect(chart.textContent).not.toContain(formatDate(DATES[0]))
  })

  it('shows nothing before the first answer, or for a wallet without an allocation', () => {
    const { unmount } = renderTimeline({}, null)
    expect(screen.queryByTestId('unlock-timeline')).toBeNull()
    unmount()
    renderTimeline({ total: '0', claimed: '0', schedule: [] })
    expect(screen.queryByTestId('unlock-timeline')).toBeNull()
  })
})
