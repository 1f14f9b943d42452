import { TestWallet } from '../../scripts/lib/testWallet'
import { appStarted, browserSession, chainUrl, depositDialog, notice, PHONE, shot, short } from '../../scripts/lib/browser'
import { contracts } from '../../src/chain/contracts'
import { E18, freshAccount, fund, pool, provider, record } from './localChain'

const session = browserSession()

/** Two extensions' icons, as they announce them (EIP-6963: an image data URI). */
const svg = (fill: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${fill}"/></svg>`,
  ).toString('base64')}`
const ALPHA = { rdns: 'com.example.alpha', name: 'Alpha Wallet', icon: svg('#e8833a') }
const BETA = { rdns: 'com.example.beta', name: 'Beta Wallet', icon: svg('#3a7be8') }

describe('every installed wallet (EIP-6963), and Sign and stake, in the browser on the local chain', () => {
  it('lists both announced wallets; the chosen one connects, signs and sends, and again after a reload', async () => {
    const [alphaKey, betaKey] = [await freshAccount(), await freshAccount()]
    await fund(session.accounts()[0], betaKey.address, 50n)
    const alpha = new TestWallet(chainUrl(), { account: alphaKey.address, signer: alphaKey })
    const beta = new TestWallet(chainUrl(), { account: betaKey.address, signer: betaKey })
    // Alpha also holds window.ethereum, as the extension that won the race would.
    const { page, context, errors } = await session.open({
      path: '/staking',
      wallets: [
        { wallet: alpha, install: { ethereum: true, announce: ALPHA } },
        { wallet: beta, install: { announce: BETA } },
      ],
    })
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Choose Wallet' })
    const option = (name: string) => dialog.locator('label').filter({ hasText: name })
    await option('Beta Wallet').waitFor()
    expect(await option('Alpha Wallet').locator('img').getAttribute('src')).toBe(ALPHA.icon)
    expect(await option('Beta Wallet').locator('img').getAttribute('src')).toBe(BETA.icon)
    expect(await option('Beta Wallet').textContent()).toContain('Installed in this browser (com.example.beta)')
    // The spec's options stay beside them.
    for (const spec of ['Browser wallet', 'Mobile wallet', 'WalletConnect', 'Development account'])
      expect(await dialog.getByText(spec, { exact: true }).count()).toBe(1)
    await shot(page, 'desktop-choose-wallet-announced', { viewport: true })
    await dialog.getByText('Beta Wallet', { exact: true }).click()
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: new RegExp(short(betaKey.address)) }).waitFor()
    expect((await context.cookies()).find((c) => c.name === 'walletName')?.value).toBe('com.example.beta')

    // Sign and stake, through Beta: one typed-data signature, one transaction, no allowance left.
    const modal = await depositDialog(page, '20', '30', 'permit')
    expect(await modal.getByRole('radio', { name: /^Sign and stake/ }).isChecked()).toBe(true)
    expect(await modal.getByTestId('fee-line').textContent()).toBe(
      'Network fee: shown once you sign. Signing sends nothing and costs nothing.',
    )
    await shot(page, 'desktop-deposit-sign-and-stake', { viewport: true })
    await modal.getByRole('button', { name: 'Sign' }).click()
    await modal.getByRole('button', { name: 'Signed' }).waitFor()
    await modal
      .getByTestId('fee-line')
      .filter({ hasText: /^Network fee: about 0\.\d{6} ETH$/ })
      .waitFor()
    await shot(page, 'desktop-deposit-signed', { viewport: true })
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await modal.waitFor({ state: 'detached' })
    await notice(page, 'confirmed').filter({ hasText: 'Stake' }).waitFor()
    const methods = beta.requests.map((r) => r.method)
    expect(methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(1)
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1)
    const token = contracts.token(record().contracts.token, provider())
    expect(await token.allowance(betaKey.address, pool().address)).toBe(0n)
    const stake = await contracts.pool(pool().address, provider()).getStake(betaKey.address, 0)
    expect(stake.stakeAmount).toBe(20n * E18)

    // A reload reconnects Beta (its rdns in the cookie), never Alpha, though Alpha is window.ethereum.
    await page.reload()
    await appStarted(page)
    await page.getByRole('button', { name: new RegExp(short(betaKey.address)) }).waitFor()
    expect(alpha.requests).toEqual([])
    expect(errors).toEqual([])
  })

  it('fits the announced wallets and the deposit method on a phone', async () => {
    const key = await freshAccount()
    await fund(session.accounts()[0], key.address, 5n)
    const wallet = new TestWallet(chainUrl(), { account: key.address, signer: key })
    const other = new TestWallet(chainUrl(), { account: key.address })
    const { page, errors } = await session.open({
      path: '/staking',
      device: PHONE,
      wallets: [
        { wallet: other, install: { announce: ALPHA } },
        { wallet, install: { announce: BETA } },
      ],
    })
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Choose Wallet' })
    await dialog.getByText('Beta Wallet', { exact: true }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width)
    await shot(page, 'phone-choose-wallet-announced', { viewport: true })
    await dialog.getByText('Beta Wallet', { exact: true }).click()
    await dialog.getByRole('button', { name: 'Continue' }).click()
    const modal = await depositDialog(page, '5', '30', 'permit')
    await modal.getByTestId('deposit-method').scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width)
    await shot(page, 'phone-deposit-sign-and-stake', { viewport: true })
    expect(errors).toEqual([])
  })
})
