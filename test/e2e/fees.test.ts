import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, depositDialog, depositMethod, PHONE, shot } from '../../scripts/lib/browser'
import { fund, provider, rpc } from './localChain'

const session = browserSession()

/** The wallet's balance of the network's currency set to `wei` (Hardhat's cheat code); returns the one it had. */
async function setEth(who: string, wei: bigint): Promise<string> {
  const had = (await rpc('eth_getBalance', [who, 'latest'])) as string
  await rpc('hardhat_setBalance', [who, `0x${wei.toString(16)}`])
  return had
}

describe('the network fee before Confirm, in the browser on the local chain', () => {
  // Account #5: no other browser test uses it; 100 PLT and the pool's allowance for them, so the fee is the stake's.
  beforeAll(() => fund(session.accounts()[0], session.accounts()[5], 100n, 100n * 10n ** 18n))

  it("shows the deposit's fee in ETH, and says so and keeps Confirm off when the wallet cannot pay it", async () => {
    const me = session.accounts()[5]
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    const modal = await depositDialog(page, '10', '90')
    const line = modal.getByTestId('fee-line')
    await line.filter({ hasText: /^Network fee: about / }).waitFor()
    // The node's price for it: the line's figure is the estimate at the current gas price, to six decimals.
    const { gasPrice } = await provider().getFeeData()
    const shown = Number((await line.textContent())!.match(/about ([\d.]+) ETH/)![1])
    expect(shown).toBeGreaterThan(0)
    expect(shown).toBeLessThan(Number(500_000n * gasPrice!) / 1e18)
    expect(await modal.getByRole('button', { name: 'Confirm' }).isEnabled()).toBe(true)
    await line.scrollIntoViewIfNeeded()
    await shot(page, 'desktop-deposit-fee', { viewport: true })

    // Its ETH all but gone (put back after).
    const had = await setEth(me, 10n ** 9n)
    try {
      // Another amount is another transaction: its quote now finds the wallet short.
      await modal.getByLabel('Amount (PLT)').fill('11')
      await line.filter({ hasText: /^Your wallet has less than 0\.000001 ETH, and the network fee/ }).waitFor()
      expect(await line.textContent()).toMatch(/may take up to 0\.\d{6} ETH\. Add ETH to the wallet to confirm\.$/)
      expect(await modal.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true)
      await line.scrollIntoViewIfNeeded()
      await shot(page, 'desktop-deposit-fee-short', { viewport: true })
    } finally {
      await setEth(me, BigInt(had))
    }
    expect(errors).toEqual([])
  })

  it('fits the fee line on a phone', async () => {
    const me = session.accounts()[5]
    const { page, errors } = await session.open({
      wallet: new TestWallet(chainUrl(), { account: me }),
      path: '/staking',
      device: PHONE,
    })
    await connectWith(page, 'Browser wallet')
    await page.getByRole('button', { name: /^Deposit$/ }).click()
    const modal = page.getByRole('dialog', { name: 'Create deposit' })
    await depositMethod(modal, 'approve')
    await modal.getByLabel('Amount (PLT)').fill('5')
    await modal
      .getByTestId('fee-line')
      .filter({ hasText: /^Network fee: about / })
      .waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width)
    await shot(page, 'phone-deposit-fee', { viewport: true })
    expect(errors).toEqual([])
  })
})
