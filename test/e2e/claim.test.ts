import type { Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, PHONE, short, shot } from '../../scripts/lib/browser'
import { record, provider } from './localChain'

const session = browserSession()

const balanceOf = (who: string) => contracts.token(record().contracts.token, provider()).balanceOf(who)

/** What the API says right now for `who` (the test's independent view of the figures). */
async function vestingOf(who: string): Promise<{ unlocked: string; claimed: string }> {
  return (await fetch(`${process.env.E2E_API_URL}/vesting/address/${who}`)).json()
}

const figure = (page: Page, id: string) => page.getByTestId(id).textContent()
const stakeButton = (page: Page) => page.getByRole('button', { name: 'Claim tokens and stake with up to 400% APR' })
const walletLink = (page: Page) => page.getByRole('button', { name: 'Or claim directly to your wallet' })

/** Waits until the figure shows `text`. */
const figureIs = (page: Page, id: string, text: string) =>
  page.waitForFunction(([i, t]) => document.querySelector(`[data-testid="${i}"]`)?.textContent === t, [id, text] as const)

describe('claim page on the local stack', () => {
  it('claims to the wallet with the Development account: the balance goes up by exactly the unlocked amount', async () => {
    const [me] = session.accounts()
    const { page, errors } = await session.open()
    await connectWith(page, 'Development account')
    await page.getByText(short(me)).waitFor()
    const { unlocked } = await vestingOf(me)
    expect(BigInt(unlocked)).toBeGreaterThan(0n)
    await page.getByText(/^Next claim: |^You have last claim of /).waitFor()
    const shown = await figure(page, 'vesting-available')
    expect(shown).toMatch(/^[\d,]+\.\d\d PLT$/)
    await shot(page, 'desktop-claim-page')
    const before = await balanceOf(me)

    await walletLink(page).click()
    await page.getByText('Transaction confirmed').waitFor()
    await figureIs(page, 'vesting-available', '0.00 PLT')
    await figureIs(page, 'vesting-claimed', shown!)
    expect(await balanceOf(me)).toBe(before + BigInt(unlocked))
    expect(await stakeButton(page).isDisabled()).toBe(true)
    await page.getByText('Nothing is unlocked for claim right now.').waitFor()
    await shot(page, 'desktop-claim-done')
    expect(errors).toEqual([])
  })

  it('survives a rejected signature, then claims into a stake with the default (second) term', async () => {
    const me = session.accounts()[1]
    const wallet = new TestWallet(chainUrl(), { account: me })
    const { page, errors } = await session.open({ wallet })
    await connectWith(page, 'Browser wallet')
    await page.getByText(short(me)).waitFor()
    await page.getByText(/^Next claim: |^You have last claim of /).waitFor()
    const { unlocked } = await vestingOf(me)

    // Rejected in the wallet: a short notice, no spinner left behind, the claim still possible.
    wallet.rejectNext('eth_sendTransaction')
    await walletLink(page).click()
    await page.getByText('You rejected the transaction in your wallet.').waitFor()
    expect(await page.getByRole('status', { name: 'Claiming' }).count()).toBe(0)
    expect(await walletLink(page).isEnabled()).toBe(true)
    expect(await stakeButton(page).isEnabled()).toBe(true)

    await stakeButton(page).click()
    await page.getByRole('dialog', { name: 'Before you stake' }).getByRole('button', { name: 'I want to stake' }).click()
    const chooser = page.getByRole('dialog', { name: 'Choose a staking term' })
    const radios = chooser.getByRole('radio')
    expect(await radios.count()).toBeGreaterThanOrEqual(2)
    expect(await radios.nth(1).isChecked()).toBe(true)
    await shot(page, 'desktop-claim-terms')
    const pool = contracts.pool(record().pools.find((p) => p.id === record().defaultPoolId)!.address, provider())
    const terms = await pool.getAllHarvestBonusTimeData()
    const stakesBefore = await pool.getAllUserStakes(me)

    await chooser.getByRole('button', { name: 'Claim and stake' }).click()
    await page.getByText('Transaction confirmed').waitFor()
    await chooser.waitFor({ state: 'detached' })
    await figureIs(page, 'vesting-available', '0.00 PLT')
    const stakes = await pool.getAllUserStakes(me)
    expect(stakes).toHaveLength(stakesBefore.length + 1)
    const stake = stakes[stakes.length - 1]
    expect([stake.stakeAmount, stake.holdTime, stake.active]).toEqual([BigInt(unlocked), terms[1].hold, true])
    // The term's bonus, and in this version 1 pool the inflation over the term's hold, funded up front.
    const { inflationPercent } = await pool.getPoolState()
    const fraction = (percent: bigint) => (BigInt(unlocked) * (percent / 100n)) / 10n ** 18n
    expect(stake.bonus).toBe(fraction(terms[1].bonus))
    expect(stake.reward).toBe(fraction((inflationPercent * terms[1].hold) / (365n * 86_400n)))
    expect(errors).toEqual([])
  })

  it('fits a 360 px phone screen', async () => {
    const me = session.accounts()[2]
    const wallet = new TestWallet(chainUrl(), { account: me })
    const { page } = await session.open({ wallet, device: PHONE })
    await connectWith(page, 'Browser wallet')
    await page.getByText(/^Next claim: |^You have last claim of /).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await shot(page, 'phone-claim-page')
  })
})
