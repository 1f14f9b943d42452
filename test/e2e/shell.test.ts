import { TestWallet } from '../../scripts/lib/testWallet'
import { appUrl, browserSession, chainUrl, connectWith, PHONE, short, shot } from '../../scripts/lib/browser'

const session = browserSession()
const open = session.open
let accounts: string[]
beforeAll(() => {
  accounts = session.accounts()
})

describe('app shell in a real browser', () => {
  it('connects the development account and shows the shortened address and network', async () => {
    const { page, errors } = await open()
    await page.getByText('Connect the wallet to continue working').waitFor()
    await shot(page, 'desktop-connect-prompt')
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Choose Wallet' })
    await dialog.waitFor()
    expect(await dialog.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true)
    await dialog.getByText('Development account', { exact: true }).click()
    await shot(page, 'desktop-choose-wallet')
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await page.getByText(short(accounts[0])).waitFor()
    await page.getByText('Localhost', { exact: true }).waitFor()
    await page.getByRole('heading', { name: 'Claim your allocation' }).waitFor()
    expect(await dialog.count()).toBe(0)
    await shot(page, 'desktop-connected-claim')
    // The dialog offers Disconnect for the connected wallet.
    await page.getByRole('button', { name: /Wallet 0xf3/ }).click()
    await page.getByRole('dialog', { name: 'Choose Wallet' }).getByRole('button', { name: 'Disconnect' }).waitFor()
    await page.keyboard.press('Escape')
    expect(await page.getByRole('dialog').count()).toBe(0)
    await page.getByRole('link', { name: 'Staking' }).first().click()
    await page.getByRole('heading', { name: 'Staking & Subscription' }).waitFor()
    expect(await page.getByRole('link', { name: 'Staking' }).first().getAttribute('aria-current')).toBe('page')
    await shot(page, 'desktop-staking-route')
    expect(errors).toEqual([])
  })

  it('reconnects an injected wallet after a reload, follows an account change, and disconnects', async () => {
    const wallet = new TestWallet(chainUrl(), { account: accounts[1] })
    const { page, context } = await open({ wallet })
    await connectWith(page, 'Browser wallet')
    await page.getByText(short(accounts[1])).waitFor()
    expect((await context.cookies()).find((c) => c.name === 'walletName')?.value).toBe('browser')

    await page.reload()
    await page.getByText(short(accounts[1])).waitFor()

    wallet.switchAccount(accounts[2])
    await page.getByText(short(accounts[2])).waitFor()

    await page.getByRole('button', { name: /Wallet 0x/ }).click()
    await page.getByRole('dialog', { name: 'Choose Wallet' }).getByRole('button', { name: 'Disconnect' }).click()
    await page.getByText('Connect the wallet to continue working').waitFor()
    expect((await context.cookies()).find((c) => c.name === 'walletName')).toBeUndefined()
  })

  it('shows the unsupported-network list and switches, adding the chain the wallet does not know', async () => {
    const wallet = new TestWallet(chainUrl(), { account: accounts[0], chainId: 1, knownChains: [1] })
    const { page } = await open({ wallet })
    await connectWith(page, 'Browser wallet')
    await page.getByText('This network is not supported. Please change your network to one of the networks below:').waitFor()
    await page.getByText('Ethereum', { exact: true }).waitFor()
    await shot(page, 'desktop-unsupported-network')
    await page.getByRole('button', { name: 'Localhost' }).click()
    await page.getByRole('heading', { name: 'Claim your allocation' }).waitFor()
    expect(wallet.chainId).toBe(31337)
    expect(wallet.added).toEqual([
      expect.objectContaining({ chainId: '0x7a69', chainName: 'Localhost', rpcUrls: [process.env.E2E_APP_RPC_URL] }),
    ])
  })

  it('keeps the dialog usable when the connection is rejected in the wallet', async () => {
    const wallet = new TestWallet(chainUrl(), { account: accounts[0] })
    const { page } = await open({ wallet })
    wallet.rejectNext('eth_requestAccounts')
    await connectWith(page, 'Browser wallet')
    const dialog = page.getByRole('dialog', { name: 'Choose Wallet' })
    await dialog.getByRole('alert').getByText('You rejected the connection in your wallet.').waitFor()
    expect(await dialog.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await page.getByText(short(accounts[0])).waitFor()
  })

  it('stores a valid ref query parameter in the ref cookie, and nothing else', async () => {
    const { context, page } = await open({ path: `/staking?ref=${accounts[5].toLowerCase()}` })
    await page.getByText('Connect the wallet to continue working').waitFor()
    expect((await context.cookies()).find((c) => c.name === 'ref')?.value).toBe(accounts[5])
    const other = await open({ path: '/?ref=0xnot-an-address' })
    await other.page.getByText('Connect the wallet to continue working').waitFor()
    expect((await other.context.cookies()).find((c) => c.name === 'ref')).toBeUndefined()
  })

  it('traps focus inside a dialog and closes it with Escape', async () => {
    const { page } = await open()
    const opener = page.getByRole('button', { name: 'Connect Wallet' }).first()
    await opener.click()
    await page.getByRole('dialog', { name: 'Choose Wallet' }).waitFor()
    const insideDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      expect(await insideDialog()).toBe(true)
    }
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Shift+Tab')
      expect(await insideDialog()).toBe(true)
    }
    await page.keyboard.press('Escape')
    expect(await page.getByRole('dialog').count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Connect Wallet')
  })

  it('works at 360 px on a phone: bottom navigation, deep link to the wallet app without an injected wallet', async () => {
    const { page } = await open({ device: PHONE })
    await page.getByText('Connect the wallet to continue working').waitFor()
    expect(await page.getByRole('navigation', { name: 'Mobile' }).isVisible()).toBe(true)
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await shot(page, 'phone-connect-prompt')
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click()
    const link = page.getByRole('link', { name: 'Open in the MetaMask app' }).first()
    expect(await link.getAttribute('href')).toBe(`https://metamask.app.link/dapp/${appUrl('/').replace('http://', '')}`)
    await shot(page, 'phone-choose-wallet')
    await page.getByText('Development account', { exact: true }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByText(short(accounts[0])).waitFor()
    await shot(page, 'phone-connected')
  })
})
