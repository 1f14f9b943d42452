/**
 * `npm run bench:rpc`: what the staking page costs the node and the browser, by how many stakes the user has. Starts
 * the browser-test stack (node, deploy, API, a production build with the app's own timers) with a counting JSON-RPC
 * proxy between the app and the node and render counters compiled in (RENDER_COUNTS=1). For each case of
 * BENCH_SIZES (comma-separated; default `20,2000,20000,2000-active`) it gives a fresh address its stakes, opens
 * /staking in headless chromium with that address connected, and measures:
 *
 * - first rows: ms from navigation start (performance.timeOrigin) to the first stake row painted (the frame after
 *   the row entered the DOM), read in the page with performance.now();
 * - the page load (a reload, wallet connected): HTTP round trips and bytes (requests + answers) through the proxy,
 *   and main-thread busy time (CDP Performance.getMetrics TaskDuration over the load, and long tasks in the page);
 * - the next 15 s auto-update with nothing changed on chain: round trips, bytes, StakeList/StakeRow renders;
 * - the auto-update after the user made one more stake: round trips and bytes.
 *
 * Cases: `20` is account #7 with 20 active stakes of different sizes and terms; `2000` and `20000` are a realistic
 * heavy staker (most stakes closed 200 days ago, a few hundred closed in the last 180 days, 40 active);
 * `2000-active` is 2,000 active stakes, the worst case for paging. Heavy stakers are made with HeavyStaker
 * (scripts/lib/heavyStakes.ts); the time to make them is printed. Targets (issue #14): first rows within 1.5 s at
 * any size, an unchanged refresh under 50 KB.
 */
import fs from 'node:fs'
import path from 'node:path'
import { JsonRpcProvider } from 'ethers'
import type { CDPSession, Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { lists } from '../../src/config/timers'
import { DAY, ONE } from '../../src/domain/math'
import { installWallet, connectWith, launchBrowser } from '../lib/browser'
import { startE2EStack } from '../lib/stack'
import { giveHeavyStakes, mixTotal, type StakeMix } from '../lib/heavyStakes'
import { TestWallet } from '../lib/testWallet'

/** A read is over when the proxy has seen nothing for this long. */
const QUIET_MS = 2_000

const CASES: Record<string, { label: string; mix: StakeMix | null }> = {
  '20': { label: '20 (all active)', mix: null },
  '2000': { label: '2,000 mixed', mix: { oldClosed: 1_700, recentClosed: 260, active: 40 } },
  '20000': { label: '20,000 mixed', mix: { oldClosed: 19_600, recentClosed: 360, active: 40 } },
  '2000-active': { label: '2,000 active', mix: { oldClosed: 0, recentClosed: 0, active: 2_000 } },
}
const SIZES = (process.env.BENCH_SIZES ?? '20,2000,20000,2000-active')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '')

type Proxy = Awaited<ReturnType<typeof startE2EStack>>['rpc']
type Counts = Proxy['counts']

/** Account #7 (no demo stakes) gets tokens from #0 and makes `n` stakes of different sizes and terms. */
async function giveStakes(chainUrl: string, record: DeploymentRecord, n: number) {
  const started = Date.now()
  const provider = new JsonRpcProvider(chainUrl, 31337, { staticNetwork: true, cacheTimeout: -1 })
  const accounts: string[] = await provider.send('eth_accounts', [])
  const [funder, me] = [await provider.getSigner(accounts[0]), await provider.getSigner(accounts[7])]
  const pool = record.pools.find((p) => p.id === record.defaultPoolId)!
  const amounts = Array.from({ length: n }, (_, i) => BigInt(100 + 37 * i) * ONE)
  const total = amounts.reduce((a, b) => a + b, 0n)
  await (await contracts.token(record.contracts.token, funder).transfer(accounts[7], total + 1_000n * ONE)).wait()
  await (await contracts.token(record.contracts.token, me).approve(pool.address, total + 1_000n * ONE)).wait()
  const staking = contracts.pool(pool.address, me)
  const stake = async (amount: bigint, days: bigint) =>
    void (await (await staking['stake(uint256,uint256)'](amount, days * DAY)).wait())
  for (const [i, amount] of amounts.entries()) await stake(amount, BigInt(30 + 30 * i))
  return {
    address: accounts[7],
    ms: Date.now() - started,
    stakeMore: () => stake(100n * ONE, 30n),
    destroy: () => provider.destroy(),
  }
}

const snapshot = (c: Counts): Counts => ({ ...c, byMethod: { ...c.byMethod } })

/** Waits until the proxy has seen at least `atLeast` round trips and then nothing for QUIET_MS. */
async function untilQuiet(proxy: Proxy, atLeast: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  let seen = proxy.counts.roundTrips
  let since = Date.now()
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    if (proxy.counts.roundTrips !== seen) [seen, since] = [proxy.counts.roundTrips, Date.now()]
    else if (seen >= atLeast && Date.now() - since >= QUIET_MS) return
  }
  throw new Error(`no quiet RPC period within ${timeoutMs} ms (${proxy.counts.roundTrips} round trips)`)
}

const takeRenders = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __renders?: Record<string, number> }
    const r = { ...w.__renders }
    w.__renders = {}
    return r
  })

/**
 * In every document: when the first stake row enters the DOM, the time of the frame that paints it (a task queued
 * from requestAnimationFrame runs after that frame's paint), and the long tasks (over 50 ms) since navigation start.
 */
function pageProbe() {
  const w = window as unknown as { __firstRow?: number; __firstRowInDom?: number; __longTasks?: number[] }
  w.__longTasks = []
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks!.push(e.duration)
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // no long-task timing in this browser
  }
  const seen = () => {
    for (const el of document.querySelectorAll('tr[data-testid^="stake-"]'))
      if (/^stake-\d+$/.test(el.getAttribute('data-testid') ?? '')) return true
    return false
  }
  const observer = new MutationObserver(() => {
    if (w.__firstRowInDom !== undefined || !seen()) return
    w.__firstRowInDom = performance.now()
    observer.disconnect()
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => (w.__firstRow = performance.now())
      channel.port2.postMessage(null)
    })
  })
  observer.observe(document, { childList: true, subtree: true })
}

const kb = (c: Counts) => (c.bytes + c.requestBytes) / 1024

function methods(c: Counts) {
  return Object.entries(c.byMethod)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${m} ${n}`)
    .join(', ')
}

function detail(title: string, c: Counts, renders?: Record<string, number>) {
  const r = renders ? `; renders ${['StakeList', 'StakeRow'].map((k) => `${k} ${renders[k] ?? 0}`).join(', ')}` : ''
  console.log(
    `  ${title.padEnd(22)} ${c.roundTrips} round trips, ${c.calls} calls (${methods(c)}), ` +
      `${(c.requestBytes / 1024).toFixed(1)} KB sent + ${(c.bytes / 1024).toFixed(1)} KB received; ${c.preflights} CORS preflights${r}`,
  )
}

interface Row {
  label: string
  setupS: number
  gas: bigint
  firstRowMs: number
  firstRowDomMs: number
  loadTrips: number
  loadKb: number
  taskMs: number
  longTaskMs: number
  longTasks: number
  refreshTrips: number
  refreshKb: number
  renders: string
  changeTrips: number
  changeRenders: string
  changeKb: number
}

/** The renderer's main-thread busy time so far (ms), from a CDP session with the Performance domain enabled. */
async function taskDuration(cdp: CDPSession) {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000
}

async function measure(
  stack: Awaited<ReturnType<typeof startE2EStack>>,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  record: DeploymentRecord,
  key: string,
): Promise<Row> {
  const spec = CASES[key]
  if (!spec) throw new Error(`unknown BENCH_SIZES entry ${key} (known: ${Object.keys(CASES).join(', ')})`)
  const proxy = stack.rpc
  const reader = new JsonRpcProvider(stack.chainUrl, 31337, { staticNetwork: true })
  const accounts: string[] = await reader.send('eth_accounts', [])
  const staker = spec.mix
    ? await giveHeavyStakes(stack.chainUrl, record, accounts[0], spec.mix)
    : await giveStakes(stack.chainUrl, record, 20)
  const total = spec.mix ? mixTotal(spec.mix) : 20
  const visible = spec.mix ? spec.mix.active + spec.mix.recentClosed : 20
  const firstPage = Math.min(visible, lists.STAKE_PAGE_SIZE)
  const who = staker.address
  console.log(
    `\n${spec.label}: ${who} holds ${total.toLocaleString('en-US')} stakes` +
      (spec.mix
        ? ` (${spec.mix.oldClosed} closed 200 days ago, ${spec.mix.recentClosed} closed now, ${spec.mix.active} active)`
        : '') +
      `; made in ${(staker.ms / 1000).toFixed(1)} s`,
  )
  const pool = record.pools.find((p) => p.id === record.defaultPoolId)!.address
  const gas = await contracts
    .lens(record.contracts.lens, reader)
    .getUnstakeDataPage.estimateGas(pool, who, 0, lists.STAKE_PAGE_SIZE, { from: who })
  reader.destroy()

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    await installWallet(context, new TestWallet(stack.chainUrl, { account: who }))
    await context.addInitScript(pageProbe)
    const page = await context.newPage()
    await page.goto(`${stack.appUrl}/staking`)
    await connectWith(page, 'Browser wallet')
    const newest = `stake-${total - 1}`
    await page
      .getByTestId(newest)
      .waitFor({ timeout: 60_000 })
      .catch(async (e) => {
        await page.screenshot({ path: '/tmp/bench-rpc.png', fullPage: true })
        throw e
      })

    // A returning user: the wallet already connected, the page opened afresh, after the browser's 5 s CORS preflight
    // cache has run out (as it has for anyone who opens the page).
    await new Promise((r) => setTimeout(r, 6_000))
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const tasksBefore = await taskDuration(cdp)
    proxy.reset()
    await page.reload()
    await page.getByTestId(newest).waitFor({ timeout: 60_000 })
    await page.getByTestId('pool-holders').waitFor()
    await untilQuiet(proxy, 1, 60_000)
    const tasksAfter = await taskDuration(cdp)
    await cdp.detach()
    const load = snapshot(proxy.counts)
    const probe = await page.evaluate(() => {
      const w = window as unknown as { __firstRow?: number; __firstRowInDom?: number; __longTasks?: number[] }
      return { firstRow: w.__firstRow ?? NaN, inDom: w.__firstRowInDom ?? NaN, longTasks: w.__longTasks ?? [] }
    })
    const rows = await page.locator('tr[data-testid^="stake-"]').count()
    if (rows !== firstPage) throw new Error(`the page shows ${rows} stakes, expected ${firstPage}`)
    await takeRenders(page)
    detail('page load', load)

    // The next auto-update, 15 s after the load's read; nothing changed on chain.
    proxy.reset()
    await untilQuiet(proxy, 1, 30_000)
    const refresh = snapshot(proxy.counts)
    const renders = await takeRenders(page)
    detail('refresh, unchanged', refresh, renders)

    // One more stake by the user (straight to the node, as another tab would), then the next auto-update.
    await staker.stakeMore(1)
    proxy.reset()
    await untilQuiet(proxy, 1, 30_000)
    const change = snapshot(proxy.counts)
    const changeRenders = await takeRenders(page)
    detail('refresh, after a stake', change, changeRenders)
    await page.getByTestId(`stake-${total}`).waitFor({ timeout: 5_000 })

    // A TaskDuration that went down means the reload changed renderer process: then all of it is this load's.
    const taskMs = tasksAfter >= tasksBefore ? tasksAfter - tasksBefore : tasksAfter
    return {
      label: spec.label,
      setupS: staker.ms / 1000,
      gas,
      firstRowMs: probe.firstRow,
      firstRowDomMs: probe.inDom,
      loadTrips: load.roundTrips,
      loadKb: kb(load),
      taskMs,
      longTaskMs: probe.longTasks.reduce((a, b) => a + b, 0),
      longTasks: probe.longTasks.length,
      refreshTrips: refresh.roundTrips,
      refreshKb: kb(refresh),
      renders: `${renders.StakeList ?? 0}/${renders.StakeRow ?? 0}`,
      changeTrips: change.roundTrips,
      changeRenders: `${changeRenders.StakeList ?? 0}/${changeRenders.StakeRow ?? 0}`,
      changeKb: kb(change),
    }
  } finally {
    staker.destroy()
    await context.close()
  }
}

function table(rows: Row[]) {
  const head = [
    'stakes',
    'setup s',
    'page gas',
    'first rows ms',
    'load RT',
    'load KB',
    'load main ms',
    'long tasks',
    'refresh RT',
    'refresh KB',
    'renders L/R',
    'change RT',
    'change KB',
    'change L/R',
  ]
  const body = rows.map((r) => [
    r.label,
    r.setupS.toFixed(1),
    r.gas.toLocaleString('en-US'),
    `${r.firstRowMs.toFixed(0)} (DOM ${r.firstRowDomMs.toFixed(0)})`,
    String(r.loadTrips),
    r.loadKb.toFixed(1),
    r.taskMs.toFixed(0),
    `${r.longTasks}, ${r.longTaskMs.toFixed(0)} ms`,
    String(r.refreshTrips),
    r.refreshKb.toFixed(1),
    r.renders,
    String(r.changeTrips),
    r.changeKb.toFixed(1),
    r.changeRenders,
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  console.log(`\n${line(head)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const b of body) console.log(line(b))
  console.log(
    '\nfirst rows: navigation start to the frame that paints the first stake row (DOM: when it entered the DOM).' +
      '\nRT: HTTP round trips to the RPC (CORS preflights apart); KB: requests + answers. load main: CDP TaskDuration' +
      '\nover the reload until the RPC is quiet. renders L/R: StakeList/StakeRow renders in the unchanged refresh.' +
      '\nchange: the auto-update after one more stake (KB, and L/R renders). Targets: first rows <= 1,500 ms, refresh < 50 KB.',
  )
}

async function main() {
  const started = Date.now()
  const stack = await startE2EStack({ buildEnv: { RENDER_COUNTS: '1' } })
  const browser = await launchBrowser()
  try {
    const record = JSON.parse(fs.readFileSync(path.join(stack.deploymentsDir, '31337.json'), 'utf8')) as DeploymentRecord
    console.log(`stack up in ${((Date.now() - started) / 1000).toFixed(0)} s; cases: ${SIZES.join(', ')}`)
    const rows: Row[] = []
    for (const key of SIZES) rows.push(await measure(stack, browser, record, key))
    table(rows)
  } finally {
    await browser.close()
    await stack.stop()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
