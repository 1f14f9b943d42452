import type { Locator, Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, depositDialog, DESKTOP, notice, PHONE, shot } from '../../scripts/lib/browser'
import { E18, fund, pool, provider, rpc, token } from './localChain'

/**
 * Writes that must never be lost or fail silently (docs/product.md, "Transactions"): a pending stake across a reload,
 * one replaced or dropped, an allowance below the amount, and a revert named in the dialog that asked for it.
 */
const session = browserSession()

/** `me` gets `tokens` PLT from account #0 and, when `allowance` is given, approves the pool for it itself. */
const prepare = (me: string, tokens: bigint, allowance?: bigint) => fund(session.accounts()[0], me, tokens, allowance)

async function openStaking(me: string, opts: { phone?: boolean; query?: string } = {}) {
  const wallet = new TestWallet(chainUrl(), { account: me })
  const opened = await session.open({ wallet, path: `/staking${opts.query ?? ''}`, device: opts.phone ? PHONE : undefined })
  await connectWith(opened.page, 'Browser wallet')
  await opened.page.getByRole('button', { name: 'Create 1st deposit' }).waitFor()
  return { ...opened, wallet }
}

/**
 * The state on screen at both sizes, desktop-<name> and phone-<name> (layout follows the width), back as it was;
 * `show` (e.g. a dialog's buttons) is scrolled into view at each size. The viewport only: the notices and dialogs are
 * fixed to it, and a whole-page shot would draw them mid-page.
 */
async function shotBoth(page: Page, name: string, show?: Locator) {
  const was = page.viewportSize()!
  for (const [prefix, size] of [
    ['desktop', DESKTOP.viewport],
    ['phone', PHONE.viewport],
  ] as const) {
    await page.setViewportSize(size)
    await show?.scrollIntoViewIfNeeded()
    await shot(page, `${prefix}-${name}`, { viewport: true })
  }
  await page.setViewportSize(was)
}

/** The page's kept transactions (what a reload finds), as the app wrote them to localStorage. */
const journal = async (page: Page): Promise<{ hash: string; sentAt: number; nonce: number }[]> =>
  JSON.parse((await page.evaluate(() => window.localStorage.getItem('sentTransactions'))) ?? '[]')

describe('transactions on the local stack', () => {
  afterEach(async () => {
    // The shared stack as it was: blocks mined on every transaction, nothing left in the mempool.
    await rpc('evm_setAutomine', [true])
    await rpc('evm_mine')
  })

  it('keeps a pending stake across a reload: the notice comes back pending, and the totals update once it is mined', async () => {
    const me = session.accounts()[13]
    await prepare(me, 500n, 500n * E18)
    const { page, errors } = await openStaking(me)
    const totalBefore = await page.getByTestId('pool-total-staked').textContent()
    await rpc('evm_setAutomine', [false])
    const modal = await depositDialog(page, '120')
    await modal.getByRole('button', { name: 'Approved' }).waitFor()
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await notice(page, 'pending').filter({ hasText: 'Stake' }).waitFor()
    const [kept] = await journal(page)
    expect(kept).toMatchObject({ kind: 'stake', chainId: 31337, from: me.toLowerCase() })

    await page.reload()
    const restored = notice(page, 'pending').filter({ hasText: 'Stake (sent before this page loaded)' })
    await restored.waitFor()
    expect(await restored.getByRole('link', { name: 'View on Local explorer' }).getAttribute('href')).toMatch(
      new RegExp(`/explorer/tx/${kept.hash}$`),
    )
    await page.getByText('You do not have any deposits').waitFor()
    await shotBoth(page, 'tx-restored-pending')

    await rpc('evm_mine')
    await notice(page, 'confirmed').filter({ hasText: 'Stake' }).waitFor()
    await page.getByTestId('stake-0').getByText('Pending').waitFor()
    await page.waitForFunction(() => document.querySelector('[data-testid="my-total-staked"]')?.textContent === '120.00 PLT')
    expect(await page.getByTestId('pool-total-staked').textContent()).not.toBe(totalBefore)
    await shotBoth(page, 'tx-restored-confirmed')
    expect(await journal(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('says when a pending stake was dropped (after a reload) or replaced by a cancel, and the dialog says so too', async () => {
    const me = session.accounts()[14]
    await prepare(me, 500n, 500n * E18)
    const { page, errors } = await openStaking(me, { phone: true })
    await rpc('evm_setAutomine', [false])
    let modal = await depositDialog(page, '50')
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await notice(page, 'pending').waitFor()
    // The node forgets it and the page is closed for an hour; its nonce is still free when the page is opened again.
    const [kept] = await journal(page)
    await rpc('hardhat_dropTransaction', [kept.hash])
    await page.evaluate((hour) => {
      const kept = JSON.parse(window.localStorage.getItem('sentTransactions')!) as { sentAt: number }[]
      window.localStorage.setItem('sentTransactions', JSON.stringify(kept.map((e) => ({ ...e, sentAt: e.sentAt - hour }))))
    }, 3_600_000)
    await page.reload()
    const dropped = notice(page, 'dropped')
    await dropped.waitFor()
    expect(await dropped.textContent()).toContain(
      'Stake (sent before this page loaded): It was never mined and the network no longer has it, so nothing was done.',
    )
    await shotBoth(page, 'tx-dropped')
    await dropped.getByRole('button', { name: 'Close notification' }).click()

    // Sent again, then cancelled in the wallet: the same nonce, a plain transfer to itself, a higher fee.
    modal = await depositDialog(page, '50')
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await notice(page, 'pending').waitFor()
    const [again] = await journal(page)
    const sent = (await rpc('eth_getTransactionByHash', [again.hash])) as { nonce: string; maxFeePerGas: string }
    const double = (hex: string) => `0x${(BigInt(hex) * 2n).toString(16)}`
    await rpc('eth_sendTransaction', [
      {
        from: me,
        to: me,
        value: '0x0',
        nonce: sent.nonce,
        maxFeePerGas: double(sent.maxFeePerGas),
        maxPriorityFeePerGas: double(sent.maxFeePerGas),
      },
    ])
    await rpc('evm_mine')
    await notice(page, 'replaced').waitFor()
    expect(await modal.getByRole('alert').textContent()).toBe(
      'Your wallet sent another transaction in its place (a cancel), so this one did not run.',
    )
    expect(await modal.getByRole('button', { name: 'Confirm' }).isEnabled()).toBe(true)
    await shotBoth(page, 'tx-replaced', modal.getByRole('button', { name: 'Confirm' }))
    expect(await journal(page)).toEqual([])
    expect(await contracts.pool(pool().address, provider()).getUserStakesCount(me)).toBe(0n)
    expect(errors).toEqual([])
  })

  it('with 5 PLT approved and 10 entered, offers Approve again with the amounts; an exact approval then stakes', async () => {
    const me = session.accounts()[15]
    await prepare(me, 100n, 5n * E18)
    const { page, errors } = await openStaking(me)
    const modal = await depositDialog(page, '10')
    const choice = modal.getByTestId('approve-choice')
    expect(await choice.locator('legend').textContent()).toBe(
      'The pool may spend 5.00 PLT of yours; this deposit needs 10.00 PLT. Approve:',
    )
    expect(await modal.getByRole('radio', { name: /Unlimited/ }).isChecked()).toBe(true)
    expect(await choice.textContent()).toContain('10,000,000,000.00 PLT, so later deposits need no approval')
    expect(await modal.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true)
    await modal.getByRole('radio', { name: /Exactly 10.00 PLT/ }).check()
    await shotBoth(page, 'deposit-low-allowance', modal.getByRole('button', { name: 'Confirm' }))
    await modal.getByRole('button', { name: 'Approve', exact: true }).click()
    await modal.getByRole('button', { name: 'Approved' }).waitFor()
    expect(await token().connect(provider()).allowance(me, pool().address)).toBe(10n * E18)
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await modal.waitFor({ state: 'detached' })
    await page.getByTestId('stake-0').getByText('Pending').waitFor()
    expect(await token().connect(provider()).allowance(me, pool().address)).toBe(0n)
    expect(errors).toEqual([])
  })

  it('names a self-referral in the deposit dialog before the wallet is asked, and the dialog still stakes without it', async () => {
    const me = session.accounts()[16]
    await prepare(me, 100n, 100n * E18)
    const { page, errors, wallet } = await openStaking(me, { query: `?ref=${me}` })
    const modal = await depositDialog(page, '20', '365')
    await modal.getByLabel('Choose a referral').selectOption({ label: 'Your referral' })
    await modal.getByRole('button', { name: 'Confirm' }).click()
    const alert = modal.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toBe('You cannot refer yourself.')
    // Refused by the simulation: the wallet was never asked to send, and no notice claims anything is in progress.
    expect(wallet.requests.map((r) => r.method)).not.toContain('eth_sendTransaction')
    expect(await notice(page, 'pending').count()).toBe(0)
    await shotBoth(page, 'deposit-self-referral', modal.getByRole('button', { name: 'Confirm' }))

    await modal.getByLabel('Choose a referral').selectOption({ label: 'None' })
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await modal.waitFor({ state: 'detached' })
    await page.getByTestId('stake-0').getByText('Pending').waitFor()
    expect(errors).toEqual([])
  })
})
