import type { Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { giveHeavyStakes } from '../../scripts/lib/heavyStakes'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, PHONE, proxyFailCalls, proxyFault, short, shot } from '../../scripts/lib/browser'
import { record } from './localChain'

const session = browserSession()

/** Every test leaves the app's chain and API as it found them. */
afterEach(async () => {
  await proxyFault('rpc', 'none')
  await proxyFault('api', 'none')
  await proxyFailCalls(null)
})

const outage = (page: Page, id: string) => page.getByTestId(id)

describe('outages on the local stack: honest states, and recovery without a reload', () => {
  it('claim page: the API down shows the outage, not zeros; it comes back alone; a later outage keeps the figures with their age', async () => {
    const me = session.accounts()[3]
    await proxyFault('api', 'down')
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }) })
    await connectWith(page, 'Browser wallet')
    await page.getByText(short(me)).waitFor()
    const banner = outage(page, 'claim-outage')
    await banner.getByRole('heading', { name: "Can't reach the vesting service" }).waitFor()
    expect(await banner.textContent()).toContain('Nothing could be read yet. The page tries again by itself.')
    expect(await page.getByTestId('vesting-available').textContent()).toBe('—')
    expect(await page.getByText('Nothing is unlocked for claim right now.').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Claim tokens and stake with up to 400% APR' }).isDisabled()).toBe(true)
    await shot(page, 'desktop-claim-api-down')

    // Back: the true figures arrive by themselves (retries every 1-3 s in this build), no reload.
    await proxyFault('api', 'none')
    await page.getByText(/^Next claim: |^You have last claim of /).waitFor({ timeout: 10_000 })
    expect(await banner.count()).toBe(0)
    const shown = await page.getByTestId('vesting-available').textContent()
    expect(shown).toMatch(/^[\d,]+\.\d\d PLT$/)

    // Down again while figures are shown: they stay, marked with their block and age, and claims pause. The page shown
    // again reads only figures older than VESTING_FRESH_MS (2 s in this build): these are, once that has passed.
    await proxyFault('api', 'down')
    await page.waitForTimeout(2_000)
    await page.getByRole('link', { name: 'Staking' }).first().click()
    await page.getByRole('link', { name: 'Claim' }).first().click()
    await banner.getByText(/Showing the figures of block [\d,]+, read (just now|\d+ s ago)\./).waitFor()
    expect(await page.getByTestId('vesting-available').textContent()).toBe(shown)
    await shot(page, 'desktop-claim-api-down-stale')
    await proxyFault('api', 'none')
    await banner.waitFor({ state: 'detached', timeout: 10_000 })
    expect(errors).toEqual([])
  })

  it('staking page: the chain down pauses updates and says so, keeps the stakes, and resumes by itself', async () => {
    const me = session.accounts()[0]
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    await page
      .getByTestId(/^stake-\d+$/)
      .first()
      .waitFor() // the stake list's rows (the statistics table has a Closed column too)
    await page.getByTestId('pool-as-of').waitFor()
    const rows = await page.locator('[data-testid^="stake-"]').count()
    await proxyFault('rpc', 'down')
    const banner = outage(page, 'staking-outage')
    // The next 4 s update fails: the page says so instead of stopping silently.
    await banner.getByRole('heading', { name: "Can't reach the network" }).waitFor({ timeout: 15_000 })
    expect(await banner.textContent()).toMatch(
      /Showing the figures of block [\d,]+, read (just now|\d+ s ago)\. Updates are paused and resume by themselves when the network answers\./,
    )
    expect(await page.locator('[data-testid^="stake-"]').count()).toBe(rows)
    expect(await page.getByText('You do not have any deposits').count()).toBe(0)
    await shot(page, 'desktop-staking-rpc-down')
    await proxyFault('rpc', 'none')
    await banner.waitFor({ state: 'detached', timeout: 10_000 })
    await page.getByTestId('pool-as-of').waitFor()
    expect(errors).toEqual([])
  })

  it('staking page on a phone: an RPC that hangs times out into the outage, never endless skeletons', async () => {
    const me = session.accounts()[0]
    await proxyFault('rpc', 'hang')
    const { page, errors } = await session.open({
      wallet: new TestWallet(chainUrl(), { account: me }),
      device: PHONE,
      path: '/staking',
    })
    await connectWith(page, 'Browser wallet')
    const banner = outage(page, 'staking-outage')
    // A 2 s timeout in this build (6 s by default), then the outage: no skeleton left, no empty list.
    await banner.getByRole('heading', { name: "Can't reach the network" }).waitFor({ timeout: 10_000 })
    expect(await banner.textContent()).toContain('Nothing could be read yet. The page tries again by itself.')
    expect(await banner.textContent()).toContain('The network did not answer in time.')
    expect(await page.getByLabel('Loading', { exact: true }).count()).toBe(0)
    expect(await page.getByTestId('stake-list-error').textContent()).toContain('Your stakes could not be read.')
    expect(await page.getByText('You do not have any deposits').count()).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await shot(page, 'phone-staking-rpc-hang')
    await proxyFault('rpc', 'none')
    await page
      .getByTestId(/^stake-\d+$/)
      .first()
      .waitFor({ timeout: 10_000 })
    expect(await banner.count()).toBe(0)
    expect(errors).toEqual([])
  })

  it('staking page: a stake list the node refuses shows the error and a Retry, not the empty state', async () => {
    const me = session.accounts()[0]
    const selector = contracts.lens(record().contracts.lens, null as never).interface.getFunction('getUnstakeDataPage')!.selector
    await proxyFailCalls(selector)
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    const failure = page.getByTestId('stake-list-error')
    await failure.waitFor({ timeout: 10_000 })
    expect(await failure.textContent()).toContain('Your stakes could not be read.The network refused the read.')
    expect(await page.getByText('You do not have any deposits').count()).toBe(0)
    expect(await page.getByTestId('my-total-staked').textContent()).toMatch(/^[\d,]+\.\d\d PLT$/)
    await shot(page, 'desktop-staking-list-error')
    await proxyFailCalls(null)
    // Retry reads at once. On a slow machine the page's own backoff retry can get there first and take the button away
    // with the error: a click that finds no button is a failure only while the error is still on screen.
    await failure
      .getByRole('button', { name: 'Retry' })
      .click({ timeout: 5_000 })
      .catch(async (err) => {
        if ((await failure.count()) > 0) throw err
      })
    await page
      .getByTestId(/^stake-\d+$/)
      .first()
      .waitFor() // the stake list's rows (the statistics table has a Closed column too)
    expect(await failure.count()).toBe(0)
    // The same state on a phone.
    await proxyFailCalls(selector)
    const phone = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), device: PHONE, path: '/staking' })
    await connectWith(phone.page, 'Browser wallet')
    await phone.page.getByTestId('stake-list-error').waitFor({ timeout: 10_000 })
    await shot(phone.page, 'phone-staking-list-error')
    expect(errors).toEqual([])
  })

  it('2,000 stakes: the first page shows quickly, Show more adds the next page', async () => {
    const staker = await giveHeavyStakes(chainUrl(), record(), session.accounts()[0], {
      oldClosed: 0,
      recentClosed: 0,
      active: 2_000,
    })
    staker.destroy()
    const who = staker.address

    // Read-only: the wallet speaks for the staker contract's address.
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: who }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    // The newest active stake first; how fast is measured by npm run bench:rpc.
    await page.getByTestId('stake-1999').waitFor()
    expect(await page.locator('[data-testid^="stake-"]').count()).toBe(50)
    expect(await page.getByTestId('my-total-staked').textContent()).toBe('2,000.00 PLT')
    await page.getByRole('button', { name: 'Show more' }).click()
    await page.getByTestId('stake-1900').waitFor()
    expect(await page.locator('[data-testid^="stake-"]').count()).toBe(100)
    await shot(page, 'desktop-staking-2000-stakes')
    expect(errors).toEqual([])
  })
})
