import { Interface, MaxUint256 } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, depositDialog, downloadedText, PHONE, shot } from '../../scripts/lib/browser'
import { E18, record, provider } from './localChain'

const session = browserSession()

/** A transaction from a Hardhat account (the node signs), once mined. */
async function sendAs(from: string, to: string, data: string) {
  await provider().waitForTransaction(await provider().send('eth_sendTransaction', [{ from, to, data }]))
}

const tokenInterface = () => contracts.token(record().contracts.token, provider()).interface

/** Sends `tokens` PLT from Hardhat account #0 so a fresh account can stake. */
async function fund(to: string, tokens: bigint) {
  await sendAs(
    session.accounts()[0],
    record().contracts.token,
    tokenInterface().encodeFunctionData('transfer', [to, tokens * E18]),
  )
}

describe('staking page on the local stack', () => {
  it('goes from the empty state through approve and deposit to the new stake, then closes it', async () => {
    const me = session.accounts()[6]
    await fund(me, 1_000n)
    const wallet = new TestWallet(chainUrl(), { account: me })
    const { page, errors } = await session.open({ wallet, path: '/staking' })
    await connectWith(page, 'Browser wallet')
    await page.getByText('You do not have any deposits').waitFor()
    await shot(page, 'desktop-staking-empty')

    const modal = await depositDialog(page, '250', '90')
    // The estimate: a 90/1,095 share of the 30% length bonus and 400% a year over 90 days, funded by the reservoir.
    expect(await modal.getByTestId('preview-bonus').textContent()).toBe('6.16 PLT')
    expect(await modal.getByTestId('preview-reward').textContent()).toBe('246.57 PLT')
    expect(await modal.getByTestId('preview-at-maturity').textContent()).toBe('502.73 PLT')
    expect(await modal.getByTestId('preview-shortfall').count()).toBe(0)
    expect(await modal.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true)
    await modal.getByRole('button', { name: 'Approve' }).click()
    await modal.getByRole('button', { name: 'Approved' }).waitFor()
    await shot(page, 'desktop-deposit-modal')
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await modal.waitFor({ state: 'detached' })
    const notice = page.locator('[data-status="confirmed"]').filter({ hasText: 'Stake' })
    await notice.waitFor()
    // The notification links to the explorer: on the local chain the API's pages, showing this very stake.
    const href = await notice.getByRole('link', { name: 'View on Local explorer' }).getAttribute('href')
    expect(href).toMatch(new RegExp(`^${process.env.E2E_APP_API_URL}/explorer/tx/0x[0-9a-f]{64}$`))
    const explorer = await page.context().newPage()
    await explorer.goto(href!)
    expect(await explorer.locator('dd.ok').textContent()).toBe('Success')
    // The guarded stake (docs/contracts.md, "Terms the holder saw"): the fee, bonus and reward the preview showed as
    // its bounds, and the stake landed on exactly those (the Staked event's bonus and reward).
    const main = (await explorer.textContent('main'))!
    const sent = main.match(
      new RegExp(
        `stake\\(amount: ${250n * E18}, holdTime: ${90 * 86_400}, referer: 0x0{40}, maxFee: (\\d+), minBonus: (\\d+), minReward: (\\d+)\\)`,
      ),
    )
    expect(sent).not.toBeNull()
    const landed = main.match(/Staked\(user: 0x[0-9a-fA-F]{40}, id: \d+, amount: \d+, bonus: (\d+), reward: (\d+),/)
    expect([sent![2], sent![3]]).toEqual([landed![1], landed![2]])
    await shot(explorer, 'desktop-local-explorer-tx')
    await explorer.close()

    const pool = contracts.pool(record().pools.find((p) => p.id === record().defaultPoolId)!.address, provider())
    const stake = await pool.getStake(me, 0)
    expect([stake.stakeAmount, stake.holdTime, stake.active]).toEqual([250n * E18, 90n * 86_400n, true])
    const row = page.getByTestId('stake-0')
    await row.getByText('Pending').waitFor()
    expect(await row.textContent()).toContain('250.00 PLT')
    expect(await page.getByTestId('my-total-staked').textContent()).toBe('250.00 PLT')
    await shot(page, 'desktop-staking-list')

    await row.getByRole('button', { name: 'Close stake #0' }).click()
    const summary = page.getByRole('dialog', { name: 'Stake #0' })
    const total = await summary.getByTestId('summary-total').textContent()
    // An early close: the fee, and the whole bonus and the reward not yet earned go back to the reservoir.
    const cents = (wei: bigint) => `${(Number(wei / 10n ** 16n) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} PLT`
    expect(await summary.getByTestId('summary-bonus-forfeited').textContent()).toBe(cents(stake.bonus))
    expect(await summary.getByTestId('summary-fee').textContent()).toMatch(/^2\d\d\.\d\d PLT$/)
    expect(await summary.getByTestId('summary-reward-forfeited').textContent()).toMatch(/^24\d\.\d\d PLT$/)
    expect(await summary.getByText('Earned from strong hands').count()).toBe(1)
    await shot(page, 'desktop-stake-summary')
    const before = await contracts.token(record().contracts.token, provider()).balanceOf(me)
    await summary.getByRole('button', { name: 'Close tranche' }).click()
    await summary.waitFor({ state: 'detached' })
    await page.getByTestId('stake-0').getByText('Closed').waitFor()
    expect((await pool.getStake(me, 0)).active).toBe(false)
    const received = (await contracts.token(record().contracts.token, provider()).balanceOf(me)) - before
    // The summary showed what closing paid at the block it read; a later block has a lower fee and more reward earned.
    expect(Number(received / 10n ** 16n) / 100).toBeGreaterThanOrEqual(Number(total!.replace(/[^\d.]/g, '')))
    // The closed row's Earned is exactly what the close paid beyond the amount (a loss after the fee).
    const earned = page.getByTestId('stake-0').locator('td[data-label="Earned"]')
    expect(await earned.textContent()).toBe(`-${cents(250n * E18 - received)}`)
    expect(errors).toEqual([])
  })

  it('says when the reward reservoir runs short, and stakes on the lower terms only once they are accepted', async () => {
    const me = session.accounts()[8]
    await fund(me, 500n)
    const pool = record().pools.find((p) => p.id === record().defaultPoolId)!
    await sendAs(me, record().contracts.token, tokenInterface().encodeFunctionData('approve', [pool.address, 500n * E18]))
    const reservoir = new Interface(['function approvePool(address token, address pool, uint256 amount)'])
    // The reservoir's owner (#0 on the local chain) lets the pool draw at most `amount` for bonuses and rewards.
    const allowReservoir = (amount: bigint) =>
      sendAs(
        session.accounts()[0],
        record().contracts.reservoir,
        reservoir.encodeFunctionData('approvePool', [record().contracts.token, pool.address, amount]),
      )
    try {
      await allowReservoir(50n * E18)
      const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
      await connectWith(page, 'Browser wallet')
      const modal = await depositDialog(page, '100', '365')
      // 100 for 365 days wants a 10 bonus and a 400 reward; 50 can be funded: the bonus first, the reward gets 40.
      expect(await modal.getByTestId('preview-shortfall').textContent()).toBe(
        'The reward reservoir can fund only 50.00 PLT of the 410.00 PLT bonus and reward this stake would earn. ' +
          'The pool stakes it on these lower terms only if you accept them.',
      )
      expect(await modal.getByTestId('preview-reward').textContent()).toBe('40.00 PLT')
      const accept = modal.getByRole('checkbox', { name: 'I accept a reward of 40.00 PLT instead of 400.00 PLT.' })
      expect(await modal.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true)
      await modal.getByRole('button', { name: 'Confirm' }).scrollIntoViewIfNeeded()
      await shot(page, 'desktop-deposit-short-reservoir')

      // Accepted, but the reservoir is emptied further before the stake is sent: the pool refuses it rather than give
      // less than was accepted, the modal says why, and the estimate follows the pool's new figures.
      await accept.check()
      await allowReservoir(25n * E18)
      await modal.getByRole('button', { name: 'Confirm' }).click()
      expect(await modal.getByRole('alert').textContent()).toBe(
        "The reward reservoir can no longer fund this stake's full bonus and reward: it can fund a bonus of 10.00 and a " +
          'reward of 15.00. Nothing was staked; check the new figures and try again.',
      )
      await modal.getByRole('checkbox', { name: 'I accept a reward of 15.00 PLT instead of 400.00 PLT.' }).waitFor()
      expect(await modal.getByRole('checkbox').isChecked()).toBe(false)
      expect(await modal.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true)
      await modal.getByRole('button', { name: 'Confirm' }).scrollIntoViewIfNeeded()
      await shot(page, 'desktop-deposit-short-reservoir-refused')

      await modal.getByRole('checkbox').check()
      await modal.getByRole('button', { name: 'Confirm' }).click()
      await modal.waitFor({ state: 'detached' })
      await page.getByTestId('stake-0').getByText('Pending').waitFor()
      const stake = await contracts.pool(pool.address, provider()).getStake(me, 0)
      expect([stake.stakeAmount, stake.bonus, stake.reward]).toEqual([100n * E18, 10n * E18, 15n * E18])
      expect(errors).toEqual([])
    } finally {
      await allowReservoir(MaxUint256)
    }
  })

  it('counts down to the release on a pending stake, and exports the stakes as CSV with exact amounts', async () => {
    const me = session.accounts()[7]
    await fund(me, 100n)
    const pool = record().pools.find((p) => p.id === record().defaultPoolId)!
    const iface = contracts.pool(pool.address, provider()).interface
    await sendAs(me, record().contracts.token, tokenInterface().encodeFunctionData('approve', [pool.address, 100n * E18]))
    await sendAs(me, pool.address, iface.encodeFunctionData('stake(uint256,uint256)', [12n * E18 + 345n, 86_400n]))
    await sendAs(me, pool.address, iface.encodeFunctionData('stake(uint256,uint256)', [30n * E18, 400n * 86_400n]))
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    // One day to go: hours, minutes and seconds, ticking on its own between reads.
    const countdown = page.getByTestId('stake-0').locator('small', { hasText: /^in / })
    const first = await countdown.textContent()
    expect(first).toMatch(/^in 23h 59m \d\ds$/)
    await page.waitForFunction(
      ([id, was]) =>
        document.querySelector(`[data-testid="stake-${id}"] td[data-label="Release date"] small`)?.textContent !== was,
      [0, first] as const,
    )
    expect(await page.getByTestId('stake-1').locator('small', { hasText: /^in / }).textContent()).toMatch(/^in 399d 23h 5\dm$/)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      // The stake list's (the Activity section has one too, below it).
      page.getByRole('button', { name: 'Export CSV' }).first().click(),
    ])
    expect(download.suggestedFilename()).toBe('stakes.csv')
    const csv = (await downloadedText(download)).split('\r\n')
    const staked = await contracts.pool(pool.address, provider()).getStake(me, 0)
    const iso = (t: bigint) => new Date(Number(t) * 1000).toISOString()
    expect(csv[0]).toBe('id,created,release,amount,shares,status,rewards or earned')
    // Newest first, as the list shows them; amounts to the wei.
    expect(csv[1]).toMatch(/^1,.*,30\.0,[\d.]+,Pending,-?[\d.]+$/)
    expect(csv[2]).toMatch(
      new RegExp(
        `^0,${iso(staked.stakeTime)},${iso(staked.stakeTime + 86_400n)},12\\.000000000000000345,[\\d.]+,Pending,-?[\\d.]+$`,
      ),
    )
    expect(csv.slice(3)).toEqual([''])
    expect(errors).toEqual([])
  })

  it('shows the pool of the route id: /staking/0 is the version 2 pool (fixed rate, no APR badge)', async () => {
    const me = session.accounts()[0]
    const wallet = new TestWallet(chainUrl(), { account: me })
    const { page } = await session.open({ wallet, path: '/staking/0' })
    await connectWith(page, 'Browser wallet')
    await page.getByText('My total staked').waitFor()
    await page.getByTestId('pool-total-staked').waitFor()
    expect(await page.getByTestId('apr-badge').count()).toBe(0)
    await page.getByRole('button', { name: 'Deposit', exact: true }).click()
    await page.getByRole('dialog', { name: 'Create deposit (fixed rate)' }).waitFor()
    expect(await page.getByLabel('Referral').count()).toBe(0)
  })

  it('refuses a stake whose fee the owner raised after the preview, says what changed, and stakes once confirmed again', async () => {
    const me = session.accounts()[9]
    const owner = session.accounts()[0]
    await fund(me, 1_000n)
    const pool = record().pools.find((p) => p.id === record().defaultPoolId)!
    const read = contracts.pool(pool.address, provider())
    await sendAs(me, record().contracts.token, tokenInterface().encodeFunctionData('approve', [pool.address, 1_000n * E18]))
    const s = await read.getPoolState()
    const params = {
      inflationPercent: s.inflationPercent,
      refererBonusPercent: s.refererBonusPercent,
      timeBonusPercent: s.timeBonusPercent,
      unHoldFee: s.unHoldFee,
      holdTimeRefMin: s.holdTimeRefMin,
      holdTimeMax: s.holdTimeMax,
    }
    const setFee = (fee: bigint) =>
      sendAs(owner, pool.address, read.interface.encodeFunctionData('setParameters', [{ ...params, unHoldFee: fee }]))
    try {
      await setFee(10n * E18)
      const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
      await connectWith(page, 'Browser wallet')
      const modal = await depositDialog(page, '100', '365')
      await modal.getByText(/Closing earlier costs a fee of up to 10\.00% of the amount/).waitFor()
      // A bot runs the owner's change in front of the person's Confirm: the fee is 100% now.
      await setFee(100n * E18)
      await modal.getByRole('button', { name: 'Confirm' }).click()
      const alert = modal.getByRole('alert')
      await alert.waitFor()
      expect(await alert.textContent()).toMatch(/fee/i)
      // Nothing was staked, and the dialog names the change and shows the new figures.
      expect(await read.getUserStakesCount(me)).toBe(0n)
      await modal.getByTestId('terms-changed').waitFor()
      expect(await modal.getByTestId('terms-changed').textContent()).toBe(
        "The pool's terms changed since you saw them: early-close fee 10% → 100%. The figures below are the new ones; " +
          'confirm again to stake on them.',
      )
      expect(await modal.getByText(/Closing earlier costs a fee of up to/).textContent()).toContain('up to 100.00% of the amount')
      await modal.getByTestId('terms-changed').scrollIntoViewIfNeeded()
      await shot(page, 'desktop-deposit-terms-changed')
      // Confirmed again, on the figures now shown: the stake lands with the fee the person saw last.
      await modal.getByRole('button', { name: 'Confirm' }).click()
      await modal.waitFor({ state: 'detached' })
      const stake = await read.getStake(me, 0)
      expect([stake.stakeAmount, stake.unHoldFee]).toEqual([100n * E18, 100n * E18])
      expect(errors).toEqual([])
    } finally {
      await sendAs(owner, pool.address, read.interface.encodeFunctionData('setParameters', [params]))
    }
  })

  it('fits a 360 px phone screen with the seeded stakes', async () => {
    const me = session.accounts()[0]
    const wallet = new TestWallet(chainUrl(), { account: me })
    const { page } = await session.open({ wallet, device: PHONE, path: '/staking' })
    await connectWith(page, 'Browser wallet')
    await page.getByText('Closed', { exact: true }).first().waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await shot(page, 'phone-staking-page')
  })
})
