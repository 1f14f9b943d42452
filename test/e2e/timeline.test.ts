import type { Download, Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import type { VestingAnswer } from '../../src/domain/vestingAnswer'
import { formatDate } from '../../src/format/dates'
import { formatAmount } from '../../src/format/units'
import { TestWallet } from '../../scripts/lib/testWallet'
import { browserSession, chainUrl, connectWith, downloadedText, PHONE, short, shot } from '../../scripts/lib/browser'
import { pool, provider } from './localChain'

const session = browserSession()

/** A 390 px phone (the page must stay usable at this width, issue #23). */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } }

/** What the API answers right now for `who`: the test's own view of the schedule. */
async function vestingOf(who: string): Promise<VestingAnswer> {
  return (await fetch(`${process.env.E2E_API_URL}/vesting/address/${who}`)).json() as Promise<VestingAnswer>
}

/** The unfolded lines of an .ics file (RFC 5545 folds long lines with CRLF and a space). */
const icsLines = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n')

/** DTSTART's form for a moment in UTC: 20261207T100000Z. */
const icsUtc = (seconds: number) =>
  new Date(seconds * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/** Clicks `button` and returns the lines of the file it downloads, with the file's name. */
async function download(page: Page, button: ReturnType<Page['getByRole']>) {
  const [file] = (await Promise.all([page.waitForEvent('download'), button.click()])) as [Download, void]
  return { name: file.suggestedFilename(), lines: icsLines(await downloadedText(file)) }
}

/** Opens the claim page as `me` (a Browser wallet) on `device`, with console errors collected (a CSP refusal is one). */
async function claimPageOf(me: string, device?: typeof PHONE_390) {
  const wallet = new TestWallet(chainUrl(), { account: me })
  const { page, errors } = await session.open({ wallet, ...(device ? { device } : {}) })
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await connectWith(page, 'Browser wallet')
  await page.getByText(short(me)).waitFor()
  await page.getByRole('table', { name: /Every unlock/ }).waitFor()
  return { page, errors }
}

describe('the unlock timeline and calendar files on the local stack', () => {
  it("shows the API's schedule in the table and a point for each unlock in the chart", async () => {
    // Account #3: a Public allocation of 50,000 PLT that no other test claims from.
    const me = session.accounts()[3]
    const { page, errors } = await claimPageOf(me)
    const answer = await vestingOf(me)
    expect(answer.schedule.length).toBeGreaterThan(2)
    let cumulative = 0n
    const expected = answer.schedule.map((s) => {
      cumulative += BigInt(s.amount)
      return [formatDate(s.date), formatAmount(s.amount), formatAmount(cumulative)]
    })
    expect(cumulative).toBe(BigInt(answer.total))
    const table = page.getByRole('table', { name: /Every unlock/ })
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].slice(0, 3).map((c) => c.textContent)))
    expect(rows).toEqual(expected)
    // The split names what the API says was claimed, and, on the chain's clock as the API is, what it says is unlocked.
    expect(await page.getByTestId('timeline-claimed').textContent()).toBe(formatAmount(answer.claimed, { symbol: 'PLT' }))
    expect(await page.getByTestId('timeline-claimable').textContent()).toBe(
      await page.getByTestId('vesting-available').textContent(),
    )

    // The chart (its own chunk, after the table) has a point per unlock; hovering one shows its date and amount.
    const chart = page.getByRole('group', { name: /Chart of the unlocks/ })
    const points = chart.locator('g[data-step]')
    await page.getByTestId('unlock-timeline').scrollIntoViewIfNeeded()
    await points.first().waitFor()
    expect(await points.count()).toBe(answer.schedule.length)
    await points.nth(0).hover()
    await chart.getByText(`${formatAmount(answer.schedule[0].amount)} PLT unlock`).waitFor()
    // And from the keyboard: one tab stop at the next unlock, then the arrow keys.
    await points.nth(0).focus()
    await page.keyboard.press('ArrowRight')
    await chart.getByText(`${formatAmount(answer.schedule[1].amount)} PLT unlock`).waitFor()
    // The whole page with the tip of that second point open.
    await page.evaluate(() => window.scrollTo(0, 0))
    await shot(page, 'desktop-claim-timeline')
    expect(errors).toEqual([])
  })

  it('fits a 390 px phone, chart and table included', async () => {
    const me = session.accounts()[3]
    const { page, errors } = await claimPageOf(me, PHONE_390)
    // Below the fold on a phone, the chart's chunk (recharts) is not fetched until its place nears the screen.
    const chartChunkFetched = () =>
      page.evaluate(() => performance.getEntriesByType('resource').some((r) => /\/timeline\.[^/]*js$/.test(r.name)))
    await page.getByLabel('Loading the chart').waitFor()
    await page.waitForTimeout(1000)
    expect(await chartChunkFetched()).toBe(false)
    expect(await page.locator('g[data-step]').count()).toBe(0)
    await page.getByLabel('Loading the chart').scrollIntoViewIfNeeded()
    await page.locator('g[data-step]').first().waitFor()
    expect(await chartChunkFetched()).toBe(true)
    await page.evaluate(() => window.scrollTo(0, 0))
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    // The table's four columns fit without scrolling sideways (the status is its swatch on a phone).
    const table = page.getByRole('table', { name: /Every unlock/ })
    expect(await table.evaluate((t) => t.scrollWidth - t.parentElement!.clientWidth)).toBeLessThanOrEqual(0)
    await shot(page, 'phone-claim-timeline')
    // What a person sees of it at once, the bottom navigation where it stays.
    await page.getByTestId('unlock-timeline').scrollIntoViewIfNeeded()
    await shot(page, 'phone-claim-timeline-view', { viewport: true })
    expect(errors).toEqual([])
  })

  it('saves the next unlock as an .ics: one event at its moment in UTC, naming the amount and the token', async () => {
    const me = session.accounts()[3]
    const { page, errors } = await claimPageOf(me)
    const { next } = await vestingOf(me)
    expect(next).not.toBeNull()
    const amount = formatAmount(next!.amount, { symbol: 'PLT' })
    const button = page.getByRole('button', { name: `Add to calendar: unlock of ${amount} on ${formatDate(next!.date)}` })
    const file = await download(page, button)
    expect(file.name).toBe(`unlock-${next!.date.slice(0, 10)}.ics`)
    expect(file.lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1)
    expect(file.lines).toContain(`DTSTART:${icsUtc(Date.parse(next!.date) / 1000)}`)
    // iCalendar escapes the thousands commas.
    expect(file.lines).toContain(`SUMMARY:Unlock of ${amount.replace(/,/g, '\\,')}`)
    expect(errors).toEqual([])
  })

  it("saves a pending stake's release from its row of the stake list", async () => {
    // The Development account (#0): the seed gives it pending stakes in the default pool.
    const me = session.accounts()[0]
    const { page, errors } = await session.open({ path: '/staking' })
    await connectWith(page, 'Development account')
    await page.getByText(short(me)).waitFor()
    const stakes = await contracts.pool(pool().address, provider()).getAllUserStakes(me)
    const now = (await provider().getBlock('latest'))!.timestamp
    const id = stakes.findIndex((s) => s.active && Number(s.stakeTime + s.holdTime) > now + 86_400)
    expect(id).toBeGreaterThanOrEqual(0)
    const stake = stakes[id]
    const row = page.getByTestId(`stake-${id}`)
    const file = await download(page, row.getByRole('button', { name: `Add to calendar: release of stake #${id}` }))
    expect(file.name).toBe(`stake-${id}-release.ics`)
    expect(file.lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1)
    expect(file.lines).toContain(`DTSTART:${icsUtc(Number(stake.stakeTime + stake.holdTime))}`)
    const amount = formatAmount(stake.stakeAmount, { symbol: 'PLT' }).replace(/,/g, '\\,')
    expect(file.lines).toContain(`SUMMARY:Stake release: ${amount} (stake #${id})`)
    expect(errors).toEqual([])
  })
})
