import { JsonRpcProvider } from 'ethers'
import type { Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, depositMethod, PHONE, shot } from '../../scripts/lib/browser'
import { E18, record } from './localChain'

const session = browserSession()

/** 100 PLT from account #0 to `to`, and the default pool's allowance for it, so only the amount decides Confirm. */
async function fundAndApprove(to: string) {
  const provider = new JsonRpcProvider(chainUrl(), 31337, { staticNetwork: true, cacheTimeout: -1 })
  const token = contracts.token(record().contracts.token, provider)
  const pool = record().pools.find((p) => p.id === record().defaultPoolId)!.address
  const send = async (from: string, data: string) =>
    provider.waitForTransaction(await provider.send('eth_sendTransaction', [{ from, to: record().contracts.token, data }]))
  await send(session.accounts()[0], token.interface.encodeFunctionData('transfer', [to, 100n * E18]))
  await send(to, token.interface.encodeFunctionData('approve', [pool, 100n * E18]))
}

/** Pastes `text` into the focused field through the system clipboard, as a person would with Ctrl+V. */
async function paste(page: Page, text: string) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text)
  await page.keyboard.press('ControlOrMeta+V')
}

async function openDeposit(me: string, device?: typeof PHONE) {
  const { page, context, errors } = await session.open({
    wallet: new TestWallet(chainUrl(), { account: me }),
    device,
    path: '/staking',
  })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await connectWith(page, 'Browser wallet')
  await page.getByRole('button', { name: 'Create 1st deposit' }).click()
  const modal = page.getByRole('dialog', { name: 'Create deposit' })
  await depositMethod(modal, 'approve')
  await modal.getByRole('button', { name: 'Approved' }).waitFor()
  const amount = modal.getByLabel('Amount (PLT)')
  const confirm = modal.getByRole('button', { name: 'Confirm' })
  /** Replaces the field's text with a paste of `text`. */
  const pasteAmount = async (text: string) => {
    await amount.fill('')
    await amount.focus()
    await paste(page, text)
  }
  return { page, modal, amount, confirm, pasteAmount, errors }
}

describe('the deposit amount takes a paste as it is', () => {
  beforeAll(async () => {
    await fundAndApprove(session.accounts()[18])
  })

  it('keeps each pasted text, names what is wrong with it and keeps Confirm disabled until it is a plain amount', async () => {
    const { page, modal, amount, confirm, pasteAmount, errors } = await openDeposit(session.accounts()[18])
    const cases: [string, string][] = [
      ['1e18', 'Amount must be written out in full, without an exponent (e)'],
      ['-1', 'Amount cannot be negative'],
      ['1,5', 'Amount cannot contain commas: use a point (.) for decimals'],
      ['0.1234567890123456789', 'Amount can have at most 18 decimal places'],
      [' 12 ', 'Amount cannot contain spaces'],
    ]
    for (const [text, message] of cases) {
      await pasteAmount(text)
      expect(await amount.inputValue()).toBe(text)
      expect(await modal.getByRole('alert').textContent()).toBe(message)
      expect(await amount.getAttribute('aria-invalid')).toBe('true')
      expect(await confirm.isDisabled()).toBe(true)
      if (text === '1e18') await shot(page, 'desktop-deposit-amount-exponent')
    }
    await shot(page, 'desktop-deposit-amount-spaces')

    // The same field with a plain amount: no message, and Confirm can be pressed.
    await pasteAmount('12.5')
    await modal.getByText('Balance:').waitFor()
    expect(await modal.getByRole('alert').count()).toBe(0)
    expect(await confirm.isEnabled()).toBe(true)
    expect(errors).toEqual([])
  })

  it('shows the message within a 360 px phone screen', async () => {
    const { page, modal, pasteAmount } = await openDeposit(session.accounts()[18], PHONE)
    await pasteAmount('0.1234567890123456789')
    await modal.getByText('Amount can have at most 18 decimal places').waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await shot(page, 'phone-deposit-amount-decimals')
  })
})
