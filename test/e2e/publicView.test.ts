import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, PHONE, short, shot } from '../../scripts/lib/browser'
import { contracts } from '../../src/chain/contracts'
import { formatAmount } from '../../src/format/units'
import { provider, record } from './localChain'

const session = browserSession()

/** The default pool's figures as the Lens gives them for `who`, straight from the node. */
async function lensFor(who: string) {
  const r = record()
  return contracts.lens(r.contracts.lens, provider()).getPoolDataById(r.contracts.poolsInfo, r.defaultPoolId, who)
}

describe('the public view (no wallet) and the read-only ?account= view, in a real browser', () => {
  it('shows /staking’s pool figures without a wallet, and asks for one only when the visitor acts', async () => {
    const { page, errors } = await session.open({ path: '/staking' })
    const lens = await lensFor(session.accounts()[0])
    await page.getByTestId('pool-total-staked').waitFor()
    expect(await page.getByTestId('pool-total-staked').textContent()).toBe(
      formatAmount(lens.state.totalStaked, { symbol: lens.tokenSymbol }),
    )
    expect(await page.getByTestId('pool-holders').textContent()).toBe(Number(lens.state.stakersCount).toLocaleString('en-US'))
    await page.getByTestId('apr-badge').waitFor()
    await page.getByRole('link', { name: /^Token contract/ }).waitFor()
    // The holder's own figures: the spec's words and button in their place; no dialog until the visitor acts.
    await page.getByTestId('holder-connect').getByText('Connect the wallet to continue working').waitFor()
    expect(await page.getByRole('dialog').count()).toBe(0)
    await shot(page, 'public-staking-desktop')
    await page.getByRole('button', { name: 'Deposit', exact: true }).click()
    await page.getByRole('dialog').waitFor()
    expect(await page.getByRole('dialog').textContent()).toMatch(/wallet/i)
    expect(errors).toEqual([])
  })

  it('shows / without a wallet: the vesting schedules and the token link, the connect prompt in the figures’ place', async () => {
    const { page, errors } = await session.open({ path: '/', device: PHONE })
    await page.getByRole('heading', { name: 'Vesting schedules' }).waitFor()
    await page.getByRole('link', { name: /^Token contract/ }).waitFor()
    await page.getByTestId('holder-connect').waitFor()
    expect(await page.getByTestId('vesting-total').count()).toBe(0)
    expect(await page.getByRole('dialog').count()).toBe(0)
    await shot(page, 'public-claim-phone')
    expect(errors).toEqual([])
  })

  it('shows another address’s stakes and claim figures read only, with every action disabled and why', async () => {
    const [viewed, , me] = session.accounts()
    const wallet = new TestWallet(chainUrl(), { account: me })
    const { page, context, errors } = await session.open({
      wallet,
      path: `/staking?account=${viewed.toLowerCase()}&ref=${me}`,
    })
    const banner = page.getByTestId('account-view-banner')
    await banner.waitFor()
    // ?ref= works beside ?account=: kept in its cookie as on any page.
    expect((await context.cookies()).find((c) => c.name === 'ref')?.value).toBe(me)
    expect(await banner.textContent()).toContain(viewed)
    await page.getByText('Total staked by this address').waitFor()
    const lens = await lensFor(viewed)
    await page
      .getByTestId('my-total-staked')
      .getByText(formatAmount(lens.allUserStakesAmount, { symbol: lens.tokenSymbol }))
      .waitFor()
    const rows = page.locator('tr[data-testid^="stake-"]')
    await rows.first().waitFor()
    expect(await rows.count()).toBeGreaterThan(0)
    expect(await page.getByRole('button', { name: 'Deposit', exact: true }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Subscribe/Stake' }).isDisabled()).toBe(true)
    await shot(page, 'account-view-staking-desktop')

    // Connected as another wallet, the page still shows the viewed address, and a stake's close says why it is off.
    await connectWith(page, 'Browser wallet')
    await page.getByText(short(me)).waitFor()
    expect(await banner.textContent()).toContain('Back to your own address')
    // Active rows come first: #0 has active stakes. Their button shows the details, and the close there is off.
    await rows
      .first()
      .getByRole('button', { name: /^Details of stake #/ })
      .click()
    const summary = page.getByRole('dialog')
    await summary.waitFor()
    expect(await summary.getByRole('button', { name: 'Close tranche' }).isDisabled()).toBe(true)
    await summary.getByText(/^Read only: this page shows/).waitFor()
    await shot(page, 'account-view-summary-desktop', { viewport: true })
    await page.keyboard.press('Escape')

    // The claim page of the same address, through the navigation (the view goes along): its figures, both claims
    // off, and the reason.
    await page.getByRole('link', { name: 'Claim' }).first().click()
    await page.getByRole('heading', { name: 'Claim your allocation' }).waitFor()
    expect(new URL(page.url()).searchParams.get('account')).toBe(viewed.toLowerCase())
    await page.getByTestId('vesting-total').getByText(/\d/).waitFor()
    expect(await page.getByRole('button', { name: /Claim tokens and stake/ }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Or claim directly to your wallet' }).isDisabled()).toBe(true)
    await page.getByText(/^Read only: this page shows/).waitFor()
    await shot(page, 'account-view-claim-desktop')

    // Back to one's own: the banner goes, the ref stays in the cookie as before.
    await banner.getByRole('link', { name: 'Back to your own address' }).click()
    await banner.waitFor({ state: 'detached' })
    expect(new URL(page.url()).searchParams.get('account')).toBe(null)
    expect(errors).toEqual([])
  })

  it('says clearly when ?account= is not an address, and never shows an empty page', async () => {
    const { page, errors } = await session.open({ path: '/staking?account=0xnot-an-address', device: PHONE })
    const error = page.getByTestId('account-view-error')
    await error.waitFor()
    expect(await error.textContent()).toContain('"0xnot-an-address" is not an address')
    await page.getByTestId('pool-total-staked').waitFor()
    await shot(page, 'account-view-invalid-phone')
    await error.getByRole('link', { name: 'Show your own address instead' }).click()
    await page.getByTestId('holder-connect').waitFor()
    expect(errors).toEqual([])
  })
})
