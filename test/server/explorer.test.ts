import { parseEther } from 'ethers'
import { PlatformToken__factory } from '../../src/chain/types'
import { escapeHtml } from '../../server/explorer/page'
import { account, apiSession } from '../support/api'

const E18 = 10n ** 18n

async function getHtml(url: string) {
  const res = await fetch(url)
  return { status: res.status, text: await res.text(), headers: res.headers }
}

describe('local explorer pages against a real node', () => {
  const session = apiSession()
  const { p, rec } = session

  it('shows a token transfer: status, block, names of the known contracts, the decoded call and its event', async () => {
    const [from, to] = [account(0, p), account(15, p)]
    const token = PlatformToken__factory.connect(rec.contracts.token, from)
    const tx = await token.transfer(to.address, 5n * E18 + 7n)
    const receipt = (await tx.wait())!
    const page = await getHtml(`${session.api.url}/explorer/tx/${tx.hash}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'")
    expect(page.text).toContain('<dd class="ok">Success</dd>')
    expect(page.text).toContain(`<dd>${receipt.blockNumber}</dd>`)
    expect(page.text).toContain(`${rec.contracts.token} · token (PlatformToken)`)
    expect(page.text).toContain(`transfer(to: ${to.address}, value: ${5n * E18 + 7n})`)
    expect(page.text).toContain(
      `Transfer(from: ${from.address}, to: ${to.address}, value: ${5n * E18 + 7n}) · token (PlatformToken)`,
    )
    expect(page.text).toContain(`<a href="/explorer/address/${from.address}">`)
  })

  it('shows a failed transaction as failed, and a plain ETH transfer as one', async () => {
    const sender = account(16, p)
    const eth = await sender.sendTransaction({ to: account(17, p).address, value: parseEther('0.5') })
    await eth.wait()
    const ok = await getHtml(`${session.api.url}/explorer/tx/${eth.hash}`)
    expect(ok.text).toContain('transfer of ETH')
    expect(ok.text).toContain('0.5 ETH')
    // More tokens than the account holds: the node mines it, reverts it, and names the hash in its error.
    const token = PlatformToken__factory.connect(rec.contracts.token, sender)
    const hash = await token.transfer(account(17, p).address, 1n, { gasLimit: 100_000 }).then(
      (t) => t.hash,
      (e: { error?: { data?: { txHash?: string } } }) => e.error?.data?.txHash,
    )
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    const failed = await getHtml(`${session.api.url}/explorer/tx/${hash}`)
    expect(failed.text).toContain('<dd class="bad">Failed</dd>')
  })

  it('shows an address: what the deployment calls it, and its ETH and token balances', async () => {
    const who = account(15, p).address
    const token = PlatformToken__factory.connect(rec.contracts.token, p)
    const page = await getHtml(`${session.api.url}/explorer/address/${who.toLowerCase()}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('<dd>Account</dd>')
    expect(page.text).toContain(`<dt>PLT balance</dt><dd>${Number((await token.balanceOf(who)) / E18)}.000000000000000007</dd>`)
    const pool = await getHtml(`${session.api.url}/explorer/address/${rec.pools[1].address}`)
    expect(pool.text).toContain('<title>Pool 1 (version 1) · Local explorer</title>')
    expect(pool.text).toContain('Contract · Pool 1 (version 1)')
  })

  it('answers a malformed hash or address with 400 JSON, and an unknown transaction with a 404 page', async () => {
    for (const path of ['/explorer/tx/0x1234', '/explorer/tx/<script>', `/explorer/address/0x${'g'.repeat(40)}`]) {
      const res = await fetch(session.api.url + path)
      expect(res.status).toBe(400)
      expect((await res.json()).error).toBe('Bad Request')
    }
    const missing = await getHtml(`${session.api.url}/explorer/tx/0x${'ab'.repeat(32)}`)
    expect(missing.status).toBe(404)
    expect(missing.text).toContain('Transaction not found')
  })

  it('escapes every value it puts into a page', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
  })
})
