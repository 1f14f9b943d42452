import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { App, loadScreens } from '../../../app/App'
import type { RootState } from '../../../app/store'
import { ONE } from '../../../domain/math'
import { DAY, devAllowances, E18, T0, testPool, testStake, tokens } from '../../../../test/support/fixtures'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { initialTokenState } from '../../token/slice'
import { initialStakeState, type StakeEntry } from '../slice'

/** Pool 1 with its rate up 10% from shared fees; the stake's figures are read 25 days into its 100. */
const POOL = testPool({ rate: ((11n * ONE) / 10n).toString() })
const NOW = T0 + 25 * DAY

/** The staking page with the closing summary of `stake` open, read at `now`. */
function openSummary(stake: StakeEntry, now = NOW) {
  const preloadedState: Partial<RootState> = {
    wallet: connectedWallet({ openModal: 'stakeSummary' }),
    token: { ...initialTokenState, symbol: 'PLT' },
    stake: {
      ...initialStakeState,
      pool: POOL,
      status: 'succeeded',
      chainTime: now,
      readAt: Date.now(),
      userStakes: [stake],
      totalStakedByUser: stake.stakeAmount,
      closing: { id: stake.id, status: 'idle', error: null },
    },
  }
  const rendered = renderWithProviders(<App />, { preloadedState, route: '/staking' })
  return { ...rendered, dialog: screen.getByRole('dialog', { name: `Stake #${stake.id}` }) }
}

const curveFigure = (id: string) => screen.getByTestId(`curve-${id}`)
const slider = () => screen.getByRole('slider', { name: 'Close on' }) as HTMLInputElement
/**
 * Picks a day on the slider ('end': the release). jsdom has no range-input keyboard: the browser test presses the
 * arrow keys, Home and End in chromium.
 */
const pick = (day: number | 'end') =>
  fireEvent.change(slider(), { target: { value: day === 'end' ? slider().max : String(day) } })

// Pages, dialogs and the chart are lazy chunks: loaded first, they render at once, as the tests expect.
beforeAll(loadScreens)

describe("the closing summary's curve", () => {
  it("starts today with the Lens's own figures: the total to receive, to the wei", () => {
    const stake = testStake({}, NOW, BigInt(POOL.rate))
    openSummary(stake)
    expect(screen.getByTestId('curve-day').textContent).toBe('Today, Tue, 9 Feb 2027')
    expect(curveFigure('received').getAttribute('data-wei')).toBe((BigInt(stake.amountOut) - BigInt(stake.fee)).toString())
    expect(curveFigure('received').textContent).toBe(screen.getByTestId('summary-total').textContent)
    expect(curveFigure('received').textContent).toBe('460.00 PLT')
    expect(curveFigure('fee').getAttribute('data-wei')).toBe(stake.fee)
    expect(curveFigure('rewardEarned').textContent).toBe('100.00 PLT')
    expect(curveFigure('gains').textContent).toBe('110.00 PLT')
    expect(curveFigure('bonus').textContent).toBe('0.00 PLT')
  })

  it('picks any day to the release: there the amount, the bonus, the whole reward and the shared fees', () => {
    openSummary(testStake({}, NOW, BigInt(POOL.rate)))
    expect([slider().min, slider().max, slider().value]).toEqual(['0', '75', '0'])
    pick(1)
    expect(screen.getByTestId('curve-day').textContent).toBe('Day 1, Wed, 10 Feb 2027')
    // A day later: 4 more of the reward earned and 10 less fee.
    expect(curveFigure('received').textContent).toBe('474.00 PLT')
    pick('end')
    expect(screen.getByTestId('curve-day').textContent).toBe('Release, Sun, 25 Apr 2027')
    expect(slider().getAttribute('aria-valuetext')).toBe('Release, Sun, 25 Apr 2027')
    expect(curveFigure('received').textContent).toBe('1,610.00 PLT')
    expect(curveFigure('fee').textContent).toBe('0.00 PLT')
    expect(curveFigure('rewardEarned').textContent).toBe('400.00 PLT')
    expect(curveFigure('bonus').textContent).toBe('100.00 PLT')
    // What the stake list says it pays at the release: the amount and its future rewards.
    expect(curveFigure('received').getAttribute('data-wei')).toBe(tokens(1_610n))
    pick(0)
    expect(screen.getByTestId('curve-day').textContent).toBe('Today, Tue, 9 Feb 2027')
  })

  it('names the break-even day, the first that pays back the amount staked, and shows it when clicked', async () => {
    const { user } = openSummary(testStake({}, NOW, BigInt(POOL.rate)))
    // 110 of shared fees + 1,400 × elapsed / 100 days ≥ 1,000 from 63.57 days after the stake: 64 days, 39 from today.
    const line = screen.getByTestId('curve-break-even')
    expect(line.textContent).toBe(
      'Break-even: Day 39, Sat, 20 Mar 2027, the first day a close pays back at least the 1,000.00 PLT staked.',
    )
    await user.click(within(line).getByRole('button', { name: 'Day 39, Sat, 20 Mar 2027' }))
    expect(slider().value).toBe('39')
    expect(curveFigure('received').textContent).toBe('1,006.00 PLT')
    pick(38)
    expect(curveFigure('received').textContent).toBe('992.00 PLT')
  })

  it('says what it assumes: the pool rate of today, fees shared later on top, the stake its own terms', () => {
    openSummary(testStake({}, NOW, BigInt(POOL.rate)))
    expect(
      screen.getByText(
        "Today is the total to receive. Later days assume the pool's rate of today: fees that other stakers’ early closes " +
          "share with this stake later come on top. The stake's fee, reward and bonus are fixed.",
      ),
    ).toBeTruthy()
  })

  it('draws the chart once its chunk has loaded', async () => {
    const { dialog } = openSummary(testStake({}, NOW, BigInt(POOL.rate)))
    await waitFor(() => expect(dialog.querySelector('.recharts-wrapper')).not.toBeNull())
  })

  it('is not drawn for a matured or a closed stake: a close pays the same any day from then on', () => {
    const at = T0 + 100 * DAY
    const { unmount } = openSummary(testStake({}, at, BigInt(POOL.rate)), at)
    expect(screen.queryByTestId('close-curve')).toBeNull()
    unmount()
    const closed = testStake({ active: false, closeTime: T0 + 50 * DAY, lpAmount: '0', gains: tokens(20n) }, T0 + 50 * DAY, ONE)
    openSummary(closed)
    expect(screen.queryByTestId('close-curve')).toBeNull()
  })
})

describe("the deposit dialog's curve", () => {
  async function openDeposit(balance = tokens(1_000n)) {
    const preloadedState: Partial<RootState> = {
      wallet: connectedWallet({ openModal: 'deposit' }),
      token: {
        ...initialTokenState,
        symbol: 'PLT',
        balance,
        allowances: devAllowances({ [POOL.address]: (10n ** 28n).toString() }),
      },
      stake: { ...initialStakeState, pool: POOL, status: 'succeeded', chainTime: NOW },
    }
    const rendered = renderWithProviders(<App />, { preloadedState, route: '/staking' })
    await screen.findByLabelText('Days')
    const type = async (label: string, text: string) => {
      await rendered.user.clear(screen.getByLabelText(label))
      await rendered.user.type(screen.getByLabelText(label), text)
      // Leaving the field lets the form's validation settle before the test reads the dialog.
      await rendered.user.tab()
    }
    return { ...rendered, type }
  }

  it('asks for an amount first, and for one the balance covers', async () => {
    const { type } = await openDeposit(tokens(50n))
    const empty = 'Enter an amount within your balance and the days to see what closing the stake would pay on each day.'
    expect(screen.getByText(empty)).toBeTruthy()
    await type('Amount (PLT)', '60')
    expect(await screen.findByText('The amount should not exceed your balance')).toBeTruthy()
    expect(screen.getByText(empty)).toBeTruthy()
    expect(screen.queryByTestId('close-curve')).toBeNull()
  })

  it('draws the stake being made: nothing back today at a 100% fee, and at the release what the estimate says', async () => {
    const { type } = await openDeposit()
    await type('Amount (PLT)', '100')
    await type('Days', '365')
    expect(screen.getByTestId('curve-day').textContent).toBe('Today, Tue, 9 Feb 2027')
    expect(curveFigure('received').textContent).toBe('0.00 PLT')
    expect(curveFigure('fee').textContent).toBe('100.00 PLT')
    pick('end')
    expect(screen.getByTestId('curve-day').textContent).toBe('Release, Wed, 9 Feb 2028')
    // 100 + a 10 length bonus (365 of 1,095 days of 30%) + 400 of reward (400% over a year).
    expect(curveFigure('received').textContent).toBe(screen.getByTestId('preview-at-maturity').textContent)
    expect(curveFigure('received').getAttribute('data-wei')).toBe((510n * E18).toString())
    expect(curveFigure('bonus').textContent).toBe('10.00 PLT')
    // No shared fees at the rate it enters at: no line for them.
    expect(screen.queryByTestId('curve-gains')).toBeNull()
    // 100% fee falling over the year, 400 reward: received = 500 × elapsed / 365 days ≥ 100 from day 73.
    expect(screen.getByTestId('curve-break-even').textContent).toMatch(/^Break-even: Day 73, Fri, 23 Apr 2027,/)
  })

  it('follows the days typed, keeping the release when the hold gets shorter than the day shown', async () => {
    const { type } = await openDeposit()
    await type('Amount (PLT)', '100')
    pick('end')
    await type('Days', '30')
    expect(screen.getByTestId('curve-day').textContent).toBe('Release, Thu, 11 Mar 2027')
    expect(slider().max).toBe('30')
  })
})
