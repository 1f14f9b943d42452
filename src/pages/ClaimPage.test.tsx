import { act, screen, within } from '@testing-library/react'
import { App, loadScreens } from '../app/App'
import { selectHarvestPool } from '../features/vesting/selectors'
import {
  claimSettled,
  harvestTermsLoaded,
  stakingRequested,
  vestingFailed,
  vestingLoaded,
  vestingRetryScheduled,
  type VestingInfo,
  type VestingState,
} from '../features/vesting/slice'
import { DAY, DEV_ADDRESS, tokens } from '../../test/support/fixtures'
import { feeQuoteKey, type FeePurpose } from '../features/wallet/feeQuote'
import { feeQuoted, feeQuoteRequested } from '../features/wallet/slice'
import { answeredClaimState, renderWithProviders } from '../../test/support/render'

const SIGNED: VestingInfo = {
  total: tokens(120_000n),
  claimed: '0',
  unlocked: tokens(72_000n),
  lastUpdateBlock: '0',
  currentBlock: '52',
  deadline: '1795000000',
  message: '0x01',
  signature: '0x02',
  rewardToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  next: { amount: tokens(4_800n), date: '2026-12-07T10:00:00.000Z' },
  // Public round: 30% at TGE, 30% at month 1, then 10 monthly steps of 4,800.
  schedule: [36_000n, 36_000n, ...Array<bigint>(10).fill(4_800n)].map((amount, i) => ({
    date: new Date(Date.UTC(2026, 9, 8, 10) + i * 30 * DAY * 1000).toISOString(),
    amount: tokens(amount),
  })),
}

const TERMS = [
  { hold: 30 * DAY, bonus: tokens(5n) },
  { hold: 90 * DAY, bonus: tokens(20n) },
  { hold: 180 * DAY, bonus: tokens(40n) },
]

function renderClaimPage(
  vesting: Partial<VestingState> = {},
  info: Partial<VestingInfo> = {},
  lastClaimedBlock: string | null = '0',
) {
  const preloadedState = answeredClaimState({
    harvestTerms: TERMS,
    harvestPool: '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd',
    lastClaimedBlock,
    ...vesting,
    info: { ...SIGNED, ...info },
  })
  return renderWithProviders(<App />, { preloadedState })
}

const stakeButton = () => screen.getByRole('button', { name: 'Claim tokens and stake with up to 400% APR' })
const walletLink = () => screen.getByRole('button', { name: 'Or claim directly to your wallet' })

// Pages and dialogs are lazy chunks: loaded first, they render at once, as the tests expect.
beforeAll(loadScreens)

describe('claim page', () => {
  it('shows placeholders until the first vesting answer, then the three figures, then the timeline a task later', async () => {
    const { store } = renderClaimPage({ status: 'idle', loadedAt: null })
    expect(screen.getByTestId('vesting-available').querySelector('[aria-label="Loading"]')).not.toBeNull()
    // The next-claim line's place is kept (text-shaped bars, hidden from screen readers), so the buttons do not move.
    expect(screen.getByTestId('vesting-next-placeholder').getAttribute('aria-hidden')).toBe('true')
    expect(screen.queryByTestId('vesting-next')).toBeNull()
    expect(stakeButton()).toHaveProperty('disabled', true)
    act(() => {
      store.dispatch(vestingLoaded({ info: SIGNED, at: 1_795_000_000_000 }))
    })
    expect(screen.getByTestId('vesting-available').textContent).toBe('72,000.00 PLT')
    expect(screen.getByTestId('vesting-total').textContent).toBe('120,000.00 PLT')
    expect(screen.getByTestId('vesting-claimed').textContent).toBe('0.00 PLT')
    expect(screen.getByTestId('vesting-next').textContent).toBe('Next claim: 4,800.00 PLT on Mon, 7 Dec 2026')
    expect(screen.queryByTestId('vesting-next-placeholder')).toBeNull()
    expect(screen.getByRole('button', { name: 'Add to calendar: unlock of 4,800.00 PLT on Mon, 7 Dec 2026' })).toBeTruthy()
    // The rest of the answer renders in a task of its own (useStages, a task apart).
    expect(screen.queryByRole('region', { name: 'Unlock timeline' })).toBeNull()
    expect(await screen.findByRole('region', { name: 'Unlock timeline' })).toBeTruthy()
  })

  it('never shows zeros for an API that has not answered: dashes, the outage with a Retry, and no claim', async () => {
    const { store, user, dispatched } = renderClaimPage({ status: 'idle', loadedAt: null })
    act(() => {
      store.dispatch(vestingFailed({ error: "Can't reach the vesting service." }))
      store.dispatch(vestingRetryScheduled(Date.now() + 4_000))
    })
    expect(screen.getByTestId('vesting-available').textContent).toBe('—')
    expect(screen.getByTestId('vesting-total').textContent).toBe('—')
    expect(screen.queryByText('Nothing is unlocked for claim right now.')).toBeNull()
    expect(stakeButton()).toHaveProperty('disabled', true)
    const outage = screen.getByTestId('claim-outage')
    expect(outage.querySelector('h2')!.textContent).toBe("Can't reach the vesting service")
    expect(outage.textContent).toMatch(/Nothing could be read yet\. The page tries again by itself\. Next try in [45] s\./)
    dispatched.length = 0
    await user.click(within(outage).getByRole('button', { name: 'Retry' }))
    expect(dispatched.map((a) => a.type)).toEqual(['vesting/vestingRefreshRequested'])
  })

  it('keeps the last answer on screen when the API fails later, with its block and age, and pauses claims', () => {
    renderClaimPage({ status: 'failed', error: "Can't reach the vesting service.", loadedAt: Date.now() - 200_000 })
    expect(screen.getByTestId('vesting-available').textContent).toBe('72,000.00 PLT')
    expect(screen.getByTestId('claim-outage').textContent).toMatch(
      /Showing the figures of block [\d,]+, read 3 min ago\. Claims are paused; the page updates by itself when it answers\./,
    )
    expect(stakeButton()).toHaveProperty('disabled', true)
  })

  it('shows the token contract, the schedules and the update note', () => {
    renderClaimPage()
    expect(screen.getByText('0x5F ... 0aa3')).toBeTruthy()
    const schedules = screen.getByRole('region', { name: 'Vesting schedules' })
    expect(
      within(schedules)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['PublicTGE 30% + 1st month 30%', 'PrivateTGE 15% + 1st month 20%', 'SeedTGE 10% + 1st month 20%'])
    expect(screen.getByText('This page may take up to 2 hours to update.')).toBeTruthy()
  })

  it('enables both claims when something is unlocked and the last update block matches the chain', () => {
    renderClaimPage()
    expect(stakeButton()).toHaveProperty('disabled', false)
    expect(walletLink()).toHaveProperty('disabled', false)
  })

  it('disables both when nothing is unlocked, and says so', () => {
    renderClaimPage({}, { unlocked: '0', message: null, signature: null })
    expect(stakeButton()).toHaveProperty('disabled', true)
    expect(walletLink()).toHaveProperty('disabled', true)
    expect(screen.getByText('Nothing is unlocked for claim right now.')).toBeTruthy()
  })

  it('disables both when the last update block differs from the last claimed block on chain', () => {
    renderClaimPage({}, {}, '51')
    expect(stakeButton()).toHaveProperty('disabled', true)
    expect(walletLink()).toHaveProperty('disabled', true)
    expect(screen.getByText(/Your last claim is still being processed/)).toBeTruthy()
  })

  it("shows 'You have last claim of X' when no later unlock is due", () => {
    renderClaimPage({}, { next: null })
    expect(screen.getByTestId('vesting-next').textContent).toBe('You have last claim of 72,000.00 PLT')
  })

  it("shows 'All tokens have been claimed' once everything is claimed", () => {
    renderClaimPage({}, { next: null, unlocked: '0', claimed: tokens(120_000n), message: null, signature: null })
    expect(screen.getByTestId('vesting-next').textContent).toBe('All tokens have been claimed')
  })

  it('claims to the wallet from the text link and keeps both disabled while it is in flight', async () => {
    const { user, store, dispatched } = renderClaimPage()
    await user.click(walletLink())
    expect(dispatched.map((a) => a.type)).toContain('vesting/claimRequested')
    expect(store.getState().vesting.claim).toEqual({ status: 'pending', kind: 'wallet', error: null })
    expect(stakeButton()).toHaveProperty('disabled', true)
    expect(screen.getByRole('status', { name: 'Claiming' })).toBeTruthy()
  })

  it('says why a claim to the wallet did not go through, under its buttons, and leaves them usable', async () => {
    const { user, store } = renderClaimPage()
    await user.click(walletLink())
    act(() => {
      store.dispatch(claimSettled({ ok: false, error: 'This claim has already been used; reload the page for a new one.' }))
    })
    expect(screen.getByTestId('claim-error').textContent).toBe('This claim has already been used; reload the page for a new one.')
    expect(walletLink()).toHaveProperty('disabled', false)
    // A failure of claim and stake shows in its term chooser instead, not twice.
    act(() => {
      store.dispatch(stakingRequested({ hold: TERMS[1].hold }))
      store.dispatch(claimSettled({ ok: false, error: 'x' }))
    })
    expect(screen.queryByTestId('claim-error')).toBeNull()
  })

  it('walks the claim-and-stake flow: warning, then terms with the second selected, then the chosen hold', async () => {
    const { user, store, dispatched } = renderClaimPage()
    await user.click(stakeButton())
    const warning = screen.getByRole('dialog', { name: 'Before you stake' })
    expect(within(warning).getByText(/100% penalties/)).toBeTruthy()
    expect(within(warning).getByText(/cannot be cancelled/)).toBeTruthy()
    await user.click(within(warning).getByRole('button', { name: 'I want to stake' }))

    const chooser = screen.getByRole('dialog', { name: 'Choose a staking term' })
    const radios = within(chooser).getAllByRole('radio') as HTMLInputElement[]
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual([
      '30 days+5.00% bonus60.83% APR',
      '90 days+20.00% bonus81.11% APR',
      '180 days+40.00% bonus81.11% APR',
    ])
    expect(radios.map((r) => r.checked)).toEqual([false, true, false])
    await user.click(radios[2])
    expect(radios.map((r) => r.checked)).toEqual([false, false, true])
    await user.click(within(chooser).getByRole('button', { name: 'Claim and stake' }))
    expect(dispatched.find((a) => a.type === 'vesting/stakingRequested')?.payload).toEqual({ hold: 180 * DAY })
    expect(store.getState().vesting.claim.kind).toBe('stake')
    expect(within(chooser).getByRole('button', { name: /Claim and stake/ })).toHaveProperty('disabled', true)
  })

  it("quotes the network fee of claiming and staking for the selected term, and holds the button when it can't be paid", async () => {
    const { user, store, dispatched } = renderClaimPage()
    await user.click(stakeButton())
    await user.click(screen.getByRole('button', { name: 'I want to stake' }))
    const chooser = screen.getByRole('dialog', { name: 'Choose a staking term' })
    const purpose: FeePurpose = { kind: 'claimStake', hold: TERMS[1].hold, unlocked: store.getState().vesting.info.unlocked }
    const key = feeQuoteKey(31337, DEV_ADDRESS, purpose)
    expect(dispatched).toContainEqual(feeQuoteRequested({ key, purpose }))
    act(() => {
      store.dispatch(
        feeQuoted({ key, status: 'ready', fee: '230377000000000', need: '552904800000000', balance: '1', error: null }),
      )
    })
    expect(within(chooser).getByTestId('fee-line').textContent).toBe(
      'Your wallet has less than 0.000001 ETH, and the network fee of this transaction may take up to 0.000553 ETH. Add ETH to the wallet to confirm.',
    )
    expect(within(chooser).getByRole('button', { name: 'Claim and stake' })).toHaveProperty('disabled', true)
    // Another term is another transaction: its own quote.
    await user.click((within(chooser).getAllByRole('radio') as HTMLInputElement[])[0])
    expect(dispatched.filter((a) => a.type === feeQuoteRequested.type).at(-1)!.payload).toMatchObject({
      purpose: { kind: 'claimStake', hold: TERMS[0].hold },
    })
    expect(within(chooser).getByTestId('fee-line').textContent).toBe('Network fee: estimating…')
    expect(within(chooser).getByRole('button', { name: 'Claim and stake' })).toHaveProperty('disabled', false)
  })

  it('adds to each term the inflation reward a version 1 pool pays for its hold', async () => {
    const { user, store } = renderClaimPage()
    act(() => {
      store.dispatch(
        harvestTermsLoaded({ pool: selectHarvestPool(store.getState())!, terms: TERMS, inflationPercent: tokens(400n) }),
      )
    })
    await user.click(stakeButton())
    await user.click(screen.getByRole('button', { name: 'I want to stake' }))
    const chooser = screen.getByRole('dialog', { name: 'Choose a staking term' })
    // 400% a year over 30, 90 and 180 days, funded when the claim is staked.
    expect(
      within(chooser)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual([
      '30 days+5.00% bonus+32.87% inflation reward60.83% APR',
      '90 days+20.00% bonus+98.63% inflation reward81.11% APR',
      '180 days+40.00% bonus+197.26% inflation reward81.11% APR',
    ])
  })

  it('closes the flow with Escape and keeps the page as it was', async () => {
    const { user, store } = renderClaimPage()
    await user.click(stakeButton())
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(store.getState().wallet.openModal).toBeNull()
    expect(stakeButton()).toHaveProperty('disabled', false)
  })

  it('shows the reason in the chooser when the claim and stake fails, with the button usable again', async () => {
    const { user, store } = renderClaimPage()
    await user.click(stakeButton())
    await user.click(screen.getByRole('button', { name: 'I want to stake' }))
    await user.click(screen.getByRole('button', { name: 'Claim and stake' }))
    act(() => {
      store.dispatch({ type: 'vesting/claimSettled', payload: { ok: false, error: 'The claim was already used.' } })
    })
    const chooser = screen.getByRole('dialog', { name: 'Choose a staking term' })
    expect(within(chooser).getByRole('alert').textContent).toBe('The claim was already used.')
    expect(within(chooser).getByRole('button', { name: 'Claim and stake' })).toHaveProperty('disabled', false)
  })
})
