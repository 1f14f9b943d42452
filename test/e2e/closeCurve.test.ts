import type { Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { DAY, ONE, rewardFraction } from '../../src/domain/math'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, depositDialog, PHONE, shot } from '../../scripts/lib/browser'
import { E18, fund, pool, provider, record, rpc, sendAs } from './localChain'

const session = browserSession()

/** A 390 px wide phone (the issue's narrowest screen) and the tests' desktop. */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } }
const SIZES = [
  { name: 'desktop', device: undefined },
  { name: 'phone390', device: PHONE_390 },
] as const

const wei = async (page: Page, id: string) => BigInt((await page.getByTestId(id).getAttribute('data-wei'))!)
const dayShown = (page: Page) => page.getByTestId('curve-day').textContent()
/** The page is no wider than its screen: nothing to scroll sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

/** `me` has one pending stake of 1,000 PLT for 120 days in the default pool (version 1, 400% inflation, 100% fee). */
async function stakeFor(me: string) {
  await fund(session.accounts()[0], me, 1_000n, 1_000n * E18)
  const p = contracts.pool(pool().address, provider())
  await sendAs(me, pool().address, p.interface.encodeFunctionData('stake(uint256,uint256)', [1_000n * E18, 120n * DAY]))
}

/** The staking page of `me` with the closing summary of its stake #0 open, its curve drawn. */
async function openSummary(me: string, device?: typeof PHONE_390) {
  const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking', device })
  await connectWith(page, 'Browser wallet')
  await page.getByTestId('stake-0').getByText('Pending').waitFor()
  await page.getByRole('button', { name: 'Close stake #0' }).click()
  const summary = page.getByRole('dialog', { name: 'Stake #0' })
  await summary.getByTestId('close-curve').locator('.recharts-wrapper').waitFor()
  return { page, errors, summary }
}

describe('what a close pays, day by day, on the local stack', () => {
  it("starts at the Lens's preview of the stake to the wei and ends at what the chain pays at the release", async () => {
    const me = session.accounts()[11]
    await stakeFor(me)
    const { page, errors, summary } = await openSummary(me)
    const lens = contracts.lens(record().contracts.lens, provider())
    const read = contracts.pool(pool().address, provider())

    // Today, as the page shows it: the Lens's figures for this stake at the block the page read.
    const block = Number(
      (await page.getByTestId('pool-as-of').textContent())!.match(/As of block ([\d,]+)/)![1].replace(/,/g, ''),
    )
    const now = await lens.getUnstakeData(pool().address, me, 0, { blockTag: block })
    expect(await dayShown(page)).toMatch(/^Today, /)
    expect(await wei(page, 'curve-received')).toBe(now.amountOut - now.fee)
    expect(await wei(page, 'curve-fee')).toBe(now.fee)
    expect(await summary.getByTestId('curve-received').textContent()).toBe(
      await summary.getByTestId('summary-total').textContent(),
    )

    // The day picker by keyboard: a day at a time, Home today, End the release.
    const slider = summary.getByRole('slider', { name: 'Close on' })
    await slider.focus()
    await page.keyboard.press('ArrowRight')
    expect(await dayShown(page)).toMatch(/^Day 1, /)
    await page.keyboard.press('End')
    expect(await dayShown(page)).toMatch(/^Release, /)
    const atRelease = await wei(page, 'curve-received')
    // The release as the chain's terms say it at that block: amount, bonus, whole reward, and the fees shared so far.
    const info = await read.getStakeInfo(me, 0, { blockTag: block })
    expect(atRelease).toBe(info.stake.stakeAmount + info.stake.bonus + info.stake.reward + info.stake.gains)
    expect(await wei(page, 'curve-fee')).toBe(0n)
    await page.keyboard.press('Home')
    expect(await dayShown(page)).toMatch(/^Today, /)

    // Hovering the chart picks the day under the pointer.
    const chart = summary.locator('.recharts-wrapper')
    const box = (await chart.boundingBox())!
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2)
    await page.waitForFunction(() => /^Day \d+, /.test(document.querySelector('[data-testid="curve-day"]')?.textContent ?? ''))
    expect(errors).toEqual([])
    await page.context().close()

    // At the release itself (the node's clock moved there and back): the Lens pays what the curve said, less nothing
    // but the fees other stakers' closes shared with it since, which the curve does not foresee.
    const release = Number(info.stake.stakeTime + info.stake.holdTime)
    const snapshot: string = await rpc('evm_snapshot')
    try {
      await rpc('evm_setNextBlockTimestamp', [release])
      await rpc('evm_mine')
      const paid = await lens.getUnstakeData(pool().address, me, 0)
      const later = await read.getStakeInfo(me, 0)
      expect(paid.fee).toBe(0n)
      expect(paid.amountOut - paid.fee).toBe(atRelease + (later.stake.gains - info.stake.gains))
    } finally {
      await rpc('evm_revert', [snapshot])
    }
    // The clock is back where it was: a block mined now is months before the release.
    await rpc('evm_mine')
    const latest = await provider().getBlock('latest')
    expect(latest!.timestamp).toBeLessThan(release - 100 * Number(DAY))
  })

  it('draws the closing summary and the deposit dialog within the screen at 1280 and 390 px', async () => {
    const staker = session.accounts()[10]
    await stakeFor(staker)
    const newcomer = session.accounts()[12]
    await fund(session.accounts()[0], newcomer, 1_000n)
    for (const size of SIZES) {
      const { page, errors, summary } = await openSummary(staker, size.device)
      expect(await fitsWidth(page)).toBe(true)
      await shot(page, `curve-summary-${size.name}`, { viewport: true })
      await summary.getByTestId('close-curve').scrollIntoViewIfNeeded()
      await shot(page, `curve-summary-${size.name}-curve`, { viewport: true })
      expect(errors).toEqual([])
      await page.context().close()

      const opened = await session.open({
        wallet: new TestWallet(chainUrl(), { account: newcomer }),
        path: '/staking',
        device: size.device,
      })
      await connectWith(opened.page, 'Browser wallet')
      const modal = await depositDialog(opened.page, '1000', '180')
      await modal.getByTestId('close-curve').locator('.recharts-wrapper').waitFor()
      // The stake being made, from the same preview as the dialog's figures: at the release what the estimate says.
      await modal.getByRole('slider', { name: 'Close on' }).focus()
      await opened.page.keyboard.press('End')
      expect(await modal.getByTestId('curve-received').textContent()).toBe(
        await modal.getByTestId('preview-at-maturity').textContent(),
      )
      await opened.page.keyboard.press('Home')
      expect(await modal.getByTestId('curve-received').textContent()).toBe('0.00 PLT')
      expect(await fitsWidth(opened.page)).toBe(true)
      await shot(opened.page, `curve-deposit-${size.name}`, { viewport: true })
      await modal.getByTestId('close-curve').scrollIntoViewIfNeeded()
      await shot(opened.page, `curve-deposit-${size.name}-curve`, { viewport: true })
      expect(opened.errors).toEqual([])
      await opened.page.context().close()
    }
  })

  it('compares claiming the unlocked amount with staking it under each term, from the terms on chain', async () => {
    // Account #4 has a vesting allocation no other browser test claims.
    const me = session.accounts()[4]
    const unlocked = BigInt(
      ((await (await fetch(`${process.env.E2E_API_URL}/vesting/address/${me}`)).json()) as { unlocked: string }).unlocked,
    )
    expect(unlocked).toBeGreaterThan(0n)
    const state = await contracts.pool(pool().address, provider()).getPoolState()
    const terms = await contracts.pool(pool().address, provider()).getAllHarvestBonusTimeData()
    for (const size of SIZES) {
      const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), device: size.device })
      await connectWith(page, 'Browser wallet')
      const box = page.getByRole('region', { name: 'Claim or stake' })
      await box.waitFor()
      expect(await box.getByTestId('claim-option-wallet').getByTestId('at-release').getAttribute('data-wei')).toBe(
        unlocked.toString(),
      )
      for (const t of terms) {
        // The term's bonus and the pool's inflation over its hold, on the unlocked amount, as claim-and-stake asks.
        const expected =
          unlocked + (unlocked * (t.bonus / 100n)) / ONE + (unlocked * rewardFraction(state.inflationPercent, t.hold)) / ONE
        const option = box.getByTestId(`claim-option-${t.hold}`)
        expect(await option.getByTestId('at-release').getAttribute('data-wei')).toBe(expected.toString())
        expect(await option.getByTestId('break-even').textContent()).toMatch(/^\w{3}, \d+ \w{3} \d{4}in \d+ days$/)
      }
      expect(await fitsWidth(page)).toBe(true)
      await box.scrollIntoViewIfNeeded()
      await shot(page, `curve-claim-${size.name}`)
      expect(errors).toEqual([])
    }
  })
})
