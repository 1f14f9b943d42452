import type { Download, Locator, Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import { formatAmount } from '../../src/format/units'
import { TestWallet } from '../../scripts/lib/testWallet'
import {
  browserSession,
  chainUrl,
  connectWith,
  depositMethod,
  downloadedText,
  PHONE,
  proxyFault,
  shot,
} from '../../scripts/lib/browser'
import { E18, freshAccount, fund, pool, provider, record, rpc, sendAs, token } from './localChain'

/**
 * The Activity section and the statistics block (docs/product.md §2.9, §2.10) against the stack's real index: the
 * API reads the chain into PGlite, the app reads the API through the stack's fault proxy.
 */
const session = browserSession()
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } }

afterEach(async () => {
  // The shared stack as it was: the API reachable, blocks mined on every transaction, nothing left in the mempool.
  await proxyFault('api', 'none')
  await rpc('evm_setAutomine', [true])
  await rpc('evm_mine')
})

interface Item {
  kind: string
  txHash: string
  amount: string | null
  amountOut: string | null
  fee: string | null
}

/** The holder's whole history as the API answers it, following `next`: the test's own reading. */
async function history(who: string): Promise<Item[]> {
  const items: Item[] = []
  for (let cursor: string | null = null; ;) {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    const page = (await (await fetch(`${process.env.E2E_API_URL}/activity/${who}?limit=200${q}`)).json()) as {
      items: Item[]
      next: string | null
    }
    items.push(...page.items)
    if (!page.next) return items
    cursor = page.next
  }
}

const section = (page: Page) => page.getByTestId('activity')
/** Scrolls `box` to the top of the screen, under the header, for a picture of it. */
const top = (box: Locator) =>
  box.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - (window.innerWidth > 720 ? 84 : 76)))
/** Scrolls to `box`: the Activity list and the statistics are read only once they come within 200 px of the screen. */
const reach = (box: Locator) => box.scrollIntoViewIfNeeded()
const rows = (page: Page) => section(page).getByTestId('activity-row')
/** An amount as the page shows it, two decimals rounded down. */
const plt = (wei: bigint) => formatAmount(wei, { symbol: 'PLT' })
/** The page's width fits the screen: nothing scrolls sideways. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)

describe('the Activity section on the local stack', () => {
  it("lists a seeded holder's stake and close: pending on top until the index has it, then with what the close cost", async () => {
    // Account #2 holds tokens and stakes from the seed; no other browser test stakes or closes for it.
    const me = session.accounts()[2]
    const p = contracts.pool(pool().address, provider())
    await sendAs(me, record().contracts.token, token().interface.encodeFunctionData('approve', [pool().address, 500n * E18]))
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }), path: '/staking' })
    await connectWith(page, 'Browser wallet')
    // The seeded history, as the index has it.
    const seeded = await history(me)
    expect(seeded.length).toBeGreaterThan(0)
    await reach(section(page))
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="activity-row"]').length === n, seeded.length)
    expect(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind')))).toEqual(
      seeded.map((i) => i.kind),
    )
    expect(await section(page).getByTestId('activity-empty').count()).toBe(0)

    // A stake sent and not yet mined: on top, marked pending.
    await page.getByRole('button', { name: 'Subscribe/Stake' }).click()
    const modal = page.getByRole('dialog', { name: 'Create deposit' })
    await modal.getByLabel('Amount (PLT)').fill('500')
    await modal.getByLabel('Days').fill('90')
    await depositMethod(modal, 'approve')
    await modal.getByRole('button', { name: 'Approved' }).waitFor()
    await rpc('evm_setAutomine', [false])
    await modal.getByRole('button', { name: 'Confirm' }).click()
    const pending = section(page).getByTestId('activity-pending')
    await pending.waitFor()
    expect(await pending.textContent()).toContain('StakePendingWaiting for its receipt')
    // After a reload the journal (localStorage) brings it back: still on top, still pending, the dialog gone.
    await page.reload()
    await pending.waitFor()
    await reach(section(page))
    expect(await pending.textContent()).toContain('StakePendingWaiting for its receipt')
    expect(await pending.getByRole('link').getAttribute('href')).toMatch(/\/explorer\/tx\/0x[0-9a-f]{64}$/)
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="activity-row"]').length === n, seeded.length)
    await top(section(page))
    await shot(page, 'desktop-activity-pending', { viewport: true })
    // Mined and indexed: it leaves the pending part and shows once, as the index lists it.
    await rpc('evm_mine')
    await rpc('evm_setAutomine', [true])
    await pending.waitFor({ state: 'detached', timeout: 15_000 })
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="activity-row"]').length === n, seeded.length + 1)
    const first = rows(page).first()
    expect(await first.getAttribute('data-kind')).toBe('stake')
    expect(await first.locator('td[data-label="Amount"]').textContent()).toBe('500.00 PLT')

    // Closed early from the stake list: the close is listed with what it cost (the fee less the reward earned).
    const id = Number(await p.getUserStakesCount(me)) - 1
    const before = await token().connect(provider()).balanceOf(me)
    await page
      .getByTestId(`stake-${id}`)
      .getByRole('button', { name: `Close stake #${id}` })
      .click()
    const summary = page.getByRole('dialog', { name: `Stake #${id}` })
    await summary.getByRole('button', { name: 'Close tranche' }).click()
    await summary.waitFor({ state: 'detached' })
    await page.waitForFunction(
      () => document.querySelector('[data-testid="activity-row"]')?.getAttribute('data-kind') === 'close',
      undefined,
      { timeout: 15_000 },
    )
    const received = (await token().connect(provider()).balanceOf(me)) - before
    const [indexed] = await history(me)
    expect([indexed.kind, BigInt(indexed.amountOut!) - BigInt(indexed.fee!)]).toEqual(['close', received])
    const close = rows(page).first()
    expect(await close.locator('td[data-label="Earned or cost"]').textContent()).toBe(`-${plt(500n * E18 - received)}`)
    expect(await close.locator('td').first().textContent()).toBe(
      `CloseStake #${id} in pool ${pool().id}: received ${plt(received)}, fee ${plt(BigInt(indexed.fee!))}`,
    )
    const link = close.getByRole('link', { name: new RegExp(`: transaction ${indexed.txHash} on Local explorer$`) })
    expect(await link.getAttribute('href')).toMatch(new RegExp(`/explorer/tx/${indexed.txHash}$`))
    // The notices gone (5 s after their receipts), so the picture shows the list.
    await page.locator('[data-status]').first().waitFor({ state: 'detached', timeout: 15_000 })
    await top(section(page))
    await shot(page, 'desktop-activity-staking', { viewport: true })

    // The claim page shows the same history, on a phone too, without sideways scrolling.
    await page.setViewportSize(PHONE_390.viewport)
    await page.getByRole('link', { name: 'Claim' }).first().click()
    await section(page).waitFor()
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="activity-row"]').length === n, seeded.length + 2)
    expect(await fitsWidth(page)).toBe(true)
    await top(section(page))
    await shot(page, 'phone390-activity-claim', { viewport: true })
    expect(errors).toEqual([])
  })

  it('pages a long history on request and on scroll, and exports all of it as CSV', async () => {
    // A holder with 110 stakes of 1 PLT: three pages of 50.
    const key = await freshAccount()
    const me = key.address
    await fund(session.accounts()[0], me, 110n, 110n * E18)
    const stake = contracts.pool(pool().address).interface.encodeFunctionData('stake(uint256,uint256)', [E18, 30n * 86_400n])
    for (let i = 0; i < 110; i++) await sendAs(me, pool().address, stake)
    // Read only, without a wallet: the any-address view (docs/product.md §2.8) has the section too.
    const { page, errors } = await session.open({ path: `/?account=${me.toLowerCase()}` })
    await reach(section(page))
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 50, undefined, {
      timeout: 20_000,
    })
    const more = section(page).getByRole('button', { name: 'Load more' })
    await more.click()
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length >= 100)
    // The end of the list scrolled into view loads the next page by itself.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 110)
    expect(await more.count()).toBe(0)

    // The CSV holds the whole history (every page), as the API lists it, with exact amounts.
    await page.evaluate(() => window.scrollTo(0, 0))
    const all = await history(me)
    expect(all).toHaveLength(110)
    const [file] = (await Promise.all([
      page.waitForEvent('download'),
      section(page).getByRole('button', { name: 'Export CSV' }).click(),
    ])) as [Download, void]
    expect(file.suggestedFilename()).toBe(`activity-${me.toLowerCase()}.csv`)
    const lines = (await downloadedText(file)).trimEnd().split('\r\n')
    expect(lines[0]).toBe('time,kind,amount,received,fee,earned or cost,forfeited,hold days,pool,stake id,block,transaction')
    expect(lines.slice(1).map((l) => l.split(',')[11])).toEqual(all.map((i) => i.txHash))
    expect(lines.slice(1).every((l) => /^[^,]+,stake,1\.0,,,,,30,0x[0-9a-fA-F]{40},\d+,\d+,0x[0-9a-f]{64}$/.test(l))).toBe(true)
    await section(page).getByText('Saved 110 events as CSV.').waitFor()
    expect(errors).toEqual([])
  })

  it('says by how many blocks the index is behind the chain, and that the API is down, never an empty list', async () => {
    const me = session.accounts()[2]
    const { page, context, errors } = await session.open({ path: `/staking?account=${me}` })
    // The index behind the chain by 40 blocks, as a node far ahead of it would leave it: its answers say so.
    await context.route(/\/activity\//, async (route) => {
      const res = await route.fetch()
      const body = await res.json()
      await route.fulfill({ response: res, json: { ...body, headBlock: body.indexedBlock + 40, lag: 40 } })
    })
    await page.reload()
    await reach(section(page))
    const behind = section(page).getByTestId('activity-behind')
    await behind.waitFor()
    expect(await behind.textContent()).toBe(
      'The activity index is 40 blocks behind the chainRecent transactions may be missing from the list; they show once it has caught up.',
    )
    expect(await rows(page).count()).toBeGreaterThan(0)
    await top(section(page))
    await shot(page, 'desktop-activity-behind', { viewport: true })
    await context.unroute(/\/activity\//)

    // The API down: the section and the statistics say so, with Retry; nothing claims there is no activity.
    await proxyFault('api', 'down')
    await page.reload()
    await reach(section(page))
    const down = section(page).getByTestId('activity-down')
    await down.waitFor()
    expect(await down.textContent()).toContain("Can't reach the activity service")
    await reach(page.getByTestId('statistics'))
    await page.getByTestId('statistics-down').waitFor()
    expect(await section(page).getByTestId('activity-empty').count()).toBe(0)
    expect(await rows(page).count()).toBe(0)
    await top(section(page))
    await shot(page, 'desktop-activity-api-down', { viewport: true })
    // Back: the list comes by itself (retries every 1-3 s in this build); the statistics on Retry.
    await proxyFault('api', 'none')
    await rows(page).first().waitFor({ timeout: 15_000 })
    expect(await down.count()).toBe(0)
    await page.getByTestId('statistics-down').getByRole('button', { name: 'Retry' }).click()
    await page.getByTestId('statistics-charts').waitFor()
    expect(errors).toEqual([])
  })
})

describe('the statistics block on the local stack', () => {
  it("charts the pool's total staked, stakers and fees over 7 days, 30 days and all time, with a table", async () => {
    for (const [name, device] of [
      ['desktop', undefined],
      ['phone390', PHONE_390],
    ] as const) {
      const { page, errors } = await session.open({ path: '/staking', device })
      const block = page.getByTestId('statistics')
      await block.scrollIntoViewIfNeeded()
      const charts = block.getByTestId('statistics-charts')
      await charts.locator('svg.recharts-surface').first().waitFor()
      expect(await charts.locator('svg.recharts-surface').count()).toBe(3)
      // The last day's total is the pool's on chain.
      const state = await contracts.pool(pool().address, provider()).getPoolState()
      const summary = block.getByTestId('statistics-summary')
      expect(await summary.textContent()).toContain(`Total staked${plt(state.totalStaked)}`)
      expect(await summary.textContent()).toContain('over the last 30 days')
      expect(await block.getByTestId('statistics-table').locator('tbody tr').count()).toBeGreaterThan(0)
      expect(await fitsWidth(page)).toBe(true)
      await top(block)
      await shot(page, `${name}-statistics-30d`, { viewport: true })
      for (const [label, words] of [
        ['7 days', 'over the last 7 days'],
        ['All time', "over the pool's life"],
      ]) {
        await block.getByRole('button', { name: label }).click()
        expect(await block.getByRole('button', { name: label }).getAttribute('aria-pressed')).toBe('true')
        await summary.getByText(words, { exact: false }).first().waitFor()
        expect(await summary.textContent()).toContain(`Total staked${plt(state.totalStaked)}`)
      }
      await charts.locator('svg.recharts-surface').first().waitFor()
      await top(block)
      await shot(page, `${name}-statistics-all`, { viewport: true })
      expect(errors).toEqual([])
    }
  })
})
