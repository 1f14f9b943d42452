import type { Locator, Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { DAY } from '../../src/domain/math'
import { formatAmount } from '../../src/format/units'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, notice, PHONE, shot } from '../../scripts/lib/browser'
import { provider, token, twoMaturedOnePending, v2 } from './localChain'

const session = browserSession()

/** A 390 px wide phone (the desktop is the session's default, 1280 px). */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } }

/** Pool 0, version 2: it shares no fees, so what closing a matured stake pays is what the page read, to the wei. */

/** The page is no wider than its screen: nothing to scroll sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

/** Scrolls `box` to the top of the screen, under the header, for a picture of it. */
const top = (box: Locator) =>
  box.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - (window.innerWidth > 720 ? 84 : 76)))

const PLT = (wei: bigint) => formatAmount(wei, { symbol: 'PLT' })

/** `me`'s staking page of pool 0, connected, once stake #0's row is listed. */
async function openList(me: string, device?: typeof PHONE_390) {
  const wallet = new TestWallet(chainUrl(), { account: me })
  const { page, errors } = await session.open({ wallet, path: '/staking/0', device })
  await connectWith(page, 'Browser wallet')
  // The pointer off the list's buttons (it rests where Choose Wallet's Continue was), so none is drawn hovered.
  await page.mouse.move(0, 0)
  await page.getByTestId('stake-0').waitFor()
  return { page, errors, wallet }
}

/** Each listed stake's status, by id, as its row's badge says it. */
async function statuses(page: Page, ids: number[]) {
  return Promise.all(
    ids.map(async (id) => [id, await page.getByTestId(`stake-${id}`).locator('td').first().textContent()] as const),
  )
}

/** The restake dialog with `days` typed, once its fee is quoted and its curve drawn. */
async function restakeFor(page: Page, days: string) {
  const dialog = page.getByRole('dialog', { name: 'Restake' })
  const field = dialog.getByLabel('Days')
  await field.fill(days)
  await dialog.getByTestId('close-curve').locator('.recharts-wrapper').waitFor()
  await dialog
    .getByTestId('fee-line')
    .getByText(/^Network fee: about /)
    .waitFor()
  return dialog
}

describe('Restake on the local stack', () => {
  it('restakes one matured stake for 90 days, then "Restake all" for 30, each in one transaction, nothing paid out', async () => {
    const me = await twoMaturedOnePending(session.accounts()[0])
    const pool = contracts.pool(v2().address, provider())
    const tokenAt = token().connect(provider())
    const balance = await tokenAt.balanceOf(me)

    const { page, errors, wallet } = await openList(me)
    await page.getByTestId('stake-2').getByText('Pending', { exact: true }).waitFor()
    expect(await statuses(page, [0, 1, 2])).toEqual([
      [0, 'Matured'],
      [1, 'Matured'],
      [2, 'Pending'],
    ])
    // Only the matured rows offer it.
    expect(await page.getByRole('button', { name: /^Restake stake #/ }).count()).toBe(2)
    await top(page.getByRole('region', { name: /My total staked/ }))
    await shot(page, 'restake-rows-desktop', { viewport: true })

    // Stake #0 for 90 days: what it pays now is the amount, fixed; the deposit dialog's estimate and curve of it.
    await page.getByRole('button', { name: 'Restake stake #0' }).click()
    const first = await pool.getStakeInfo(me, 0)
    expect(first.fee).toBe(0n)
    const dialog = await restakeFor(page, '90')
    expect(await dialog.getByTestId('restake-amount').textContent()).toBe(PLT(first.amountOut))
    expect(await dialog.getByTestId('restake-stakes').getByRole('listitem').allTextContents()).toEqual([
      `Stake #0${PLT(first.amountOut)}`,
    ])
    expect(await dialog.getByText('From 1 to 1095').count()).toBe(1)
    const atRelease = await dialog.getByTestId('preview-at-maturity').textContent()
    expect(await dialog.getByRole('button', { name: /Approve/ }).count()).toBe(0)
    await shot(page, 'restake-dialog-desktop', { viewport: true })

    // The same dialog at 390 px: the curve under the figures, nothing wider than the screen.
    const phone = await openList(me, PHONE_390)
    await phone.page.getByTestId('stake-2').getByText('Pending', { exact: true }).waitFor()
    expect(await fitsWidth(phone.page)).toBe(true)
    await phone.page.getByTestId('stake-1').scrollIntoViewIfNeeded()
    await shot(phone.page, 'restake-rows-phone390', { viewport: true })
    // "Close all matured" offers "Restake all" beside its close; a matured stake's summary offers "Restake" beside
    // "Close tranche", which opens the same dialog for that stake.
    await phone.page.getByRole('button', { name: 'Close all matured (2)' }).click()
    const closeAll = phone.page.getByRole('dialog', { name: 'Close all matured' })
    await closeAll
      .getByTestId('fee-line')
      .getByText(/^Network fee: about /)
      .waitFor()
    await shot(phone.page, 'restake-close-all-phone390', { viewport: true })
    await closeAll.getByRole('button', { name: 'Close', exact: true }).click()
    await phone.page.getByRole('button', { name: 'Close stake #0' }).click()
    const summary = phone.page.getByRole('dialog', { name: 'Stake #0' })
    await summary
      .getByTestId('fee-line')
      .getByText(/^Network fee: about /)
      .waitFor()
    await shot(phone.page, 'restake-summary-phone390', { viewport: true })
    await summary.getByRole('button', { name: 'Restake', exact: true }).click()
    const onPhone = await restakeFor(phone.page, '90')
    expect(await fitsWidth(phone.page)).toBe(true)
    await shot(phone.page, 'restake-dialog-phone390', { viewport: true })
    await onPhone.getByTestId('close-curve').scrollIntoViewIfNeeded()
    await shot(phone.page, 'restake-dialog-curve-phone390', { viewport: true })
    expect(phone.errors).toEqual([])
    await phone.page.context().close()

    // Confirmed: one transaction; #0 closed, a new stake #3 of exactly that amount for 90 days; no token paid out.
    const sent = wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await dialog.waitFor({ state: 'detached' })
    await notice(page, 'confirmed').filter({ hasText: 'Restake' }).waitFor()
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length).toBe(sent + 1)
    const made = await pool.getStake(me, 3)
    expect([made.active, made.stakeAmount, made.holdTime]).toEqual([true, first.amountOut, 90n * DAY])
    expect(PLT(made.stakeAmount + made.bonus + made.reward)).toBe(atRelease)
    expect((await pool.getStake(me, 0)).active).toBe(false)
    expect(await tokenAt.balanceOf(me)).toBe(balance)
    await page.getByTestId('stake-3').waitFor()
    await page.getByTestId('stake-0').getByText('Closed', { exact: true }).waitFor()
    expect(await statuses(page, [3, 2, 1, 0])).toEqual([
      [3, 'Pending'],
      [2, 'Pending'],
      [1, 'Matured'],
      [0, 'Closed'],
    ])
    expect(await page.getByTestId('stake-3').getByText('90 days').count()).toBe(1)

    // "Restake all" from "Close all matured": the one matured stake left, #1, for 30 days.
    await page.getByRole('button', { name: 'Close all matured (1)' }).click()
    const closeAllDesktop = page.getByRole('dialog', { name: 'Close all matured' })
    await closeAllDesktop
      .getByTestId('fee-line')
      .getByText(/^Network fee: about /)
      .waitFor()
    await shot(page, 'restake-close-all-desktop', { viewport: true })
    await closeAllDesktop.getByRole('button', { name: 'Restake all' }).click()
    const second = await pool.getStakeInfo(me, 1)
    const all = await restakeFor(page, '30')
    expect(await all.getByTestId('restake-amount').textContent()).toBe(PLT(second.amountOut))
    await all.getByRole('button', { name: 'Confirm' }).click()
    await all.waitFor({ state: 'detached' })
    await page.getByTestId('stake-4').waitFor()
    await page.getByTestId('stake-1').getByText('Closed', { exact: true }).waitFor()
    const last = await pool.getStake(me, 4)
    expect([last.active, last.stakeAmount, last.holdTime]).toEqual([true, second.amountOut, 30n * DAY])
    expect(await tokenAt.balanceOf(me)).toBe(balance)
    expect(await statuses(page, [4, 3, 2, 1, 0])).toEqual([
      [4, 'Pending'],
      [3, 'Pending'],
      [2, 'Pending'],
      [1, 'Closed'],
      [0, 'Closed'],
    ])
    // Nothing matured is left to close or restake.
    expect(await page.getByRole('button', { name: /^Close all matured/ }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Restake/ }).count()).toBe(0)
    // The confirmed notices go by themselves (5 s after the receipt), and the picture shows the whole list.
    await page.waitForFunction(() => document.querySelectorAll('[data-status="confirmed"]').length === 0)
    await top(page.getByRole('region', { name: /My total staked/ }))
    await shot(page, 'restake-list-desktop', { viewport: true })
    expect(errors).toEqual([])

    const after = await openList(me, PHONE_390)
    await after.page.getByTestId('stake-4').waitFor()
    expect(await fitsWidth(after.page)).toBe(true)
    await top(after.page.getByRole('region', { name: /My total staked/ }))
    await shot(after.page, 'restake-list-phone390', { viewport: true })
    expect(after.errors).toEqual([])
    await after.page.context().close()
    await page.context().close()
  })
})
