import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { TestWallet } from '../../scripts/lib/testWallet'
import { appUrl, browserSession, chainUrl, connectWith, short } from '../../scripts/lib/browser'

const session = browserSession()
const dist = () => process.env.E2E_DIST_DIR!

/** Every file of the build, relative to its folder. */
function buildFiles(dir = dist()): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((e) => (e.isFile() ? [path.relative(dist(), path.join(e.parentPath, e.name))] : []))
}

/** Records what the policy blocks and what the console reports as an error, from before the app's first script. */
async function watchPolicy(page: Page) {
  const consoleErrors: string[] = []
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${m.text()} ${m.location().url}`))
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] }
    w.__violations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
    )
  })
  return {
    consoleErrors,
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  }
}

describe('the web build and its headers', () => {
  it('publishes no source maps and no links to them', () => {
    const files = buildFiles()
    expect(files).toContain('index.html')
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([])
    expect(files.filter((f) => fs.readFileSync(path.join(dist(), f), 'utf8').includes('sourceMappingURL'))).toEqual([])
  })

  it('serves the policy made for this build on every page, hashed files for a year, the documents revalidated', async () => {
    const page = await fetch(appUrl('/staking'))
    const csp = page.headers.get('content-security-policy')!
    expect(fs.readFileSync(path.join(dist(), '_headers'), 'utf8')).toContain(`Content-Security-Policy: ${csp}\n`)
    // Scripts from the site, and the build's two inline scripts (the loader, the returning-wallet check) by their hash.
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]{43}=' 'sha256-[A-Za-z0-9+/]{43}=';/)
    // Framed only by Safe{Wallet} (as a Safe App), which reads the manifest from its own origin.
    expect(csp).toMatch(/frame-ancestors https:\/\/app\.safe\.global(;|$)/)
    expect(page.headers.get('x-frame-options')).toBeNull()
    const manifest = await fetch(appUrl('/manifest.json'))
    expect(manifest.headers.get('access-control-allow-origin')).toBe('*')
    expect(await manifest.json()).toEqual({
      name: 'Claim and stake',
      description: expect.any(String),
      iconPath: 'safe-app-icon.svg',
    })
    const icon = await fetch(appUrl('/safe-app-icon.svg'))
    expect([icon.status, icon.headers.get('access-control-allow-origin')]).toEqual([200, '*'])
    // The app's reads go to the chain and the API the build was configured with, and nowhere else.
    const connect = csp.split('; ').find((d) => d.startsWith('connect-src '))
    expect(connect).toBe(
      `connect-src 'self' ${new URL(process.env.E2E_APP_RPC_URL!).origin} ${new URL(process.env.E2E_APP_API_URL!).origin}`,
    )
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('cache-control')).toBe('no-cache')
    // /staking is answered with its own document: its first view, with its tab marked.
    const html = await page.text()
    expect(html).toContain('<div id=root data-first-view>')
    expect(html).toContain('Connect the wallet to continue working')
    expect(html).toMatch(/<a aria-current=page [^>]*href=\/staking /)
    expect(await (await fetch(appUrl('/staking/3'))).text()).toBe(html)
    expect(await (await fetch(appUrl('/'))).text()).toMatch(/<a aria-current=page [^>]*href=\/ /)

    const script = /"(\/static\/main\.[0-9a-f]{8}\.js)"/.exec(fs.readFileSync(path.join(dist(), 'index.html'), 'utf8'))![1]
    const asset = await fetch(appUrl(script))
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(asset.headers.get('content-security-policy')).toBe(csp)
    // The build's brotli copy goes to a browser that takes br: fewer bytes than gzip, the same script.
    const file = fs.readFileSync(path.join(dist(), script), 'utf8')
    const gz = await fetch(appUrl(script), { headers: { 'accept-encoding': 'gzip' } })
    const br = await fetch(appUrl(script), { headers: { 'accept-encoding': 'gzip, br' } })
    expect([gz.headers.get('content-encoding'), br.headers.get('content-encoding')]).toEqual(['gzip', 'br'])
    expect(Number(br.headers.get('content-length'))).toBeLessThan(Number(gz.headers.get('content-length')))
    expect(await br.text()).toBe(file)
    // A chunk an old page asks for after a new release is missing, not index.html under a script's name.
    const gone = await fetch(appUrl('/static/main.00000000.js'))
    expect([gone.status, gone.headers.get('cache-control')]).toEqual([404, 'no-cache'])
    // The headers file is for the server, not a page: its path routes to the app like any other.
    expect(await (await fetch(appUrl('/_headers'))).text()).not.toContain('Content-Security-Policy')
  })

  it('runs every page with a connected wallet without a policy violation, and blocks an injected script', async () => {
    const me = session.accounts()[3]
    const { page, errors } = await session.open({ wallet: new TestWallet(chainUrl(), { account: me }) })
    // Watched from the next load on, before the app's first script runs.
    const policy = await watchPolicy(page)
    await page.goto(appUrl('/'))
    await page.getByText('Connect the wallet to continue working').waitFor()
    await connectWith(page, 'Browser wallet')
    await page.getByText(short(me)).waitFor()
    await page.getByText(/^Next claim: |^You have last claim of /).waitFor()
    await page.getByRole('button', { name: /Claim tokens and stake/ }).click()
    await page.getByRole('dialog', { name: 'Before you stake' }).getByRole('button', { name: 'I want to stake' }).click()
    await page.getByRole('dialog', { name: 'Choose a staking term' }).getByRole('radio').first().waitFor()
    await page.keyboard.press('Escape')

    await page.getByRole('link', { name: 'Staking' }).first().click()
    await page.getByRole('heading', { name: 'Staking & Subscription' }).waitFor()
    await page.getByTestId('stake-0').waitFor()
    await page.getByRole('button', { name: 'Subscribe/Stake' }).click()
    const modal = page.getByRole('dialog', { name: 'Create deposit' })
    await modal.getByLabel(/^Amount/).fill('1e18')
    await modal.getByRole('alert').waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: /Wallet 0x/ }).click()
    await page.getByRole('dialog', { name: 'Choose Wallet' }).getByText('WalletConnect', { exact: true }).waitFor()
    await page.keyboard.press('Escape')
    await page.reload()
    await page.getByText(short(me)).waitFor()

    expect(await policy.violations()).toEqual([])
    expect(policy.consoleErrors).toEqual([])
    expect(errors).toEqual([])

    // The check can fail: a script put into the page is refused and reported.
    await page.evaluate(() => {
      const s = document.createElement('script')
      s.textContent = 'window.__injected = true'
      document.body.appendChild(s)
    })
    await page.waitForFunction(() => (window as unknown as { __violations: string[] }).__violations.length > 0)
    expect(await policy.violations()).toEqual([expect.stringMatching(/^script-src-elem blocked inline/)])
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined()
  })
})
