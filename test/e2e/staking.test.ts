import fs from 'node:fs'
import path from 'node:path'
import { JsonRpcProvider } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import type { DeploymentRecord } from '../../src/chain/deploymentRecord'
import { TestWallet } from '../support/testWallet'
import { browserSession, chainUrl, connectWith, PHONE, shot } from './browser'

const session = browserSession()
const E18 = 10n ** 18n

const record = (): DeploymentRecord =>
  JSON.parse(fs.readFileSync(path.join(process.env.E2E_DEPLOYMENTS_DIR!, '31337.json'), 'utf8'))
const provider = () => new JsonRpcProvider(chainUrl(), 31337, { staticNetwork: true, cacheTimeout: -1 })

/** Sends `tokens` PLT from Hardhat account #0 (the node signs) so a fresh account can stake. */
async function fund(to: string, tokens: bigint) {
  const token = contracts.token(record().contracts.token, provider())
  const data = token.interface.encodeFunctionData('transfer', [to, tokens * E18])
  const hash = await provider().send('eth_sendTransaction', [{ from: session.accounts()[0], to: record().contracts.token, data }])
  await provider().waitForTransaction(hash)
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

    await page.getByRole('button', { name: 'Create 1st deposit' }).click()
    const modal = page.getByRole('dialog', { name: 'Create deposit' })
    await modal.getByLabel('Amount (PLT)').fill('250')
    await modal.getByLabel('Days').fill('90')
    expect(await modal.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true)
    await modal.getByRole('button', { name: 'Approve' }).click()
    await modal.getByRole('button', { name: 'Approved' }).waitFor()
    await shot(page, 'desktop-deposit-modal')
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await modal.waitFor({ state: 'detached' })
    await page.getByText('Transaction confirmed').first().waitFor()

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
    await shot(page, 'desktop-stake-summary')
    const before = await contracts.token(record().contracts.token, provider()).balanceOf(me)
    await summary.getByRole('button', { name: 'Close tranche' }).click()
    await summary.waitFor({ state: 'detached' })
    await page.getByTestId('stake-0').getByText('Closed').waitFor()
    expect((await pool.getStake(me, 0)).active).toBe(false)
    const received = (await contracts.token(record().contracts.token, provider()).balanceOf(me)) - before
    // The summary showed what closing paid at the block it read; the close block adds at most a little inflation.
    expect(Number(received / 10n ** 16n) / 100).toBeGreaterThanOrEqual(Number(total!.replace(/[^\d.]/g, '')))
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
