import { act, screen, waitFor } from '@testing-library/react'
import { App, loadScreens } from '../../../app/App'
import type { RootState } from '../../../app/store'
import { DEV_ADDRESS, devAllowances, E18, testPool } from '../../../../test/support/fixtures'
import { connectedWallet, renderWithProviders } from '../../../../test/support/render'
import { feeQuoteKey, type FeePurpose } from '../../wallet/feeQuote'
import { feeQuoted, feeQuoteRequested, type WalletState } from '../../wallet/slice'
import { allowanceLoaded, initialTokenState, scheduledCallsLoaded } from '../../token/slice'
import { PRODUCT_TEAM_REFERRAL } from '../depositForm'
import { depositSettled, initialStakeState, permitSigned, permitSupportLoaded, poolLoaded, type PoolInfo } from '../slice'

const REF = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const POOL_V1 = testPool()

/** The app with the deposit modal open, once its lazily loaded form is on screen. */
async function openDeposit(
  opts: { pool?: PoolInfo; allowance?: string; balance?: string; safe?: WalletState['safe']; walletName?: string } = {},
) {
  const allowance = opts.allowance ?? (10n ** 28n).toString()
  const pool = opts.pool ?? POOL_V1
  const preloadedState: Partial<RootState> = {
    wallet: connectedWallet({
      openModal: 'deposit',
      referral: REF,
      safe: opts.safe ?? null,
      ...(opts.walletName ? { wallet: { name: opts.walletName, connected: true } } : {}),
    }),
    token: {
      ...initialTokenState,
      symbol: 'PLT',
      balance: opts.balance ?? (100n * E18 + 5n).toString(),
      allowances: devAllowances({ [pool.address]: allowance }),
    },
    stake: { ...initialStakeState, pool, status: 'succeeded' },
  }
  const rendered = renderWithProviders(<App />, { preloadedState, route: '/staking' })
  await screen.findByLabelText('Days')
  return rendered
}

const amount = () => screen.getByLabelText('Amount (PLT)') as HTMLInputElement
const days = () => screen.getByLabelText('Days') as HTMLInputElement
const confirm = () => screen.getByRole('button', { name: /Confirm$/ }) as HTMLButtonElement

async function typeAmount(user: Awaited<ReturnType<typeof openDeposit>>['user'], text: string) {
  await user.clear(amount())
  if (text) await user.type(amount(), text)
  await user.tab()
}

// The dialog is a lazy chunk: loading it before the tests keeps its first import (formik, yup) out of any wait.
beforeAll(loadScreens)

describe('create deposit modal', () => {
  it('asks for the allowance when it opens and starts with 365 days and no referral', async () => {
    const { dispatched } = await openDeposit()
    expect(dispatched.map((a) => a.type)).toContain('stake/allowanceCheckRequested')
    expect(days().value).toBe('365')
    expect((screen.getByLabelText('Referral') as HTMLInputElement).disabled).toBe(true)
    expect(confirm().disabled).toBe(true)
  })

  it('asks for the changes scheduled for its pool, and shows those that change a figure, with the time they can run', async () => {
    const { dispatched, store } = await openDeposit()
    expect(dispatched).toContainEqual({ type: 'token/scheduledCallsRequested', payload: { target: POOL_V1.address } })
    expect(screen.queryByTestId('scheduled-changes')).toBeNull()
    const params = {
      inflationPercent: POOL_V1.inflationPercent,
      refererBonusPercent: POOL_V1.refererBonusPercent,
      timeBonusPercent: POOL_V1.timeBonusPercent,
      unHoldFee: (5n * E18).toString(),
      holdTimeRefMin: String(POOL_V1.holdTimeRefMin),
      holdTimeMax: String(POOL_V1.holdTimeMax),
    }
    act(() => {
      store.dispatch(
        scheduledCallsLoaded({
          chainId: 31337,
          target: POOL_V1.address,
          calls: [{ id: '0x01', readyAt: Date.UTC(2026, 10, 26, 14) / 1000, fn: 'setParameters', args: { params } }],
        }),
      )
    })
    expect(screen.getByTestId('scheduled-changes').tagName).toBe('SECTION')
    expect(screen.getByTestId('scheduled-changes').textContent).toBe(
      'Scheduled changes to this poolFrom 26 Nov 2026 14:00 UTC: early-close fee 5%',
    )
  })

  it.each([
    ['', 'Amount is required'],
    ['0', 'Amount must be greater than 0'],
    ['0.000', 'Amount must be greater than 0'],
    ['100.000000000000000006', 'The amount should not exceed your balance'],
    ['99999999999999999999999999999', 'The amount should not exceed your balance'],
  ])('shows the spec message for %j', async (text, message) => {
    const { user } = await openDeposit()
    await typeAmount(user, text)
    expect(await screen.findByText(message)).toBeTruthy()
    expect(confirm().disabled).toBe(true)
  })

  it.each([
    ['-5', 'Amount cannot be negative'],
    ['1e5', 'Amount must be written out in full, without an exponent (e)'],
    ['0x10', 'Amount can contain only digits and a decimal point'],
    [' 1 2 ', 'Amount cannot contain spaces'],
    ['1.1234567890123456789', 'Amount can have at most 18 decimal places'],
    ['1.2.3', 'Amount can have only one decimal point'],
    ['1,5', 'Amount cannot contain commas: use a point (.) for decimals'],
    ['abc', 'Amount can contain only digits and a decimal point'],
  ])('keeps %j as typed and says what is wrong with it, before the field is left', async (typed, message) => {
    const { user } = await openDeposit()
    await user.type(amount(), typed)
    expect(amount().value).toBe(typed)
    expect((await screen.findByRole('alert')).textContent).toBe(message)
    expect(amount().getAttribute('aria-invalid')).toBe('true')
    expect(confirm().disabled).toBe(true)
  })

  describe('the network fee before Confirm', () => {
    /** The quote the saga would store for `purpose` from the dev wallet on the local chain. */
    const quote = (purpose: FeePurpose, wei: { fee: string; need: string; balance: string }) =>
      feeQuoted({ key: feeQuoteKey(31337, DEV_ADDRESS, purpose), status: 'ready', error: null, ...wei })

    it("asks for the fee of what would be sent (the approval, then the stake) and shows it in the network's currency", async () => {
      const { user, dispatched, store } = await openDeposit({ allowance: '0' })
      const approve: FeePurpose = { kind: 'approve', amount: (10n ** 28n).toString() }
      expect(dispatched).toContainEqual(feeQuoteRequested({ key: feeQuoteKey(31337, DEV_ADDRESS, approve), purpose: approve }))
      expect(screen.getByTestId('fee-line').textContent).toBe('Network fee: estimating…')
      act(() => {
        store.dispatch(quote(approve, { fee: '46214000000000', need: '110913600000000', balance: E18.toString() }))
      })
      expect(screen.getByTestId('fee-line').textContent).toBe('Network fee: about 0.000046 ETH')
      // Once approved, the stake's own fee, for the amount and days typed.
      act(() => {
        store.dispatch(
          allowanceLoaded({ chainId: 31337, owner: DEV_ADDRESS, spender: POOL_V1.address, amount: (10n ** 28n).toString() }),
        )
      })
      await typeAmount(user, '10')
      const stake = dispatched.filter((a) => a.type === feeQuoteRequested.type).at(-1)!.payload as { purpose: FeePurpose }
      expect(stake.purpose).toEqual({ kind: 'stake', amount: (10n * E18).toString(), days: 365, referral: null, minimums: null })
    })

    it('says in plain words when the balance cannot pay the fee, and keeps Confirm disabled', async () => {
      const { user, dispatched, store } = await openDeposit()
      await typeAmount(user, '10')
      await waitFor(() => expect(confirm().disabled).toBe(false))
      const stake = dispatched.filter((a) => a.type === feeQuoteRequested.type).at(-1)!.payload as { purpose: FeePurpose }
      act(() => {
        store.dispatch(quote(stake.purpose, { fee: '150000000000000', need: '360000000000000', balance: '100000000000000' }))
      })
      expect(screen.getByTestId('fee-line').textContent).toBe(
        'Your wallet has 0.000100 ETH, and the network fee of this transaction may take up to 0.000360 ETH. Add ETH to the wallet to confirm.',
      )
      expect(screen.getByTestId('fee-line').getAttribute('role')).toBe('alert')
      expect(confirm().disabled).toBe(true)
    })
  })

  describe('in a browser whose language writes a decimal comma (de-DE)', () => {
    beforeEach(() => {
      jest.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['de-DE', 'de'])
    })
    afterEach(() => jest.restoreAllMocks())

    it('takes 12,5 as twelve and a half and stakes exactly that', async () => {
      const { user, dispatched } = await openDeposit()
      expect(amount().placeholder).toBe('0,0')
      await typeAmount(user, '12,5')
      expect(amount().value).toBe('12,5')
      expect(screen.queryByRole('alert')).toBeNull()
      await waitFor(() => expect(confirm().disabled).toBe(false))
      await user.click(confirm())
      expect(dispatched.find((a) => a.type === 'stake/depositRequested')?.payload).toMatchObject({
        amount: ((125n * E18) / 10n).toString(),
        days: 365,
      })
    })

    it('fills MAX with a comma, to the wei, and keeps the spec messages', async () => {
      const { user } = await openDeposit({ balance: (12_345n * E18 + 5n).toString() })
      await user.click(screen.getByRole('button', { name: 'MAX' }))
      expect(amount().value).toBe('12345,000000000000000005')
      await waitFor(() => expect(confirm().disabled).toBe(false))
      await typeAmount(user, '12345,000000000000000006')
      expect(await screen.findByText('The amount should not exceed your balance')).toBeTruthy()
      await typeAmount(user, '0,0')
      expect(await screen.findByText('Amount must be greater than 0')).toBeTruthy()
    })

    it('refuses 1.000, which could mean a thousand, rather than stake one', async () => {
      const { user } = await openDeposit()
      await user.type(amount(), '1.000')
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Amount "1.000" could be read as thousands: write it without a point, or with a comma (,) for decimals',
      )
      expect(confirm().disabled).toBe(true)
    })
  })

  it('keeps a pasted text whole and clears the message once it is a plain amount', async () => {
    const { user } = await openDeposit()
    await user.click(amount())
    await user.paste('1e18')
    expect(amount().value).toBe('1e18')
    expect((await screen.findByRole('alert')).textContent).toBe('Amount must be written out in full, without an exponent (e)')
    await user.clear(amount())
    await user.type(amount(), '12.5')
    await waitFor(() => expect(confirm().disabled).toBe(false))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('fills the exact balance with MAX (never rounded up) and enables Confirm when approved and valid', async () => {
    const { user } = await openDeposit({ balance: (12_345n * E18 + 5n).toString() })
    // The balance reads to the cent, rounded down; the exact figure is on hover and is what MAX fills in.
    const shown = screen.getByTitle('12345.000000000000000005 PLT')
    expect(shown.textContent).toBe('12,345.00 PLT')
    await user.click(screen.getByRole('button', { name: 'MAX' }))
    expect(amount().value).toBe('12345.000000000000000005')
    await waitFor(() => expect(confirm().disabled).toBe(false))
  })

  it('keeps Confirm disabled until the allowance is approved, and Approve asks for the spec 1e28 by default', async () => {
    const { user, dispatched } = await openDeposit({ allowance: '0' })
    await typeAmount(user, '10')
    expect(confirm().disabled).toBe(true)
    expect(screen.getByText('First allow the pool to spend your PLT. Approve:')).toBeTruthy()
    expect(screen.getByRole('radio', { name: /Unlimited/ })).toHaveProperty('checked', true)
    await user.click(screen.getByRole('button', { name: 'Approve' }))
    expect(dispatched.find((a) => a.type === 'stake/approveRequested')?.payload).toEqual({ amount: (10n ** 28n).toString() })
  })

  it('offers Approve again when the allowance is below the amount, for exactly the amount if chosen', async () => {
    const { user, dispatched } = await openDeposit({ allowance: (5n * E18).toString() })
    await typeAmount(user, '4')
    expect(screen.getByRole('button', { name: 'Approved' })).toHaveProperty('disabled', true)
    await waitFor(() => expect(confirm().disabled).toBe(false))
    await typeAmount(user, '10')
    expect(confirm().disabled).toBe(true)
    expect(screen.getByText('The pool may spend 5.00 PLT of yours; this deposit needs 10.00 PLT. Approve:')).toBeTruthy()
    await user.click(screen.getByRole('radio', { name: /Exactly 10.00 PLT/ }))
    await user.click(screen.getByRole('button', { name: 'Approve' }))
    expect(dispatched.find((a) => a.type === 'stake/approveRequested')?.payload).toEqual({ amount: (10n * E18).toString() })
  })

  it("limits days From 1 to 1095, and from the pool's referral minimum with a referral", async () => {
    const { user } = await openDeposit()
    await typeAmount(user, '10')
    await user.clear(days())
    await user.type(days(), '0')
    await user.tab()
    expect(await screen.findByText('From 1 to 1095')).toBeTruthy()
    await user.clear(days())
    await user.type(days(), '20')
    await user.selectOptions(screen.getByLabelText('Choose a referral'), 'Your referral')
    expect((screen.getByLabelText('Referral') as HTMLInputElement).value).toBe('0x70 ... 79C8')
    expect(await screen.findByText('From 30 to 1095')).toBeTruthy()
    expect(confirm().disabled).toBe(true)
    // The product team's option is no referral for the contract: the minimum goes back to 1 day.
    await user.selectOptions(screen.getByLabelText('Choose a referral'), PRODUCT_TEAM_REFERRAL)
    await waitFor(() => expect(confirm().disabled).toBe(false))
  })

  it('gives pool shares equal to the amount at any rate: the bonus and the fees collected so far buy none', async () => {
    const { user } = await openDeposit({ pool: testPool({ rate: ((11n * E18) / 10n).toString() }) })
    await typeAmount(user, '100')
    expect(screen.getByTestId('preview-base-shares').textContent).toBe('100.00')
    expect(screen.getByTestId('preview-total-shares').textContent).toBe('100.00')
  })

  it('shows the estimate from the shared math as the user types (version 1)', async () => {
    const { user } = await openDeposit()
    await typeAmount(user, '100')
    expect(screen.getByTestId('preview-base-shares').textContent).toBe('100.00')
    expect(screen.getByTestId('preview-length-bonus').textContent).toBe('10.00%')
    expect(screen.getByTestId('preview-referral-bonus').textContent).toBe('0.00%')
    // A stake's shares are its principal (the bonus buys none).
    expect(screen.getByTestId('preview-total-shares').textContent).toBe('100.00')
    expect(screen.getByTestId('preview-share-of-pool').textContent).toBe('9.09%')
    // 365 of 1,095 days: a third of the 30% length bonus, paid at the release; 400% a year of inflation reward.
    expect(screen.getByTestId('preview-bonus').textContent).toBe('10.00 PLT')
    expect(screen.getByTestId('preview-reward').textContent).toBe('400.00 PLT')
    expect(screen.getByTestId('preview-at-maturity').textContent).toBe('510.00 PLT')
    expect(screen.queryByTestId('preview-shortfall')).toBeNull()
    expect(
      screen.getByText(/Closing earlier costs a fee of up to 100.00% of the amount, falling to 0 at the release/).textContent,
    ).toContain('forfeits the bonus and the reward not yet earned')
    await user.selectOptions(screen.getByLabelText('Choose a referral'), 'Your referral')
    // 5% x 365 / 1,095 days: the referral bonus grows with the hold, as the length bonus does (docs/contracts.md).
    expect(screen.getByTestId('preview-referral-bonus').textContent).toBe('1.66%')
    expect(screen.getByTestId('preview-total-shares').textContent).toBe('100.00')
    expect(screen.getByTestId('preview-bonus').textContent).toBe('11.66 PLT')
    expect(screen.getByTestId('preview-at-maturity').textContent).toBe('511.66 PLT')
  })

  it('says when the reward reservoir cannot fund the whole bonus and reward, and stakes only once the lower terms are accepted', async () => {
    const { user, dispatched } = await openDeposit({ pool: testPool({ reservoirAvailable: (50n * E18).toString() }) })
    await typeAmount(user, '100')
    // 10 bonus and 400 reward wanted; the bonus is funded first, the reward gets the 40 left.
    expect(screen.getByTestId('preview-bonus').textContent).toBe('10.00 PLT')
    expect(screen.getByTestId('preview-reward').textContent).toBe('40.00 PLT')
    expect(screen.getByTestId('preview-at-maturity').textContent).toBe('150.00 PLT')
    expect(screen.getByTestId('preview-shortfall').textContent).toBe(
      'The reward reservoir can fund only 50.00 PLT of the 410.00 PLT bonus and reward this stake would earn. ' +
        'The pool stakes it on these lower terms only if you accept them.',
    )
    // The pool refuses the full terms now: Confirm waits for the person to accept what is funded.
    const accept = screen.getByRole('checkbox', { name: 'I accept a reward of 40.00 PLT instead of 400.00 PLT.' })
    expect(confirm().disabled).toBe(true)
    await user.click(accept)
    await waitFor(() => expect(confirm().disabled).toBe(false))
    await user.click(confirm())
    // Sent as the stake's minimums, in base units, exactly as the estimate showed them.
    expect(dispatched.find((a) => a.type === 'stake/depositRequested')?.payload).toEqual({
      amount: (100n * E18).toString(),
      days: 365,
      referral: null,
      minimums: { bonus: (10n * E18).toString(), reward: (40n * E18).toString() },
    })
  })

  it('asks again when the amount or the funded figures change after the lower terms were accepted', async () => {
    const { user, store } = await openDeposit({ pool: testPool({ reservoirAvailable: '0' }) })
    await typeAmount(user, '100')
    const accept = () => screen.getByTestId('accept-lower-terms') as HTMLInputElement
    expect(accept().labels?.[0].textContent).toBe(
      'I accept a bonus of 0.00 PLT instead of 10.00 PLT and a reward of 0.00 PLT instead of 400.00 PLT.',
    )
    await user.click(accept())
    await waitFor(() => expect(confirm().disabled).toBe(false))
    await typeAmount(user, '50')
    expect(accept().checked).toBe(false)
    expect(confirm().disabled).toBe(true)
    await user.click(accept())
    await waitFor(() => expect(confirm().disabled).toBe(false))
    const reload = (pool: PoolInfo, readAt: number) =>
      act(() => {
        store.dispatch(
          poolLoaded({
            pool,
            chainTime: 0,
            readAt,
            userStakes: [],
            moreStakes: false,
            totalStakedByUser: '0',
            userShares: '0',
          }),
        )
      })
    // A refresh: the reservoir can now fund some of it, so the terms differ from those accepted.
    reload(testPool({ reservoirAvailable: (3n * E18).toString() }), 1)
    expect(accept().checked).toBe(false)
    expect(confirm().disabled).toBe(true)
    // Enough again: the full terms, nothing to accept.
    reload(testPool(), 2)
    expect(screen.queryByTestId('preview-shortfall')).toBeNull()
    expect(screen.queryByTestId('accept-lower-terms')).toBeNull()
    await waitFor(() => expect(confirm().disabled).toBe(false))
  })

  it('shows why a stake was refused, keeps the modal open and ends loading', async () => {
    const { user, store } = await openDeposit()
    await typeAmount(user, '10')
    await user.click(confirm())
    expect(screen.getByLabelText('Staking')).toBeTruthy()
    const message =
      "The reward reservoir can no longer fund this stake's full bonus and reward: it can fund a bonus of 0.00 and a " +
      'reward of 0.00. Nothing was staked; check the new figures and try again.'
    act(() => {
      store.dispatch(depositSettled({ ok: false, error: message }))
    })
    expect(screen.getByRole('alert').textContent).toBe(message)
    expect(screen.getByRole('dialog', { name: 'Create deposit' })).toBeTruthy()
    expect(screen.queryByLabelText('Staking')).toBeNull()
    expect(confirm().disabled).toBe(false)
  })

  it('sends the amount in base units, the days and the referral only when present; a failure keeps it open', async () => {
    const { user, store, dispatched } = await openDeposit()
    await typeAmount(user, '12.5')
    await user.click(confirm())
    expect(dispatched.find((a) => a.type === 'stake/depositRequested')?.payload).toEqual({
      amount: ((125n * E18) / 10n).toString(),
      days: 365,
      referral: null,
      minimums: null,
    })
    expect(confirm().disabled).toBe(true)
    act(() => {
      store.dispatch({ type: 'stake/depositSettled', payload: { ok: false, error: 'x' } })
    })
    expect(screen.getByRole('dialog', { name: 'Create deposit' })).toBeTruthy()
    expect(confirm().disabled).toBe(false)
  })

  it('names the terms that changed since the person saw them, with the new figures, until they confirm again', async () => {
    const { user, store } = await openDeposit()
    await typeAmount(user, '100')
    expect(screen.queryByTestId('terms-changed')).toBeNull()
    // The owner's setParameters lands: a 5% fee where the dialog showed 100%, no length bonus (the next read brings it).
    const changed = { ...POOL_V1, unHoldFee: (5n * E18).toString(), timeBonusPercent: '0' }
    // The form validates again when the pool changes (async): awaited, so no update lands outside act.
    const reload = (pool: PoolInfo) =>
      act(async () => {
        store.dispatch(
          poolLoaded({
            pool,
            chainTime: 0,
            readAt: 0,
            userStakes: [],
            moreStakes: false,
            totalStakedByUser: '0',
            userShares: '0',
          }),
        )
      })
    await reload(changed)
    expect(screen.getByTestId('terms-changed').textContent).toBe(
      "The pool's terms changed since you saw them: early-close fee 100% → 5%; length bonus at the longest hold 30% → 0%. " +
        'The figures below are the new ones; confirm again to stake on them.',
    )
    // A polite status paragraph: the dialog's one alert stays its error.
    expect(screen.getByTestId('terms-changed')).toMatchObject({ tagName: 'P' })
    expect(screen.getByTestId('terms-changed').getAttribute('role')).toBe('status')
    expect(screen.getByText(/Closing earlier costs a fee of up to/).textContent).toContain('up to 5.00% of the amount')
    // Confirming again stakes on the figures now shown, and the notice goes.
    await user.click(confirm())
    expect(screen.queryByTestId('terms-changed')).toBeNull()
    // A further change is named against what was confirmed last.
    await reload({ ...changed, unHoldFee: (50n * E18).toString() })
    expect(screen.getByTestId('terms-changed').textContent).toContain('early-close fee 5% → 50%.')
  })

  it('has no referral in version 2 and shares equal the amount', async () => {
    const { user } = await openDeposit({ pool: { ...POOL_V1, version: 2, inflationPercent: '0', refererBonusPercent: '0' } })
    expect(screen.queryByLabelText('Referral')).toBeNull()
    await typeAmount(user, '100')
    expect(screen.getByTestId('preview-total-shares').textContent).toBe('100.00')
    expect(screen.queryByTestId('preview-base-shares')).toBeNull()
    // No inflation in version 2: the bonus only, and no reward to forfeit.
    expect(screen.queryByTestId('preview-reward')).toBeNull()
    expect(screen.getByTestId('preview-at-maturity').textContent).toBe('110.00 PLT')
    expect(screen.getByText(/^The bonus is paid at the release date/).textContent).toMatch(/forfeits the bonus\.$/)
  })

  describe('Sign and stake', () => {
    /** The dialog after the saga found that this wallet can sign a permit for this pool's token. */
    async function openSignable(allowance = '0') {
      const r = await openDeposit({ allowance })
      act(() => {
        r.store.dispatch(
          permitSupportLoaded({ owner: DEV_ADDRESS.toLowerCase(), pool: POOL_V1.address.toLowerCase(), signable: true }),
        )
      })
      return r
    }
    const signed = (amountWei: string) =>
      permitSigned({
        permit: {
          owner: DEV_ADDRESS.toLowerCase(),
          pool: POOL_V1.address.toLowerCase(),
          amount: amountWei,
          deadline: '1800000000',
          v: 27,
          r: `0x${'1'.repeat(64)}`,
          s: `0x${'2'.repeat(64)}`,
        },
        error: null,
      })

    it('is the default where the wallet can sign: Sign asks for the permit of the amount, no Approve', async () => {
      const { user, dispatched } = await openSignable()
      expect((screen.getByRole('radio', { name: /^Sign and stake/ }) as HTMLInputElement).checked).toBe(true)
      expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
      expect(screen.queryByTestId('approve-choice')).toBeNull()
      expect(screen.getByTestId('fee-line').textContent).toBe(
        'Network fee: shown once you sign. Signing sends nothing and costs nothing.',
      )
      await typeAmount(user, '12.5')
      expect(confirm().disabled).toBe(true)
      await user.click(screen.getByRole('button', { name: 'Sign' }))
      expect(dispatched.find((a) => a.type === 'stake/permitSignRequested')?.payload).toEqual({
        amount: ((125n * E18) / 10n).toString(),
      })
      expect(screen.getByLabelText('Signing')).toBeTruthy()
    })

    it('once signed, quotes the stakeWithPermit fee and Confirm sends the deposit through the permit', async () => {
      const { user, store, dispatched } = await openSignable()
      await typeAmount(user, '12.5')
      const wei = ((125n * E18) / 10n).toString()
      act(() => {
        store.dispatch(signed(wei))
      })
      expect(screen.getByRole('button', { name: 'Signed' })).toBeTruthy()
      const quoted = dispatched.filter((a) => a.type === feeQuoteRequested.type).at(-1)
      expect((quoted?.payload as { purpose: FeePurpose }).purpose).toMatchObject({ kind: 'permitStake', amount: wei })
      expect(confirm().disabled).toBe(false)
      await user.click(confirm())
      expect(dispatched.find((a) => a.type === 'stake/depositWithPermitRequested')?.payload).toEqual({
        amount: wei,
        days: 365,
        referral: null,
        minimums: null,
      })
      expect(dispatched.some((a) => a.type === 'stake/depositRequested')).toBe(false)
    })

    it('asks for a new signature when the amount changes, and Approve stays available', async () => {
      const { user, store, dispatched } = await openSignable()
      await typeAmount(user, '10')
      act(() => {
        store.dispatch(signed((10n * E18).toString()))
      })
      await typeAmount(user, '11')
      expect(screen.getByRole('button', { name: 'Sign' })).toBeTruthy()
      expect(confirm().disabled).toBe(true)
      await user.click(screen.getByRole('radio', { name: /^Approve, then stake/ }))
      expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy()
      await user.click(screen.getByRole('button', { name: 'Approve' }))
      expect(dispatched.find((a) => a.type === 'stake/approveRequested')?.payload).toEqual({ amount: (10n ** 28n).toString() })
    })

    it('shows why the permit was not signed, and offers Approve only to a wallet that cannot sign (a contract)', async () => {
      const { store } = await openSignable()
      act(() => {
        store.dispatch(permitSigned({ permit: null, error: 'The wallet cannot sign typed data.' }))
      })
      expect(screen.getByRole('alert').textContent).toBe('The wallet cannot sign typed data.')
      act(() => {
        store.dispatch(
          permitSupportLoaded({ owner: DEV_ADDRESS.toLowerCase(), pool: POOL_V1.address.toLowerCase(), signable: false }),
        )
      })
      expect(screen.queryByTestId('deposit-method')).toBeNull()
      expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy()
    })
  })

  describe('from a Safe', () => {
    const SAFE = { address: DEV_ADDRESS, threshold: 2, owners: 3 }

    it('in Safe{Wallet}: approves exactly the amount and stakes in one Safe transaction; the other owners must confirm', async () => {
      const { user, dispatched } = await openDeposit({ allowance: '0', safe: SAFE, walletName: 'safe' })
      await typeAmount(user, '12.5')
      // No Approve step and no permit: the owners confirm one batch, and who executes it pays the fee.
      expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
      expect(screen.queryByTestId('deposit-method')).toBeNull()
      expect(screen.getByTestId('safe-note').textContent).toBe(
        'Approve and stake go to your Safe as one transaction: exactly this amount is approved, then staked. ' +
          'This Safe needs 2 of its 3 owners to confirm. You propose it here; another owner must confirm it in the Safe before it runs.',
      )
      expect(screen.getByTestId('fee-line').textContent).toBe(
        'Network fee: paid in ETH by the owner who executes it in the Safe.',
      )
      expect(dispatched.some((a) => a.type === 'wallet/feeQuoteRequested')).toBe(false)
      await user.click(confirm())
      const amountWei = ((125n * E18) / 10n).toString()
      expect(dispatched.find((a) => a.type === 'stake/depositRequested')?.payload).toEqual({
        amount: amountWei,
        days: 365,
        referral: null,
        minimums: null,
        approveFirst: amountWei,
      })
    })

    it('over WalletConnect: Approve, then the stake, each confirmed by the owners', async () => {
      const { user, dispatched } = await openDeposit({ allowance: '0', safe: SAFE, walletName: 'walletconnect' })
      await typeAmount(user, '10')
      expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy()
      expect(screen.getByTestId('safe-note').textContent).toBe(
        'This Safe needs 2 of its 3 owners to confirm. You propose it here; another owner must confirm it in the Safe before it runs.',
      )
      expect(confirm().disabled).toBe(true)
      await user.click(screen.getByRole('button', { name: 'Approve' }))
      expect(dispatched.find((a) => a.type === 'stake/approveRequested')).toBeTruthy()
    })

    it('sends the stake alone when the allowance already covers it', async () => {
      const { user, dispatched } = await openDeposit({ safe: { ...SAFE, threshold: 1 }, walletName: 'safe' })
      await typeAmount(user, '10')
      expect(screen.getByTestId('safe-note').textContent).toBe(
        'This Safe needs one confirmation: confirm and execute it in your Safe.',
      )
      await user.click(confirm())
      expect(dispatched.find((a) => a.type === 'stake/depositRequested')?.payload).not.toHaveProperty('approveFirst')
    })
  })
})
