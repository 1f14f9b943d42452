import { act, screen, within } from '@testing-library/react'
import { App, loadScreens } from '../../../app/App'
import type { RootState } from '../../../app/store'
import { DAY, ONE, previewStake } from '../../../domain/math'
import { DEV_ADDRESS, T0, testPool, testStake, tokens } from '../../../../test/support/fixtures'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { feeQuoteKey, type FeePurpose } from '../../wallet/feeQuote'
import { feeQuoteRequested, type WalletState } from '../../wallet/slice'
import { initialTokenState, scheduledCallsLoaded } from '../../token/slice'
import { txRejected } from '../../../chain/txActions'
import { MESSAGES } from '../../../chain/tx'
import { formatAmount } from '../../../format/units'
import { depositPreview, poolMath } from '../selectors'
import {
  initialStakeState,
  poolLoaded,
  restakeOpened,
  restakeRequested,
  restakeSettled,
  type PoolInfo,
  type StakeEntry,
} from '../slice'

/** Pool 1 with its rate up 10% from shared fees, 10,000 shares at risk. */
const POOL = testPool({ rate: ((11n * ONE) / 10n).toString(), totalShares: tokens(10_000n) })
const NOW = T0 + 200 * 86_400
const D = 86_400
/** #3 matured at day 100 (pays 1,610), #5 (2,000) at day 150 (pays 2,610), #6 pending until day 250. */
const mix = () => [
  testStake({ id: 6, stakeTime: T0 + 150 * D }, NOW),
  testStake({ id: 5, stakeTime: T0 + 50 * D, stakeAmount: tokens(2_000n) }, NOW),
  testStake({ id: 3 }, NOW),
]

/** The staking page read at NOW with `stakes`; `restaking` open in the restake dialog, or `wallet` as given. */
function openPage(
  stakes: StakeEntry[],
  opts: { restaking?: number[]; pool?: PoolInfo; wallet?: Partial<WalletState>; route?: string } = {},
) {
  const preloadedState: Partial<RootState> = {
    wallet: connectedWallet({ ...(opts.restaking ? { openModal: 'restake' } : {}), ...opts.wallet }),
    token: { ...initialTokenState, symbol: 'PLT' },
    stake: {
      ...initialStakeState,
      pool: opts.pool ?? POOL,
      status: 'succeeded',
      chainTime: NOW,
      readAt: Date.now(),
      userStakes: stakes,
      listStatus: 'ok',
      totalStakedByUser: tokens(4_000n),
      restaking: { ids: opts.restaking ?? [], status: 'idle', error: null },
    },
  }
  return renderWithProviders(<App />, { preloadedState, route: opts.route ?? '/staking' })
}

const dialog = () => screen.getByRole('dialog', { name: 'Restake' })
const days = () => within(dialog()).getByLabelText('Days') as HTMLInputElement
const confirm = () => within(dialog()).getByRole('button', { name: /Confirm$/ }) as HTMLButtonElement
const figure = (id: string) => within(dialog()).getByTestId(id).textContent

// Pages and dialogs are lazy chunks: loaded first, they render at once.
beforeAll(loadScreens)

describe('restake dialog', () => {
  it('opens from a matured row, shows what it pays as the fixed amount and the deposit preview of it, and sends one restake', async () => {
    const { user, dispatched } = openPage(mix())
    // Only the matured rows offer it.
    expect(screen.queryByRole('button', { name: 'Restake stake #6' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Restake stake #5' })).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Restake stake #3' }))
    expect(dispatched).toContainEqual(restakeOpened({ ids: [3] }))
    expect(within(dialog()).getByText(/^Stake #3 is matured\. Restaking closes it and stakes all it pays now/)).toBeTruthy()
    expect(figure('restake-amount')).toBe('1,610.00 PLT')
    expect(
      within(screen.getByTestId('restake-stakes'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Stake #31,610.00 PLT'])
    // The deposit dialog's term: 365 days to start with, 1 to the pool's maximum.
    expect(days().value).toBe('365')
    expect(within(dialog()).getByText('From 1 to 1095')).toBeTruthy()
    await user.clear(days())
    await user.type(days(), '90')
    // The deposit dialog's estimate of a 1,610 stake for 90 days without a referral, in the pool it meets.
    const amount = 1_610n * 10n ** 18n
    const shown = depositPreview(POOL, amount, 90, false, 'PLT')
    const model = previewStake(poolMath(POOL), amount, 90n * DAY, false)
    expect(figure('preview-length-bonus')).toBe(shown.lengthBonus)
    expect(figure('preview-referral-bonus')).toBe('0.00%')
    expect(figure('preview-total-shares')).toBe(shown.totalShares)
    expect(figure('preview-share-of-pool')).toBe(shown.shareOfPool)
    expect(figure('preview-bonus')).toBe(formatAmount(model.bonus, { symbol: 'PLT' }))
    expect(figure('preview-reward')).toBe(formatAmount(model.reward, { symbol: 'PLT' }))
    expect(figure('preview-at-maturity')).toBe(formatAmount(model.atMaturity, { symbol: 'PLT' }))
    expect(within(dialog()).getByText(/Closing earlier costs a fee of up to 100\.00% of the amount/)).toBeTruthy()
    // Its curve: the same chart panel as the deposit's, for the new stake.
    expect(within(dialog()).getByRole('slider')).toBeTruthy()
    // No approval: nothing leaves the pool.
    expect(within(dialog()).queryByRole('button', { name: /Approve/ })).toBeNull()
    await user.click(confirm())
    expect(dispatched.filter((a) => a.type === restakeRequested.type)).toEqual([
      restakeRequested({ ids: [3], days: 90, minimums: null }),
    ])
  })

  it('"Restake all" in "Close all matured" restakes every matured stake, and the read-only view offers neither', async () => {
    const { user, dispatched, unmount } = openPage(mix(), { wallet: { openModal: 'closeAllMatured' } })
    await user.click(screen.getByRole('button', { name: 'Restake all' }))
    expect(dispatched).toContainEqual(restakeOpened({ ids: [3, 5] }))
    expect(figure('restake-amount')).toBe('4,220.00 PLT')
    expect(
      within(dialog()).getByText(/^2 matured stakes\. Restaking closes them and stakes all they pay now as one new stake/),
    ).toBeTruthy()
    await user.click(confirm())
    expect(dispatched).toContainEqual(restakeRequested({ ids: [3, 5], days: 365, minimums: null }))
    unmount()

    const viewed = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    openPage(mix(), { wallet: { viewAccount: viewed }, route: `/staking?account=${viewed}` })
    expect(screen.getByTestId('stake-3')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^Restake/ })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Details of stake #3' }))
    expect(screen.getByRole('dialog', { name: 'Stake #3' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Restake' })).toBeNull()
  })

  it('offers Restake in a matured stake’s summary, not in a pending one’s', async () => {
    const { user, dispatched } = openPage(mix())
    await user.click(screen.getByRole('button', { name: 'Close stake #6' }))
    expect(within(screen.getByRole('dialog', { name: 'Stake #6' })).queryByRole('button', { name: 'Restake' })).toBeNull()
    await user.click(within(screen.getByRole('dialog', { name: 'Stake #6' })).getByRole('button', { name: 'Close' }))
    await user.click(screen.getByRole('button', { name: 'Close stake #5' }))
    await user.click(within(screen.getByRole('dialog', { name: 'Stake #5' })).getByRole('button', { name: 'Restake' }))
    expect(dispatched).toContainEqual(restakeOpened({ ids: [5] }))
    expect(figure('restake-amount')).toBe('2,610.00 PLT')
  })

  it('keeps the days within 1 and the pool maximum, with the deposit dialog’s message, and quotes the one restake', async () => {
    const { user, dispatched } = openPage(mix(), { restaking: [3] })
    await user.clear(days())
    await user.type(days(), '2000')
    // Four digits at most, as in the deposit dialog; beyond the maximum the message takes the hint's place.
    expect(days().value).toBe('2000')
    await user.tab()
    expect(within(dialog()).getByText('From 1 to 1095')).toBeTruthy()
    expect(days().getAttribute('aria-invalid')).toBe('true')
    expect(confirm().disabled).toBe(true)
    await user.clear(days())
    expect(within(dialog()).getByText('Enter the days to see what closing the new stake would pay on each day.')).toBeTruthy()
    await user.type(days(), '30')
    expect(confirm().disabled).toBe(false)
    const purpose: FeePurpose = { kind: 'restake', ids: [3], days: 30, minimums: null }
    expect(dispatched).toContainEqual(feeQuoteRequested({ key: feeQuoteKey(31337, DEV_ADDRESS, purpose), purpose }))
  })

  it('sends the lower terms only once accepted when the reservoir runs short, as the deposit dialog does', async () => {
    const short = { ...POOL, reservoirAvailable: tokens(50n) }
    const { user, dispatched } = openPage(mix(), { restaking: [3], pool: short })
    const shortfall = depositPreview(short, 1_610n * 10n ** 18n, 365, false, 'PLT').shortfall!
    expect(within(dialog()).getByTestId('preview-shortfall').textContent).toBe(
      `The reward reservoir can fund only ${shortfall.funded} of the ${shortfall.wanted} bonus and reward this stake would earn. ` +
        'The pool stakes it on these lower terms only if you accept them.',
    )
    expect(confirm().disabled).toBe(true)
    await user.click(within(dialog()).getByTestId('accept-lower-terms'))
    await user.click(confirm())
    expect(dispatched).toContainEqual(restakeRequested({ ids: [3], days: 365, minimums: shortfall.minimums }))
  })

  it('shows the scheduled changes and, after a refusal, why and which terms changed; a rejection leaves it as it was', async () => {
    const { store, user } = openPage(mix(), { restaking: [3] })
    const params = {
      inflationPercent: POOL.inflationPercent,
      refererBonusPercent: POOL.refererBonusPercent,
      timeBonusPercent: POOL.timeBonusPercent,
      unHoldFee: tokens(50n),
      holdTimeRefMin: String(POOL.holdTimeRefMin),
      holdTimeMax: String(POOL.holdTimeMax),
    }
    act(() => {
      store.dispatch(
        scheduledCallsLoaded({
          chainId: 31337,
          target: POOL.address,
          calls: [{ id: '0x01', readyAt: Date.UTC(2027, 4, 1, 14) / 1000, fn: 'setParameters', args: { params } }],
        }),
      )
    })
    expect(within(dialog()).getByTestId('scheduled-changes').textContent).toContain('early-close fee 50%')

    await user.click(confirm())
    // Refused: the reason in the dialog; the page's read then brings the new fee, which the dialog names.
    act(() => {
      store.dispatch(
        restakeSettled({
          ok: false,
          error:
            'The early-close fee is now 100.00%, above the 50.00% you were shown. Nothing was staked; check the new figures and confirm again.',
        }),
      )
      store.dispatch(
        poolLoaded({
          pool: { ...POOL, unHoldFee: tokens(50n) },
          chainTime: NOW,
          readAt: Date.now(),
          userStakes: null,
          moreStakes: false,
          totalStakedByUser: tokens(4_000n),
          userShares: '0',
        }),
      )
    })
    expect(within(dialog()).getByTestId('restake-error').textContent).toMatch(/^The early-close fee is now 100\.00%/)
    expect(within(dialog()).getByTestId('terms-changed').textContent).toBe(
      "The pool's terms changed since you saw them: early-close fee 100% → 50%. The figures below are the new ones; " +
        'confirm again to stake on them.',
    )
    expect(confirm().disabled).toBe(false)

    // Declined in the wallet: only the notice; the dialog keeps its figures and can be confirmed again.
    act(() => {
      store.dispatch(restakeRequested({ ids: [3], days: 365, minimums: null }))
      store.dispatch(txRejected({ kind: 'restake', message: MESSAGES.rejected }))
      store.dispatch(restakeSettled({ ok: false, error: null }))
    })
    expect(screen.getByText('You rejected the transaction in your wallet.')).toBeTruthy()
    expect(within(dialog()).queryByTestId('restake-error')).toBeNull()
    expect(figure('restake-amount')).toBe('1,610.00 PLT')
    expect(confirm().disabled).toBe(false)
  })

  it('waits while it is sent, and says so when its stakes are no longer matured and open', () => {
    const { store } = openPage(mix(), { restaking: [3] })
    act(() => {
      store.dispatch(restakeRequested({ ids: [3], days: 365, minimums: null }))
    })
    expect(confirm().disabled).toBe(true)
    expect(within(dialog()).getByRole('status', { name: 'Restaking' })).toBeTruthy()
    act(() => {
      store.dispatch(restakeOpened({ ids: [6] }))
    })
    expect(within(dialog()).getByText('These stakes are not all matured and open any more: nothing to restake.')).toBeTruthy()
  })
})
