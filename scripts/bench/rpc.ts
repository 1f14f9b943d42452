/**
 * `npm run bench:rpc`: what the staking page costs the node. Starts the browser-test stack (node, deploy, API, a
 * production build) with a counting JSON-RPC proxy between the app and the node and render counters compiled in
 * (RENDER_COUNTS=1), gives a fresh account 20 stakes in the default pool, and drives /staking in headless chromium
 * with that account connected. Prints HTTP round trips, JSON-RPC calls by method and component renders for the
 * page load and for each of the next auto-updates (15 s apart), in which nothing on the chain changes, and the gas of
 * the stake-list read (Lens.getUnstakeDataPage for one page of STAKE_PAGE_SIZE rows, which the page sends as one call).
 * Aim (issue #5): an update costs at most 2 round trips and re-renders the stake list 0 times.
 */
import fs from 'node:fs'
import path from 'node:path'
import { JsonRpcProvider } from 'ethers'
import type { Page } from 'playwright-core'
import { contracts } from '../../src/chain/contracts'
import type { DeploymentRecord } from '../../src/chain/deploymentRecord'
import { lists } from '../../src/app/config'
import { DAY, ONE } from '../../src/chain/math'
import { installWallet, connectWith, launchBrowser } from '../../test/e2e/browser'
import { startE2EStack } from '../../test/e2e/stack'
import { TestWallet } from '../../test/support/testWallet'

const STAKES = 20
const REFRESHES = Number(process.env.BENCH_REFRESHES ?? 2)
/** A read is over when the proxy has seen nothing for this long. */
const QUIET_MS = 2_000

type Proxy = NonNullable<Awaited<ReturnType<typeof startE2EStack>>['rpc']>
type Counts = Proxy['counts']

/** Account #7 (no demo stakes) gets tokens from #0 and makes STAKES stakes of different sizes and terms. */
async function giveStakes(chainUrl: string, record: DeploymentRecord): Promise<string> {
  const provider = new JsonRpcProvider(chainUrl, 31337, { staticNetwork: true, cacheTimeout: -1 })
  const accounts: string[] = await provider.send('eth_accounts', [])
  const [funder, me] = [await provider.getSigner(accounts[0]), await provider.getSigner(accounts[7])]
  const pool = record.pools.find((p) => p.id === record.defaultPoolId)!
  const amounts = Array.from({ length: STAKES }, (_, i) => BigInt(100 + 37 * i) * ONE)
  const total = amounts.reduce((a, b) => a + b, 0n)
  await (await contracts.token(record.contracts.token, funder).transfer(accounts[7], total)).wait()
  await (await contracts.token(record.contracts.token, me).approve(pool.address, total)).wait()
  const staking = contracts.pool(pool.address, me)
  for (const [i, amount] of amounts.entries())
    await (await staking['stake(uint256,uint256)'](amount, BigInt(30 + 30 * i) * DAY)).wait()
  provider.destroy()
  return accounts[7]
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

function print(title: string, c: Counts, renders: Record<string, number>, ms: number) {
  const methods = Object.entries(c.byMethod)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${m} ${n}`)
    .join(', ')
  const r = ['StakeList', 'StakeRow', 'PoolOverview'].map((k) => `${k} ${renders[k] ?? 0}`).join(', ')
  console.log(
    `${title.padEnd(30)} ${String(c.roundTrips).padStart(3)} round trips  ${String(c.calls).padStart(3)} calls  ${(c.bytes / 1024).toFixed(1)} KB  (${methods}); ${c.preflights} CORS preflights`,
  )
  console.log(`${''.padEnd(30)} renders: ${r}; window ${(ms / 1000).toFixed(1)} s`)
}

async function main() {
  const started = Date.now()
  const stack = await startE2EStack({ countRpc: true, buildEnv: { RENDER_COUNTS: '1' } })
  const browser = await launchBrowser()
  try {
    const proxy = stack.rpc
    const record = JSON.parse(fs.readFileSync(path.join(stack.deploymentsDir, '31337.json'), 'utf8')) as DeploymentRecord
    const me = await giveStakes(stack.chainUrl, record)
    console.log(
      `stack up in ${((Date.now() - started) / 1000).toFixed(0)} s; ${me} holds ${STAKES} stakes in pool ${record.defaultPoolId}`,
    )
    const reader = new JsonRpcProvider(stack.chainUrl, 31337, { staticNetwork: true })
    const pool = record.pools.find((p) => p.id === record.defaultPoolId)!.address
    const lens = contracts.lens(record.contracts.lens, reader)
    const gas = await lens.getUnstakeDataPage.estimateGas(pool, me, 0, lists.STAKE_PAGE_SIZE, { from: me })
    console.log(
      `stake-list read (getUnstakeDataPage, ${lists.STAKE_PAGE_SIZE} rows a page): ${gas.toLocaleString('en-US')} gas\n`,
    )
    reader.destroy()

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await installWallet(context, new TestWallet(stack.chainUrl, { account: me }))
    const page = await context.newPage()
    await page.goto(`${stack.appUrl}/staking`)
    await connectWith(page, 'Browser wallet')
    await page
      .getByTestId(`stake-${STAKES - 1}`)
      .waitFor()
      .catch(async (e) => {
        await page.screenshot({ path: '/tmp/bench-rpc.png', fullPage: true })
        throw e
      })

    // A returning user: the wallet already connected, the page opened afresh, after the browser's 5 s CORS preflight
    // cache has run out (as it has for anyone who opens the page).
    await new Promise((r) => setTimeout(r, 6_000))
    proxy.reset()
    let t0 = Date.now()
    await page.reload()
    await page.getByTestId(`stake-${STAKES - 1}`).waitFor({ timeout: 30_000 })
    await page.getByTestId('pool-holders').waitFor()
    await untilQuiet(proxy, 1, 30_000)
    const rows = await page.locator('[data-testid^="stake-"]').count()
    if (rows !== STAKES) throw new Error(`the page shows ${rows} stakes, expected ${STAKES}`)
    print('page load (wallet connected)', snapshot(proxy.counts), await takeRenders(page), Date.now() - t0)

    for (let i = 1; i <= REFRESHES; i++) {
      proxy.reset()
      t0 = Date.now()
      // The next auto-update is due 15 s after the last read; wait for it and for the quiet after it.
      await untilQuiet(proxy, 1, 30_000)
      print(`auto-update ${i}, chain unchanged`, snapshot(proxy.counts), await takeRenders(page), Date.now() - t0)
    }
    await context.close()
  } finally {
    await browser.close()
    await stack.stop()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
