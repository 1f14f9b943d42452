/**
 * Adversarial browser checks on the local stack (docs/product.md sections 3, 8, 10, 11). A failing test here is a
 * finding about the app; each leaves the shared stack as it found it (automine on, faults off).
 */
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, depositDialog, notice, proxyFault, short } from '../../scripts/lib/browser'
import { E18, fund, rpc } from './localChain'

const session = browserSession()

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `me` gets `tokens` PLT from account #0 and, when `allowance` is given, approves the pool for it itself. */
const prepare = (me: string, tokens: bigint, allowance?: bigint) => fund(session.accounts()[0], me, tokens, allowance)

async function openStaking(me: string) {
  const wallet = new TestWallet(chainUrl(), { account: me })
  const opened = await session.open({ wallet, path: '/staking' })
  await connectWith(opened.page, 'Browser wallet')
  await opened.page.getByRole('button', { name: 'Create 1st deposit' }).waitFor()
  return { ...opened, wallet }
}

afterEach(async () => {
  await proxyFault('rpc', 'none')
  await proxyFault('api', 'none')
  await rpc('evm_setAutomine', [true])
  await rpc('evm_mine')
})

describe('adversary: writes', () => {
  it('reload mid-approval: the deposit dialog knows an approval is already pending and does not offer a second one', async () => {
    const me = session.accounts()[17]
    await prepare(me, 100n)
    const { page, errors, wallet } = await openStaking(me)
    await rpc('evm_setAutomine', [false])
    let modal = await depositDialog(page, '10')
    await modal.getByRole('button', { name: 'Approve', exact: true }).click()
    await notice(page, 'pending').filter({ hasText: 'Approve' }).waitFor()

    await page.reload()
    await notice(page, 'pending').filter({ hasText: 'Approve (sent before this page loaded)' }).waitFor()
    modal = await depositDialog(page, '10')
    await modal.getByTestId('approve-choice').waitFor()
    const approve = modal.getByRole('button', { name: /Approv/ })
    const sentBefore = wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    // The same approval is in the mempool: the dialog should say it is being approved, not ask for another one.
    const state = { enabled: await approve.isEnabled(), label: (await approve.textContent())?.trim() }
    if (state.enabled) {
      await approve.click()
      await sleep(1_500)
    }
    const sentAfter = wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    expect({ ...state, secondApprovalSent: sentAfter > sentBefore }).toEqual({
      enabled: false,
      label: expect.stringMatching(/Approving/),
      secondApprovalSent: false,
    })
    expect(errors).toEqual([])
  })

  it('localStorage full: a pending stake is still shown after a reload, or the page says it cannot be kept', async () => {
    const me = session.accounts()[19]
    await prepare(me, 500n, 500n * E18)
    const { page, errors } = await openStaking(me)
    // Another part of the site (or another app on the origin) has filled the origin's quota.
    const filled = await page.evaluate(() => {
      let size = 1024 * 1024
      let i = 0
      while (size >= 1) {
        try {
          window.localStorage.setItem(`filler-${i++}`, 'x'.repeat(size))
        } catch {
          size = Math.floor(size / 2)
        }
      }
      try {
        window.localStorage.setItem('probe', 'x'.repeat(64))
        return false
      } catch {
        return true
      }
    })
    expect(filled).toBe(true)
    await rpc('evm_setAutomine', [false])
    const modal = await depositDialog(page, '20')
    await modal.getByRole('button', { name: 'Approved' }).waitFor()
    await modal.getByRole('button', { name: 'Confirm' }).click()
    await notice(page, 'pending').filter({ hasText: 'Stake' }).waitFor()
    const warned = await page.getByTestId('tx-not-kept').count()

    await page.reload()
    await page.getByRole('button', { name: 'Create 1st deposit' }).waitFor()
    await sleep(2_000)
    const restored = await notice(page, 'pending').filter({ hasText: 'Stake (sent before this page loaded)' }).count()
    // Kept across the reload, or at least the person was told it would not be.
    expect({ restored: restored > 0 || warned > 0 }).toEqual({ restored: true })
    await page.evaluate(() => window.localStorage.clear())
    expect(errors).toEqual([])
  })
})

describe('adversary: outages', () => {
  it('chain down on the staking page: retries back off (one loop, 1-3 s apart here), not several loops at once', async () => {
    const me = session.accounts()[0]
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    // The connected read, not the public one before it: the wallet's total is in.
    await page.getByTestId('my-total-staked').getByText(/\d/).waitFor()
    await page.getByTestId('pool-as-of').waitFor()
    const rpcBase = process.env.E2E_APP_RPC_URL!
    const apiBase = process.env.E2E_APP_API_URL!
    const times: number[] = []
    const apiTimes: number[] = []
    page.on('request', (r) => {
      if (r.method() !== 'POST' && r.method() !== 'GET') return
      if (r.url().startsWith(rpcBase)) times.push(Date.now())
      if (r.url().startsWith(apiBase)) apiTimes.push(Date.now())
    })
    const start = Date.now()
    await proxyFault('rpc', 'down')
    await page.getByTestId('staking-outage').waitFor({ timeout: 15_000 })
    await sleep(15_000)
    await proxyFault('rpc', 'none')
    const gaps = times.slice(1).map((t, i) => t - times[i])
    // With RETRY_FIRST_MS 1 s and RETRY_MAX_MS 3 s, one backoff loop makes at most ~1 try a second, after the first
    // failure (the 4 s update). Report what happened.
    const summary = {
      rpcRequests: times.length,
      windowMs: Date.now() - start,
      shortGapsUnder500ms: gaps.filter((g) => g < 500).length,
      apiRequests: apiTimes.length,
    }
    expect({ ...summary, gaps }).toMatchObject({ shortGapsUnder500ms: 0 })
    expect(summary.rpcRequests).toBeLessThanOrEqual(20)
    expect(errors).toEqual([])
  })

  it('leaving the claim page during an API outage stops its retries (no timers left running on another page)', async () => {
    const me = session.accounts()[3]
    await proxyFault('api', 'down')
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }) })
    await connectWith(page, 'Browser wallet')
    await page.getByText(short(me)).waitFor()
    await page.getByTestId('claim-outage').waitFor()
    await page.getByRole('link', { name: 'Staking' }).first().click()
    await page.getByTestId('pool-as-of').waitFor()
    await sleep(2_000)
    const apiBase = process.env.E2E_APP_API_URL!
    let apiRequests = 0
    page.on('request', (r) => {
      // The claim page's vesting reads; the staking page's own Activity and statistics reads are its own.
      if (r.url().startsWith(`${apiBase}/vesting/`)) apiRequests++
    })
    await sleep(10_000)
    expect({ apiRequestsWhileOnStaking: apiRequests }).toEqual({ apiRequestsWhileOnStaking: 0 })
    expect(errors).toEqual([])
  })
})
