import { act, screen, within } from '@testing-library/react'
import { App, loadScreens } from '../../../app/App'
import type { RootState } from '../../../app/store'
import { ONE } from '../../../domain/math'
import { DAY, DEV_ADDRESS, T0, testPool, testStake, tokens } from '../../../../test/support/fixtures'
import { feeQuoteKey, type FeePurpose } from '../../wallet/feeQuote'
import { feeQuoted, feeQuoteRequested } from '../../wallet/slice'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { initialTokenState } from '../../token/slice'
import { txRejected, txSubmitted } from '../../../chain/txActions'
import type { WalletState } from '../../wallet/slice'
import { MESSAGES } from '../../../chain/tx'
import {
  closeAllMaturedOpened,
  closeAllMaturedRequested,
  closeAllMaturedSettled,
  initialStakeState,
  unstakeRequested,
  type StakeEntry,
} from '../slice'

/** Pool 1 with its rate up 10% from shared fees. */
const POOL = testPool({ rate: ((11n * ONE) / 10n).toString(), stakersCount: 42 })
const NOW = T0 + 25 * DAY

/**
 * The staking page with `stakes` listed, read at NOW; with `summaryOf` the closing summary of that stake is open, with
 * `wallet` the wallet's state differs (another dialog open, another address shown).
 */
function openPage(
  stakes: StakeEntry[],
  opts: { summaryOf?: number; moreStakes?: boolean; now?: number; wallet?: Partial<WalletState>; route?: string } = {},
) {
  const preloadedState: Partial<RootState> = {
    wallet: connectedWallet({ ...(opts.summaryOf === undefined ? {} : { openModal: 'stakeSummary' }), ...opts.wallet }),
    token: { ...initialTokenState, symbol: 'PLT' },
    stake: {
      ...initialStakeState,
      pool: POOL,
      status: 'succeeded',
      chainTime: opts.now ?? NOW,
      readAt: Date.now(),
      userStakes: stakes,
      moreStakes: opts.moreStakes ?? false,
      totalStakedByUser: tokens(1_000n),
      closing: { id: opts.summaryOf ?? null, status: 'idle', error: null },
    },
  }
  return renderWithProviders(<App />, { preloadedState, route: opts.route ?? '/staking' })
}

const closedEarly = () =>
  testStake({ id: 1, active: false, closeTime: T0 + 50 * DAY, lpAmount: '0', gains: tokens(20n) }, T0 + 50 * DAY, ONE)

// Pages and dialogs are lazy chunks: loaded first, they render at once, as the tests expect.
beforeAll(loadScreens)

describe('stake list', () => {
  it("shows the pool's stakers count, future rewards with their parts, and what a closed stake earned", () => {
    openPage([testStake(), closedEarly()])
    expect(screen.getByTestId('pool-holders').textContent).toBe('42')
    const active = screen.getByTestId('stake-3')
    expect(within(active).getByText('Pending')).toBeTruthy()
    // The 100 bonus, the 400 reward and the 110 shared with it so far, if held to the release.
    const rewards = active.querySelector('td[data-label="Future rewards"]')!
    expect(rewards.textContent).toBe('610.00 PLTreward 400.00 + bonus 100.00 + strong hands 110.00')
    expect(within(active).getByText('1,100.00 shares')).toBeTruthy()
    // Closed early: 1,000 + 200 reward earned + 20 gains - 500 fee.
    const closed = screen.getByTestId('stake-1')
    expect(closed.querySelector('td[data-label="Earned"]')!.textContent).toBe('-280.00 PLT')
    // A close burns the shares: no shares line on a closed row.
    expect(closed.querySelector('td[data-label="Staked amount"]')!.textContent).toBe('1,000.00 PLT')
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
  })

  it('offers the release of a pending stake for a calendar, in its row; not a matured or a closed one', () => {
    const matured = testStake({ id: 2, stakeTime: T0 - 200 * DAY })
    openPage([testStake(), matured, closedEarly()])
    const release = screen.getByTestId('stake-3').querySelector('td[data-label="Release date"]')!
    expect(within(release as HTMLElement).getByRole('button', { name: 'Add to calendar: release of stake #3' })).toBeTruthy()
    expect(screen.getAllByRole('button', { name: /^Add to calendar/ })).toHaveLength(1)
  })

  it("offers 'Show more' when the list goes on past the pages read", async () => {
    const { user, dispatched } = openPage([testStake()], { moreStakes: true })
    await user.click(screen.getByRole('button', { name: 'Show more' }))
    expect(dispatched.map((a) => a.type)).toContain('stake/moreStakesRequested')
  })
})

describe('closing summary', () => {
  const figure = (id: string) => screen.getByTestId(`summary-${id}`).textContent

  it('shows for an early close the fee, the bonus and the unearned reward forfeited, and what is received', async () => {
    const { user, dispatched } = openPage([testStake()], { summaryOf: 3 })
    const dialog = screen.getByRole('dialog', { name: 'Stake #3' })
    expect(within(dialog).getByText('In progress')).toBeTruthy()
    expect(figure('amount')).toBe('1,000.00 PLT')
    expect(within(dialog).getByText('Reward earned so far')).toBeTruthy()
    expect(figure('reward')).toBe('100.00 PLT')
    expect(within(dialog).getByText('Earned from strong hands')).toBeTruthy()
    expect(figure('gains')).toBe('110.00 PLT')
    expect(figure('apr')).toBe('400.00%')
    expect(within(dialog).getByText('Early withdrawal fee')).toBeTruthy()
    expect(figure('fee')).toBe('750.00 PLT')
    expect(within(dialog).getByText('Bonus forfeited')).toBeTruthy()
    expect(figure('bonus-forfeited')).toBe('100.00 PLT')
    expect(within(dialog).getByText('Unearned reward forfeited')).toBeTruthy()
    expect(figure('reward-forfeited')).toBe('300.00 PLT')
    expect(within(dialog).getByText('Total to receive')).toBeTruthy()
    expect(figure('total')).toBe('460.00 PLT')
    expect(screen.queryByTestId('summary-bonus')).toBeNull()
    expect(within(dialog).getByText(/the bonus and the reward not yet earned go back to the reward reservoir/)).toBeTruthy()
    await user.click(within(dialog).getByRole('button', { name: 'Close tranche' }))
    expect(dispatched.find((a) => a.type === 'stake/unstakeRequested')?.payload).toBe(3)
  })

  it('shows for a matured stake the bonus and the whole reward, no fee and nothing forfeited', () => {
    const at = T0 + 100 * DAY
    openPage([testStake({}, at)], { summaryOf: 3, now: at })
    const dialog = screen.getByRole('dialog', { name: 'Stake #3' })
    expect(within(dialog).getByText('Matured')).toBeTruthy()
    expect(figure('reward')).toBe('400.00 PLT')
    expect(figure('bonus')).toBe('100.00 PLT')
    expect(figure('fee')).toBe('0.00 PLT')
    expect(screen.queryByTestId('summary-bonus-forfeited')).toBeNull()
    expect(screen.queryByTestId('summary-reward-forfeited')).toBeNull()
    expect(figure('total')).toBe('1,610.00 PLT')
    expect(within(dialog).queryByText(/go back to the reward reservoir/)).toBeNull()
  })

  it('shows what a closed stake paid, with Close tranche disabled', () => {
    openPage([closedEarly()], { summaryOf: 1 })
    const dialog = screen.getByRole('dialog', { name: 'Stake #1' })
    expect(within(dialog).getByText('Closed')).toBeTruthy()
    expect(within(dialog).getByText('50.00% of 100 days · closed Sat, 6 Mar 2027')).toBeTruthy()
    expect(figure('fee')).toBe('500.00 PLT')
    expect(figure('bonus-forfeited')).toBe('100.00 PLT')
    expect(figure('reward-forfeited')).toBe('200.00 PLT')
    expect(within(dialog).getByText('Received')).toBeTruthy()
    expect(figure('total')).toBe('720.00 PLT')
    expect((within(dialog).getByRole('button', { name: 'Close tranche' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('shows the network fee of the close before it is sent, and keeps it off when the balance cannot pay it', () => {
    const { store, dispatched } = openPage([testStake()], { summaryOf: 3 })
    const purpose: FeePurpose = { kind: 'close', id: 3 }
    const key = feeQuoteKey(31337, DEV_ADDRESS, purpose)
    expect(dispatched).toContainEqual(feeQuoteRequested({ key, purpose }))
    const quoted = (balance: string) =>
      act(() => {
        store.dispatch(feeQuoted({ key, status: 'ready', fee: '91180000000000', need: '218832000000000', balance, error: null }))
      })
    quoted(tokens(1n))
    expect(screen.getByTestId('fee-line').textContent).toBe('Network fee: about 0.000091 ETH')
    expect(screen.getByRole('button', { name: 'Close tranche' })).toHaveProperty('disabled', false)
    quoted('218831999999999')
    expect(screen.getByTestId('fee-line').textContent).toBe(
      'Your wallet has 0.000218 ETH, and the network fee of this transaction may take up to 0.000219 ETH. Add ETH to the wallet to confirm.',
    )
    expect(screen.getByRole('button', { name: 'Close tranche' })).toHaveProperty('disabled', true)
  })

  it('shows the spinner while the close is in flight', () => {
    const { store } = openPage([testStake()], { summaryOf: 3 })
    act(() => {
      store.dispatch({ type: 'stake/unstakeRequested', payload: 3 })
    })
    expect(screen.getByRole('status', { name: 'Closing' })).toBeTruthy()
  })

  it('says in the summary why a close did not go through, with Close tranche usable again', () => {
    const { store } = openPage([testStake()], { summaryOf: 3 })
    act(() => {
      store.dispatch({ type: 'stake/unstakeRequested', payload: 3 })
      store.dispatch({ type: 'stake/unstakeSettled', payload: { ok: false, error: 'This stake is already closed.' } })
    })
    expect(screen.getByTestId('close-error').textContent).toBe('This stake is already closed.')
    expect(screen.getByRole('button', { name: 'Close tranche' })).toHaveProperty('disabled', false)
    // Trying again clears it while the new close is in flight.
    act(() => {
      store.dispatch({ type: 'stake/unstakeRequested', payload: 3 })
    })
    expect(screen.queryByTestId('close-error')).toBeNull()
  })
})

describe('close all matured', () => {
  const LATER = T0 + 200 * DAY
  /** Two matured stakes (#3 released at day 100, #5 at day 150), one pending (#6, day 250) and one closed (#1). */
  const mix = () => [
    testStake({ id: 6, stakeTime: T0 + 150 * DAY }, LATER),
    testStake({ id: 5, stakeTime: T0 + 50 * DAY, stakeAmount: tokens(2_000n) }, LATER),
    testStake({ id: 3 }, LATER),
    closedEarly(),
  ]
  const figure = (id: string) => screen.getByTestId(`close-all-${id}`).textContent
  const openDialog = () => openPage(mix(), { now: LATER, wallet: { openModal: 'closeAllMatured' } })

  it('offers the matured stakes with their count, and previews what closing them pays before one close of exactly them', async () => {
    const { user, dispatched, store } = openPage(mix(), { now: LATER })
    await user.click(screen.getByRole('button', { name: 'Close all matured (2)' }))
    expect(dispatched).toContainEqual(closeAllMaturedOpened())
    expect(store.getState().wallet.openModal).toBe('closeAllMatured')
    const dialog = screen.getByRole('dialog', { name: 'Close all matured' })
    expect(within(dialog).getByText(/^2 matured stakes, closed together in one transaction\./)).toBeTruthy()
    expect(figure('count')).toBe('2')
    // Each pays its amount, its 100 bonus, its whole 400 reward and the 10% the rate rose on its 1,100 shares.
    expect(figure('amount')).toBe('3,000.00 PLT')
    expect(figure('rewards')).toBe('1,000.00 PLT')
    expect(figure('gains')).toBe('220.00 PLT')
    expect(figure('fee')).toBe('0.00 PLT')
    expect(figure('total')).toBe('4,220.00 PLT')
    const each = within(screen.getByTestId('close-all-stakes')).getAllByRole('listitem')
    expect(each.map((li) => li.textContent)).toEqual(['Stake #31,610.00 PLT', 'Stake #52,610.00 PLT'])
    await user.click(within(dialog).getByRole('button', { name: 'Close 2 stakes' }))
    // One close of the two matured stakes: the pending one and the closed one are not in it.
    expect(dispatched.filter((a) => a.type === closeAllMaturedRequested.type)).toEqual([
      closeAllMaturedRequested({ ids: [3, 5] }),
    ])
  })

  it('is not offered without a matured stake, nor for another address shown read only', () => {
    const { unmount } = openPage([testStake({ id: 6, stakeTime: T0 + 150 * DAY }, LATER), closedEarly()], { now: LATER })
    expect(screen.getByTestId('stake-6')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^Close all matured/ })).toBeNull()
    unmount()
    const viewed = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    openPage(mix(), { now: LATER, wallet: { viewAccount: viewed }, route: `/staking?account=${viewed}` })
    expect(screen.getByTestId('stake-3')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^Close all matured/ })).toBeNull()
  })

  it('quotes the network fee of the one unstake(ids) before it is sent', () => {
    const { dispatched } = openDialog()
    const purpose: FeePurpose = { kind: 'closeAll', ids: [3, 5] }
    expect(dispatched).toContainEqual(feeQuoteRequested({ key: feeQuoteKey(31337, DEV_ADDRESS, purpose), purpose }))
  })

  it('is disabled while a close is pending; a refusal says why in the dialog, a rejection leaves it as it was', () => {
    const { store } = openDialog()
    const send = () => screen.getByRole('button', { name: /Close 2 stakes$/ })
    const offer = () => screen.getByRole('button', { name: 'Close all matured (2)' })
    act(() => {
      store.dispatch(closeAllMaturedRequested({ ids: [3, 5] }))
    })
    expect(offer()).toHaveProperty('disabled', true)
    expect(send()).toHaveProperty('disabled', true)
    expect(screen.getByRole('status', { name: 'Closing' })).toBeTruthy()

    act(() => {
      store.dispatch(closeAllMaturedSettled({ ok: false, error: 'This stake is already closed.' }))
    })
    expect(screen.getByTestId('close-all-error').textContent).toBe('This stake is already closed.')
    expect(send()).toHaveProperty('disabled', false)
    expect(offer()).toHaveProperty('disabled', false)

    // Declined in the wallet: only the notice; the dialog keeps its figures and can be confirmed again.
    act(() => {
      store.dispatch(closeAllMaturedRequested({ ids: [3, 5] }))
      store.dispatch(txRejected({ kind: 'unstake', message: MESSAGES.rejected }))
      store.dispatch(closeAllMaturedSettled({ ok: false, error: null }))
    })
    expect(screen.getByText('You rejected the transaction in your wallet.')).toBeTruthy()
    expect(screen.queryByTestId('close-all-error')).toBeNull()
    expect(screen.getByRole('dialog', { name: 'Close all matured' })).toBeTruthy()
    expect(figure('total')).toBe('4,220.00 PLT')
    expect(send()).toHaveProperty('disabled', false)
  })

  it('waits while a single close this wallet sent is still pending, which may hold the same stakes', () => {
    const { store } = openPage(mix(), { now: LATER })
    act(() => {
      store.dispatch(unstakeRequested(3))
      store.dispatch(txSubmitted({ kind: 'unstake', hash: '0x' + '1'.repeat(64), chainId: 31337 }))
    })
    expect(screen.getByRole('button', { name: 'Close all matured (2)' })).toHaveProperty('disabled', true)
  })
})
