import fs from 'node:fs'
import type { Page } from 'playwright-core'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, connectWith, depositDialog, shot } from '../../scripts/lib/browser'
import { startE2EStack, type E2EStack } from '../../scripts/lib/stack'
import { applyProfile, type ProfileName } from '../../scripts/lib/networkProfiles'
import { pointAtWorkerStack, stackEnv } from './workerStack'
import { fund } from './localChain'

/**
 * The claim and staking flows under a public endpoint's conditions (issue 41), on a stack of their own: the profile
 * changes how the chain makes blocks, which the other files' stacks must not see. Each flow must end with its
 * "Transaction confirmed" notice, no failed, dropped or replaced one, no page error, and the figures of its receipt.
 * With E2E_FLOW_FIGURES set to a file, the time from each click to its notice and to its figures is appended there
 * (the closing note's flow table; a test run stays quiet).
 */
const session = browserSession()
let stack: E2EStack

// A stack of its own (a build, a node, the API) and flows at 3 s blocks: longer than the layer's 60 s a test.
jest.setTimeout(300_000)

beforeAll(async () => {
  stack = await startE2EStack({
    // The app's own timers (6 s RPC timeout, 15 s auto-update): the suite's short ones are for outages on one node.
    buildEnv: {},
    // What the endpoint allows, which the API keeps to.
    apiEnv: { API_RPC_CALLS_PER_SECOND: '10' },
  })
  Object.assign(process.env, stackEnv(stack))
}, 240_000)
afterAll(async () => {
  await stack?.stop()
  pointAtWorkerStack()
})

const profiled = () => ({
  chainUrl: stack.chainUrl,
  appRpcUrl: stack.rpc.url,
  walletRpcUrl: stack.walletRpc.url,
  apiRpcUrl: stack.apiRpc.url,
})

/** Times of one flow: from the click to its confirmed notice, and to the figures of its receipt on screen. */
function note(profile: ProfileName, flow: string, clickedAt: number, confirmedAt: number, shownAt: number) {
  const file = process.env.E2E_FLOW_FIGURES
  if (file)
    fs.appendFileSync(
      file,
      JSON.stringify({ profile, flow, confirmedS: (confirmedAt - clickedAt) / 1000, figuresS: (shownAt - clickedAt) / 1000 }) +
        '\n',
    )
}

/** Fails on any notice that is not a confirmation (a false "failed", "dropped" or "replaced"). */
async function noFalseNotice(page: Page) {
  expect(await page.locator('[data-status="failed"], [data-status="dropped"], [data-status="replaced"]').count()).toBe(0)
}

const textIs = (page: Page, id: string, text: string) =>
  page.waitForFunction(([i, t]) => document.querySelector(`[data-testid="${i}"]`)?.textContent === t, [id, text] as const, {
    timeout: 60_000,
  })

/** Whole cents of a figure such as "72,000.00 PLT". */
const cents = (text: string | null) => BigInt((text ?? '').replace(/[^\d]/g, ''))

async function claimFlow(profile: ProfileName, me: string) {
  const wallet = new TestWallet(stack.walletRpc.url, { account: me })
  const { page, errors } = await session.open({ wallet })
  await connectWith(page, 'Browser wallet')
  await page.getByText(/^Next claim: |^You have last claim of /).waitFor({ timeout: 60_000 })
  // The figures come with the API's answer, after the page's first lines.
  await page.waitForFunction(
    () => /^[1-9][\d,]*\.\d\d PLT$/.test(document.querySelector('[data-testid="vesting-available"]')?.textContent ?? ''),
    undefined,
    { timeout: 60_000 },
  )
  await page.getByRole('button', { name: 'Or claim directly to your wallet' }).and(page.locator(':enabled')).waitFor()
  const available = cents(await page.getByTestId('vesting-available').textContent())
  const claimedBefore = cents(await page.getByTestId('vesting-claimed').textContent())
  expect(available).toBeGreaterThan(0n)
  const clickedAt = Date.now()
  await page.getByRole('button', { name: 'Or claim directly to your wallet' }).click()
  await page.getByText('Transaction confirmed').waitFor({ timeout: 60_000 })
  const confirmedAt = Date.now()
  await textIs(page, 'vesting-available', '0.00 PLT')
  const claimed = cents(await page.getByTestId('vesting-claimed').textContent())
  note(profile, 'claim', clickedAt, confirmedAt, Date.now())
  expect(claimed).toBe(claimedBefore + available)
  // Three more blocks: the lagging backends keep answering, and the page stays where the claim put it.
  await page.waitForTimeout(9_000)
  expect(cents(await page.getByTestId('vesting-claimed').textContent())).toBe(claimed)
  expect(await page.getByTestId('vesting-available').textContent()).toBe('0.00 PLT')
  expect(await page.getByRole('button', { name: 'Or claim directly to your wallet' }).isDisabled()).toBe(true)
  await noFalseNotice(page)
  await shot(page, `desktop-claim-${profile}`)
  expect(errors).toEqual([])
}

async function stakeAndCloseFlow(profile: ProfileName, me: string) {
  await fund(session.accounts()[0], me, 1_000n)
  const wallet = new TestWallet(stack.walletRpc.url, { account: me })
  const { page, errors } = await session.open({ wallet, path: '/staking' })
  await connectWith(page, 'Browser wallet')
  await page.getByText('You do not have any deposits').waitFor({ timeout: 60_000 })
  const modal = await depositDialog(page, '250', '90')
  let clickedAt = Date.now()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await modal.getByRole('button', { name: 'Approved' }).waitFor({ timeout: 60_000 })
  note(profile, 'approve', clickedAt, Date.now(), Date.now())
  clickedAt = Date.now()
  await modal.getByRole('button', { name: 'Confirm' }).click()
  await modal.waitFor({ state: 'detached', timeout: 60_000 })
  await page.locator('[data-status="confirmed"]').filter({ hasText: 'Stake' }).first().waitFor({ timeout: 60_000 })
  let confirmedAt = Date.now()
  await page.getByTestId('stake-0').waitFor({ timeout: 60_000 })
  await textIs(page, 'my-total-staked', `${(250).toFixed(2)} PLT`)
  note(profile, 'stake', clickedAt, confirmedAt, Date.now())

  await page.getByTestId('stake-0').getByRole('button', { name: 'Close stake #0' }).click()
  const summary = page.getByRole('dialog', { name: 'Stake #0' })
  clickedAt = Date.now()
  await summary.getByRole('button', { name: 'Close tranche' }).click()
  await summary.waitFor({ state: 'detached', timeout: 60_000 })
  await page.locator('[data-status="confirmed"]').filter({ hasText: 'Close' }).first().waitFor({ timeout: 60_000 })
  confirmedAt = Date.now()
  await page.getByTestId('stake-0').getByText('Closed').waitFor({ timeout: 60_000 })
  await textIs(page, 'my-total-staked', '0.00 PLT')
  note(profile, 'close', clickedAt, confirmedAt, Date.now())
  await noFalseNotice(page)
  await shot(page, `desktop-staking-${profile}`)
  expect(errors).toEqual([])
}

const claimTitle = 'claims to the wallet: one click, the confirmed notice, then the claimed figures, never the old ones again'

describe('under the publicBsc profile (every client behind a public endpoint)', () => {
  beforeAll(() => applyProfile(profiled(), 'publicBsc'))
  afterAll(() => applyProfile(profiled(), 'plain'))
  // Accounts #0 and #1 hold vesting allocations on this stack's chain.
  it(claimTitle, () => claimFlow('publicBsc', session.accounts()[0]))
  it('approves, stakes at once, and closes: each shows its receipt without waiting for the next update', () =>
    stakeAndCloseFlow('publicBsc', session.accounts()[6]))
})

// Behind the API, the wallet's node matters for what the service signs at its block: claims.
describe('under the walletBehind profile (the app and the wallet 2 blocks behind the API)', () => {
  beforeAll(() => applyProfile(profiled(), 'walletBehind'))
  afterAll(() => applyProfile(profiled(), 'plain'))
  it(claimTitle, () => claimFlow('walletBehind', session.accounts()[1]))
})
