import type { BrowserServer } from 'playwright-core'
import { launchBrowserServer } from '../../scripts/lib/browser'
import { startE2EStack, type E2EStack } from '../../scripts/lib/stack'

declare global {
  var __E2E_STACK__: E2EStack | undefined
  var __E2E_BROWSER__: BrowserServer | undefined
}

export default async function setup() {
  // Outages in the browser tests last seconds, not minutes: a 2 s RPC timeout, retries from 1 s up to 3 s, and a 4 s
  // auto-update (the app's own defaults: 6 s, 2-60 s, 15 s).
  const stack = await startE2EStack({
    buildEnv: {
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
    },
  })
  globalThis.__E2E_STACK__ = stack
  // One chromium for the run; each test file connects to it (browserSession, scripts/lib/browser.ts).
  const browser = await launchBrowserServer().catch(async (err: unknown) => {
    await stack.stop()
    throw err
  })
  globalThis.__E2E_BROWSER__ = browser
  process.env.E2E_BROWSER_WS = browser.wsEndpoint()
  process.env.E2E_CHAIN_URL = stack.chainUrl
  process.env.E2E_API_URL = stack.apiUrl
  process.env.E2E_APP_RPC_URL = stack.rpc.url
  process.env.E2E_APP_API_URL = stack.apiProxy.url
  process.env.E2E_APP_URL = stack.appUrl
  process.env.E2E_DEPLOYMENTS_DIR = stack.deploymentsDir
  process.env.E2E_DIST_DIR = stack.distDir
}
