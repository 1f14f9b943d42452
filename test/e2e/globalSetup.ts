import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { BrowserServer } from 'playwright-core'
import { launchBrowserServer } from '../../scripts/lib/browser'
import { startE2EStack } from '../../scripts/lib/stack'
import { stackEnv, STACKS_ENV } from './workerStack'

declare global {
  /** Stops what the setup started: the browser, every stack, the build cache (test/e2e/globalTeardown.ts). */
  var __E2E_STOP__: (() => Promise<void>) | undefined
}

/**
 * One stack (chain, API, build, proxies) for each Jest worker, so two files run at once without sharing a chain, a
 * fault switch or a clock: the browser tests spend most of their time waiting on the app, and a second worker fills
 * that time (`npm run test:e2e` asks for two; `--runInBand` gets one; Jest's default, a worker a core but one, gets as
 * many). The stacks start together, but the builds one after another: the first fills webpack's cache and the next,
 * which differs only in its URLs, reuses it (11 s and 16 CPU-s where a build of its own took 38 s and 55).
 */
export default async function setup(globalConfig: { maxWorkers: number }) {
  const count = Math.max(1, globalConfig.maxWorkers)
  // Outages in the browser tests last seconds, not minutes: a 2 s RPC timeout, retries from 1 s up to 3 s, and a 4 s
  // auto-update (the app's own defaults: 6 s, 2-60 s, 15 s).
  const buildEnv = {
    APP_TIMERS: JSON.stringify({
      RPC_TIMEOUT_MS: 2_000,
      RETRY_FIRST_MS: 1_000,
      RETRY_MAX_MS: 3_000,
      STAKING_REFRESH_MS: 4_000,
      // The claim page shown again re-reads figures older than 2 s (the app's own: 15 s).
      VESTING_FRESH_MS: 2_000,
      // A Safe transaction's owners are asked about every half second (the app's own: 3 s).
      SAFE_POLL_MS: 500,
    }),
  }
  const buildCache = count > 1 ? fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-build-cache-')) : undefined
  const first = startE2EStack({ buildEnv, buildCache })
  const started = await Promise.allSettled([
    first,
    ...Array.from({ length: count - 1 }, () => startE2EStack({ buildEnv, buildCache, buildAfter: first })),
  ])
  const stacks = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const stop = async (browser?: BrowserServer) => {
    await browser?.close()
    await Promise.all(stacks.map((s) => s.stop()))
    if (buildCache) fs.rmSync(buildCache, { recursive: true, force: true })
  }
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) {
    await stop()
    throw failed.reason
  }
  // One chromium for the run; each test file connects to it (browserSession, scripts/lib/browser.ts).
  const browser = await launchBrowserServer().catch(async (err: unknown) => {
    await stop()
    throw err
  })
  globalThis.__E2E_STOP__ = () => stop(browser)
  process.env.E2E_BROWSER_WS = browser.wsEndpoint()
  process.env[STACKS_ENV] = JSON.stringify(stacks.map(stackEnv))
}
