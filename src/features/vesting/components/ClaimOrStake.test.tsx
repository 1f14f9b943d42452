import { act, screen, within } from '@testing-library/react'
import { App, loadScreens } from '../../../app/App'
import { DAY, tokens } from '../../../../test/support/fixtures'
import { answeredClaimState, renderWithProviders } from '../../../../test/support/render'
import { EMPTY_VESTING_INFO, vestingLoaded, type VestingState } from '../slice'

/** Wed, 18 Nov 2026, in ms: when the vesting answer was read. */
const READ_AT = 1_795_000_000_000

const TERMS = [
  { hold: 30 * DAY, bonus: tokens(5n) },
  { hold: 90 * DAY, bonus: tokens(20n) },
  { hold: 180 * DAY, bonus: tokens(40n) },
]

/** The claim page with 72,000 PLT unlocked in a pool paying 400% inflation with a 100% early-close fee. */
function renderClaimPage(vesting: Partial<VestingState> = {}) {
  const preloadedState = answeredClaimState({
    loadedAt: READ_AT,
    harvestTerms: TERMS,
    harvestPool: '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd',
    harvestInflationPercent: tokens(400n),
    harvestUnHoldFee: tokens(100n),
    lastClaimedBlock: '0',
    info: { ...EMPTY_VESTING_INFO, total: tokens(120_000n), unlocked: tokens(72_000n) },
    ...vesting,
  })
  return renderWithProviders(<App />, { preloadedState })
}

const option = (key: string) => screen.getByTestId(`claim-option-${key}`)
const figures = (key: string) =>
  ['at-release', 'apr', 'release-date', 'break-even'].map((id) => within(option(key)).getByTestId(id).textContent)

beforeAll(loadScreens)

describe('claim or stake, side by side', () => {
  it('shows the unlocked amount in the wallet today beside each term at its release, with APR and break-even', () => {
    renderClaimPage()
    const box = screen.getByRole('region', { name: 'Claim or stake' })
    expect(
      within(box).getByText('Your 72,000.00 PLT unlocked, claimed to your wallet now or staked under each term.'),
    ).toBeTruthy()
    expect(
      within(box)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Claim to your wallet', 'Stake 30 days', 'Stake 90 days', 'Stake 180 days'])
    expect(figures('wallet')).toEqual(['72,000.00 PLT', '0.00%', 'Today', 'Today'])
    expect(figures(String(30 * DAY))).toEqual([
      '99,271.23 PLT',
      '460.83%bonus 60.83% + inflation 400.00%',
      'Fri, 18 Dec 2026',
      'Fri, 11 Dec 2026in 23 days',
    ])
    expect(within(option(String(30 * DAY))).getByText('at the release, 27,271.23 PLT more')).toBeTruthy()
    expect(within(option(String(30 * DAY))).getByText('+5.00% bonus + 32.87% inflation reward')).toBeTruthy()
    expect(figures(String(180 * DAY))).toEqual([
      '242,827.39 PLT',
      '481.11%bonus 81.11% + inflation 400.00%',
      'Mon, 17 May 2027',
      'Mon, 18 Jan 2027in 61 days',
    ])
    expect(
      within(box).getByText(/the early withdrawal fee starts at 100\.00% of the amount and falls to 0 at the release/),
    ).toBeTruthy()
  })

  it('is not shown before the first answer or while nothing is unlocked, and shows once something is', async () => {
    const { store } = renderClaimPage({ loadedAt: null, status: 'idle' })
    expect(screen.queryByRole('region', { name: 'Claim or stake' })).toBeNull()
    act(() => {
      store.dispatch(vestingLoaded({ info: { ...EMPTY_VESTING_INFO, total: tokens(10n) }, at: READ_AT }))
    })
    // A task later, when the rest of the answer renders (useStages, a task apart), the comparison is still not there.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)))
    expect(screen.queryByRole('region', { name: 'Claim or stake' })).toBeNull()
    act(() => {
      store.dispatch(vestingLoaded({ info: { ...EMPTY_VESTING_INFO, total: tokens(10n), unlocked: tokens(10n) }, at: READ_AT }))
    })
    await screen.findByRole('region', { name: 'Claim or stake' })
    expect(within(option('wallet')).getByTestId('at-release').textContent).toBe('10.00 PLT')
  })

  it('says so when the pool offers no terms for claims', () => {
    renderClaimPage({ harvestTerms: [] })
    expect(screen.getAllByTestId(/^claim-option-/)).toHaveLength(1)
    expect(screen.getByText('This pool offers no staking terms for claims right now.')).toBeTruthy()
  })
})
