import type { Locator, Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { formatAmount } from '../../src/format/units'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, notice, PHONE, shot } from '../../scripts/lib/browser'
import { provider, token, twoMaturedOnePending, v2 } from './localChain'

const session = browserSession()

/** A 390 px wide phone (the desktop is the session's default, 1280 px). */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } }

/** Pool 0, version 2: it shares no fees, so a close pays exactly what the page read, to the wei. */

/** The page is no wider than its screen: nothing to scroll sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

/** Scrolls `box` to the top of the screen, under the header, for a picture of it. */
const top = (box: Locator) =>
  box.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - (window.innerWidth > 720 ? 84 : 76)))

/** `me`'s staking page of pool 0, connected, once its list shows the button. */
async function openList(me: string, device?: typeof PHONE_390) {
  const wallet = new TestWallet(chainUrl(), { account: me })
  const { page, errors } = await session.open({ wallet, path: '/staking/0', device })
  await connectWith(page, 'Browser wallet')
  // The pointer off the list's buttons (it rests where Choose Wallet's Continue was), so none is drawn hovered.
  await page.mouse.move(0, 0)
  const offer = page.getByRole('button', { name: 'Close all matured (2)' })
  await offer.waitFor()
  return { page, errors, wallet, offer }
}

describe('"Close all matured" on the local stack', () => {
  it('closes the two matured stakes in one transaction and leaves the pending one open', async () => {
    const me = await twoMaturedOnePending(session.accounts()[0])
    const pool = contracts.pool(v2().address, provider())
    const tokenAt = token().connect(provider())

    const { page, errors, wallet, offer } = await openList(me)
    for (const [id, status] of [
      [0, 'Matured'],
      [1, 'Matured'],
      [2, 'Pending'],
    ] as const)
      await page.getByTestId(`stake-${id}`).getByText(status, { exact: true }).waitFor()
    await top(page.getByRole('region', { name: /My total staked/ }))
    await shot(page, 'close-all-list-desktop', { viewport: true })

    await offer.click()
    const dialog = page.getByRole('dialog', { name: 'Close all matured' })
    expect(await dialog.getByTestId('close-all-count').textContent()).toBe('2')
    // What each of the two pays now, as the pool's own view says: amount, bonus and whole reward, no fee.
    const paying = await Promise.all([0, 1].map((id) => pool.getStakeInfo(me, id)))
    expect(paying.map((p) => p.fee)).toEqual([0n, 0n])
    const total = paying.reduce((n, p) => n + p.amountOut, 0n)
    expect(await dialog.getByTestId('close-all-total').textContent()).toBe(formatAmount(total, { symbol: 'PLT' }))
    expect(await dialog.getByTestId('close-all-stakes').getByRole('listitem').allTextContents()).toEqual(
      paying.map((p, id) => `Stake #${id}${formatAmount(p.amountOut, { symbol: 'PLT' })}`),
    )
    await dialog
      .getByTestId('fee-line')
      .getByText(/^Network fee: about /)
      .waitFor()
    await shot(page, 'close-all-dialog-desktop', { viewport: true })

    // The same at 390 px: the list's buttons wrap within the screen, the dialog fits it.
    const phone = await openList(me, PHONE_390)
    expect(await fitsWidth(phone.page)).toBe(true)
    await top(phone.page.getByRole('region', { name: /My total staked/ }))
    await shot(phone.page, 'close-all-list-phone390', { viewport: true })
    await phone.offer.click()
    await phone.page
      .getByRole('dialog', { name: 'Close all matured' })
      .getByTestId('fee-line')
      .getByText(/^Network fee: about /)
      .waitFor()
    expect(await fitsWidth(phone.page)).toBe(true)
    await shot(phone.page, 'close-all-dialog-phone390', { viewport: true })
    expect(phone.errors).toEqual([])
    await phone.page.context().close()

    // Declined in the wallet: the rejection notice, the dialog as it was, nothing closed.
    const send = dialog.getByRole('button', { name: /Close 2 stakes$/ })
    wallet.rejectNext('eth_sendTransaction')
    await send.click()
    await page.getByText('You rejected the transaction in your wallet.').waitFor()
    expect(await dialog.getByTestId('close-all-total').textContent()).toBe(formatAmount(total, { symbol: 'PLT' }))
    expect(await send.isEnabled()).toBe(true)
    expect((await Promise.all([0, 1].map((id) => pool.getStake(me, id)))).map((s) => s.active)).toEqual([true, true])
    await shot(page, 'close-all-dialog-rejected-desktop', { viewport: true })

    // Confirmed: one transaction, the two matured stakes closed, the pending one open, the total paid.
    const before = await tokenAt.balanceOf(me)
    const sent = wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    await send.click()
    await dialog.waitFor({ state: 'detached' })
    await notice(page, 'confirmed').filter({ hasText: 'Close stake' }).waitFor()
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length).toBe(sent + 1)
    expect((await tokenAt.balanceOf(me)) - before).toBe(total)
    expect((await Promise.all([0, 1, 2].map((id) => pool.getStake(me, id)))).map((s) => s.active)).toEqual([false, false, true])
    for (const id of [0, 1]) await page.getByTestId(`stake-${id}`).getByText('Closed', { exact: true }).waitFor()
    await page.getByTestId('stake-2').getByText('Pending', { exact: true }).waitFor()
    expect(await page.getByRole('button', { name: /^Close all matured/ }).count()).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
