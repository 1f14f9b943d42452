import fs from 'node:fs'
import path from 'node:path'
import { getAddress } from 'ethers'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserServer,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core'
import { TestWallet, type WalletRequest } from './testWallet'

export const appUrl = (p = '/') => `${process.env.E2E_APP_URL}${p}`

/**
 * Cuts the app's chain ('rpc') or API ('api') off, makes it hang, or restores it, through the fault switch of the
 * proxy the e2e build reaches them by (scripts/lib/rpcProxy.ts). The wallet and the test's own reads are not affected.
 */
export async function proxyFault(target: 'rpc' | 'api', fault: 'none' | 'down' | 'hang') {
  const base = target === 'rpc' ? process.env.E2E_APP_RPC_URL : process.env.E2E_APP_API_URL
  await fetch(`${base}/__proxy/fault/${fault}`, { method: 'POST' })
}

/** Makes the app's RPC proxy refuse every eth_call starting with `selector` (null: none), as a node over its gas cap. */
export async function proxyFailCalls(selector: string | null) {
  await fetch(`${process.env.E2E_APP_RPC_URL}/__proxy/fail-calls/${selector ?? 'none'}`, { method: 'POST' })
}
export const chainUrl = () => process.env.E2E_CHAIN_URL!

/** Chromium's flags for tests and benches: no sandbox in a container, nothing reaching this machine's closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Debian's chromium (apt), or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian's chromium (apt), never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

/** The same chromium as a server the browser tests' files connect to (test/e2e/globalSetup.ts). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

/** A download's content as text, read through the browser's connection (a connected browser's files are not local). */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The browser a test file drives: the run's one chromium when the global setup started it (E2E_BROWSER_WS), which a file
 * reaches in milliseconds where a launch of its own took 1.5 s and about 3 CPU-s here; otherwise one of its own. Each test
 * still gets fresh contexts, so nothing of one file's pages reaches another's.
 */
function fileBrowser(): Promise<Browser> {
  const ws = process.env.E2E_BROWSER_WS
  return ws ? chromium.connect(ws) : launchBrowser()
}

export const DESKTOP = { viewport: { width: 1280, height: 800 } }
export const PHONE = {
  viewport: { width: 360, height: 740 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Mobile Safari/537.36',
}

/** How a test wallet shows itself to the page: as window.ethereum (the default), announced (EIP-6963), or both. */
export interface WalletInstall {
  /** Sets window.ethereum to this wallet (isMetaMask). Default: true unless `announce` is given. */
  ethereum?: boolean
  /** Announces the wallet through EIP-6963 with this info, as an extension does on each request and at load. */
  announce?: { rdns: string; name: string; icon: string }
}

/**
 * Puts `wallet` into every page of `context`: requests run in the test process through an exposed function, so the
 * test can script rejections, unknown chains and events. The wallet's state (permission, chain) lives in the test, so
 * it survives reloads like a real extension's. Several wallets in one context are several extensions.
 */
export async function installWallet(context: BrowserContext, wallet: TestWallet, install: WalletInstall = {}) {
  const key = `w${installed.get(context) ?? 0}`
  installed.set(context, (installed.get(context) ?? 0) + 1)
  await context.exposeFunction(`__walletRequest_${key}`, async (args: WalletRequest) => {
    try {
      return { result: (await wallet.request(args)) ?? null }
    } catch (e) {
      const err = e as { code?: number; message: string; data?: unknown }
      return { error: { code: err.code ?? -32603, message: err.message, data: err.data } }
    }
  })
  wallet.onEmit = (event, args) => {
    for (const page of context.pages())
      void page
        .evaluate(
          ([k, e, a]) =>
            (window as unknown as Record<string, ((e: string, a: unknown[]) => void) | undefined>)[`__walletEmit_${k}`]?.(e, a),
          [key, event, args] as const,
        )
        .catch(() => undefined)
  }
  const asEthereum = install.ethereum ?? !install.announce
  await context.addInitScript(
    ([k, ethereum, announce]) => {
      type L = (...a: unknown[]) => void
      const listeners: Record<string, L[]> = {}
      const w = window as unknown as Record<string, unknown>
      const send = w[`__walletRequest_${k}`] as (
        args: unknown,
      ) => Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>
      const provider = {
        isMetaMask: true,
        async request(args: unknown) {
          const r = await send(args)
          if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data })
          return r.result
        },
        on(e: string, l: L) {
          ;(listeners[e] ??= []).push(l)
          return provider
        },
        removeListener(e: string, l: L) {
          listeners[e] = (listeners[e] ?? []).filter((x) => x !== l)
          return provider
        },
      }
      w[`__walletEmit_${k}`] = (e: string, a: unknown[]) => (listeners[e] ?? []).forEach((l) => l(...a))
      if (ethereum) w.ethereum = provider
      if (announce) {
        const detail = Object.freeze({ info: Object.freeze({ uuid: `${announce.rdns}-${k}`, ...announce }), provider })
        const doAnnounce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
        window.addEventListener('eip6963:requestProvider', doAnnounce)
        doAnnounce()
      }
    },
    [key, asEthereum, install.announce ?? null] as const,
  )
}
const installed = new WeakMap<BrowserContext, number>()

/** screenshots/ in the repository, or SCREENSHOTS_DIR (a run whose pictures go elsewhere, e.g. for a review). */
const SHOTS = process.env.SCREENSHOTS_DIR ?? path.join(__dirname, '..', '..', 'screenshots')

/**
 * Saves a screenshot to screenshots/<name>.png (kept out of git; CI keeps them as artifacts), or to SCREENSHOTS_DIR.
 * The whole page by default; `viewport: true` for what a person sees at once, where fixed parts (dialogs, notices) sit
 * as they do.
 */
export async function shot(page: Page, name: string, opts: { viewport?: boolean } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: !opts.viewport })
}

export async function nodeAccounts(): Promise<string[]> {
  const res = await fetch(chainUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }),
  })
  return ((await res.json()) as { result: string[] }).result
}

export const short = (a: string) => `${a.slice(0, 4)} ... ${a.slice(-4)}`

/**
 * Waits until the app has replaced the first view its document holds (docs/architecture.md §10): the prompt and the
 * header are on screen before the app runs, but a click on them does nothing until it does.
 */
export const appStarted = (page: Page) => page.locator('#root:not([data-first-view])').waitFor({ state: 'attached' })

/** Connects through the header's Choose Wallet dialog with the option labelled `label`. */
export async function connectWith(page: Page, label: string) {
  await appStarted(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Choose Wallet' })
  await dialog.getByText(label, { exact: true }).click()
  await dialog.getByRole('button', { name: 'Continue' }).click()
}

/** The transaction notice (TxNotifications) of a transaction in `status`: pending, confirmed, failed, ... */
export const notice = (page: Page, status: string) => page.locator(`[data-status="${status}"]`)

/**
 * Picks how the open deposit dialog deposits: "Approve, then stake" or "Sign and stake" (docs/product.md §4.6). The test
 * wallets are accounts without code and the token has permits, so the choice is always offered (Sign is its default).
 */
export async function depositMethod(modal: Locator, method: 'approve' | 'permit') {
  const radio = modal.getByRole('radio', { name: method === 'approve' ? /^Approve, then stake/ : /^Sign and stake/ })
  await radio.waitFor()
  if (!(await radio.isChecked())) await radio.check()
}

/**
 * Opens the deposit dialog from the empty stake list ('Create 1st deposit'), fills in the amount and the days, and
 * picks the method: Approve by default, the flow most of the browser tests are about.
 */
export async function depositDialog(page: Page, amount: string, days = '30', method: 'approve' | 'permit' = 'approve') {
  await page.getByRole('button', { name: 'Create 1st deposit' }).click()
  const modal = page.getByRole('dialog', { name: 'Create deposit' })
  await modal.getByLabel('Amount (PLT)').fill(amount)
  await modal.getByLabel('Days').fill(days)
  await depositMethod(modal, method)
  return modal
}

/**
 * One browser for a test file, a fresh context per page (closed after each test) and the node's accounts.
 * Call at the top level of the file: it registers the Jest hooks.
 */
export function browserSession() {
  let browser: Browser
  let accounts: string[] = []
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    browser = await fileBrowser()
    accounts = (await nodeAccounts()).map((a) => getAddress(a))
  })
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()))
  })
  afterAll(async () => {
    // Connected to the run's browser, this closes the file's contexts and disconnects; the setup's teardown stops it.
    await browser.close()
  })
  return {
    accounts: () => accounts,
    /** A fresh context of this browser (closed after the test), for pages a test opens itself (a Safe host page). */
    async context(device: typeof DESKTOP | typeof PHONE = DESKTOP) {
      const context = await browser.newContext(device)
      contexts.push(context)
      return context
    },
    async open(
      opts: {
        wallet?: TestWallet
        /** More wallets in the same browser, each as its own extension (EIP-6963 announced, or window.ethereum). */
        wallets?: { wallet: TestWallet; install: WalletInstall }[]
        device?: typeof DESKTOP | typeof PHONE
        path?: string
      } = {},
    ) {
      const context = await browser.newContext(opts.device ?? DESKTOP)
      contexts.push(context)
      if (opts.wallet) await installWallet(context, opts.wallet)
      for (const w of opts.wallets ?? []) await installWallet(context, w.wallet, w.install)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await page.goto(appUrl(opts.path ?? '/'))
      // A route of the app, not a file: ready once the app runs.
      if (!/\.[a-z]+$/.test(opts.path ?? '/')) await appStarted(page)
      return { context, page, errors }
    },
  }
}
