import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { getAddress } from 'ethers'
import { PlatformToken__factory } from '../../src/chain/types'
import { account, allocationsFile, chainNow, getJson, postJson, provider, record, startTestApi } from '../support/api'

const HOLDERS = '/contract-parser/api/contract/token-holders'

/** Security headers @fastify/helmet puts on an answer; `csp` false for the explorer, which sets its own policy. */
function expectSecurityHeaders(headers: Headers | http.IncomingHttpHeaders, csp = true) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined))
  expect(get('x-content-type-options')).toBe('nosniff')
  expect(get('x-frame-options')).toBe('SAMEORIGIN')
  expect(get('strict-transport-security')).toMatch(/^max-age=\d+/)
  expect(get('referrer-policy')).toBe('no-referrer')
  expect(get('cross-origin-opener-policy')).toBe('same-origin')
  expect(get('x-dns-prefetch-control')).toBe('off')
  if (csp) expect(get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/)
}

/** GET `path` from the local address `from` (127.0.0.x: another client to the service). */
function getFrom(url: string, from: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress: from, agent: false }, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
  })
}

/**
 * Opens a raw connection, sends the headers of a POST with a 1,000-byte body and then the body one byte every 200 ms
 * (200 s in all). Resolves with what the server answered once it closes the connection.
 */
function slowBody(url: string): Promise<{ answer: string; bytesSent: number }> {
  const { port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1')
    let answer = ''
    let bytesSent = 0
    let timer: NodeJS.Timeout | undefined
    socket.on('connect', () => {
      socket.write(
        `POST ${HOLDERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
      )
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) {
          socket.write('x')
          bytesSent++
        }
      }, 200)
    })
    socket.on('data', (d) => (answer += d))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ answer, bytesSent })
    })
  })
}

describe('the running service under hostile input', () => {
  const rec = record()
  const p = provider()
  afterAll(() => p.destroy())

  it('renders an explorer page with the raw input for calldata that does not decode (not a 500)', async () => {
    const api = await startTestApi()
    try {
      // transfer(address,uint256)'s selector with 3 bytes of arguments: the token's ABI knows the selector, the bytes fail.
      const truncated = PlatformToken__factory.createInterface().getFunction('transfer')!.selector + 'abcdef'
      const hash = await account(16, p)
        .sendTransaction({ to: rec.contracts.token, data: truncated, gasLimit: 100_000 })
        .then(
          (t) => t.hash,
          (e: { error?: { data?: { txHash?: string } } }) => e.error?.data?.txHash,
        )
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      const res = await fetch(`${api.url}/explorer/tx/${hash}`)
      const page = await res.text()
      expect(res.status).toBe(200)
      expect(page).toContain('<dd class="bad">Failed</dd>')
      expect(page).toContain(`<dt>Input (not decoded)</dt><dd>${truncated}</dd>`)
      expect(page).toContain(`<dt>Method</dt><dd>${truncated.slice(0, 10)}</dd>`)
      expectSecurityHeaders(res.headers, false)
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'")
    } finally {
      await api.app.close()
    }
  })

  it('cuts off request bodies trickled in a byte at a time (slow loris) with 408, and keeps serving others', async () => {
    const api = await startTestApi({ requestTimeoutMs: 1_000 })
    try {
      const attacks = await Promise.all(Array.from({ length: 50 }, () => slowBody(api.url)))
      for (const { answer, bytesSent } of attacks) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/)
        // Closed long before the 1,000 bytes were in.
        expect(bytesSent).toBeLessThan(1_000)
      }
      expect((await getJson(`${api.url}/health`)).status).toBe(200)
    } finally {
      await api.app.close()
    }
  })

  it('closes a connection that never sends a request', async () => {
    const api = await startTestApi({ idleTimeoutMs: 500 })
    try {
      const closed = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(new URL(api.url).port), '127.0.0.1')
        let answer = ''
        socket.on('data', (d) => (answer += d))
        socket.on('error', () => {})
        socket.on('close', () => resolve(answer))
      })
      expect(closed).toBe('')
    } finally {
      await api.app.close()
    }
  })

  it('keeps a bounded cache in one block, however many distinct wallets ask', async () => {
    // 600 wallets with an allocation (each answer is a chain read and a signature) and 3,000 without.
    const wallets = Array.from({ length: 600 }, randomAddress)
    const file = allocationsFile({
      tge: (await chainNow(p)) - 40 * 86_400,
      allocations: Object.fromEntries(wallets.map((w) => [w, { round: 'Seed', amount: '1000000000000000000000' }])),
    })
    const api = await startTestApi({ allocationsFile: file, cacheMaxEntries: 200, rateLimitMax: 0, blockCacheMs: 60_000 })
    try {
      const block = (await getJson(`${api.url}/health`)).body.block
      const strangers = Array.from({ length: 3_000 }, randomAddress)
      for (const batch of chunks([...wallets, ...strangers], 100)) {
        const answers = await Promise.all(batch.map((w) => getJson(`${api.url}/vesting/address/${w}`)))
        expect(answers.every((a) => a.status === 200 && a.body.currentBlock === String(block))).toBe(true)
      }
      const health = (await getJson(`${api.url}/health`)).body
      expect(health.block).toBe(block)
      // Two entries a wallet (its chain read and its signed answer), at most 200 kept; strangers keep nothing.
      expect(health.cacheEntries).toBe(200)
      // An evicted wallet is simply read again, with the same figures.
      const first = (await getJson(`${api.url}/vesting/address/${wallets[0]}`)).body
      expect(first).toMatchObject({ total: '1000000000000000000000', claimed: '0', currentBlock: String(block) })
    } finally {
      await api.app.close()
    }
  })

  it('answers 503 with Retry-After and a JSON reason on every chain route when the node hangs', async () => {
    // A node that accepts connections and never answers.
    const held: net.Socket[] = []
    const hung = net.createServer((s) => void held.push(s))
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve))
    const api = await startTestApi({
      rpcUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
      rpcTimeoutMs: 300,
      retryAfterSeconds: 7,
    })
    try {
      const answers = [
        await getJson(`${api.url}/health`),
        await getJson(`${api.url}/vesting/address/${rec.deployer}`),
        await postJson(api.url + HOLDERS, { address: rec.pools[1].address, network: 31337 }),
        await getJson(`${api.url}/explorer/address/${rec.deployer}`),
      ]
      for (const res of answers) {
        expect(res.status).toBe(503)
        expect(res.headers.get('retry-after')).toBe('7')
        expect(res.body).toEqual({
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'The chain node cannot be reached; try again shortly.',
          reason: 'chain_unreachable',
        })
        expectSecurityHeaders(res.headers)
      }
      expect(api.logs.join('')).toMatch(/request failed: service unavailable/)
    } finally {
      await api.app.close()
      held.forEach((s) => s.destroy())
      hung.close()
    }
  })

  it('puts the security headers on every answer: success, 400, 404, 413 and the pages', async () => {
    const api = await startTestApi({ bodyLimitBytes: 1024 })
    try {
      const answers = [
        await getJson(`${api.url}/health`),
        await getJson(`${api.url}/vesting/address/0x1234`),
        await getJson(`${api.url}/nope`),
        await postJson(`${api.url}/contract-parser/api/contract/abi`, {
          address: rec.contracts.lens,
          network: 31337,
          pad: 'x'.repeat(2000),
        }),
        await postJson(`${api.url}/contract-parser/api/contract/abi`, { address: rec.contracts.lens, network: 31337 }),
      ]
      expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 413, 200])
      for (const res of answers) expectSecurityHeaders(res.headers)
      const page = await fetch(`${api.url}/explorer/address/${rec.deployer}`)
      expect(page.status).toBe(200)
      expectSecurityHeaders(page.headers, false)
    } finally {
      await api.app.close()
    }
  })

  it('limits requests per client: 429 with Retry-After and a JSON reason past the limit, other clients unaffected', async () => {
    const api = await startTestApi({ rateLimitMax: 5, rateLimitWindowMs: 60_000 })
    try {
      const url = `${api.url}/vesting/address/${rec.deployer}`
      const first = []
      for (let i = 0; i < 5; i++) first.push(await getFrom(url, '127.0.0.1'))
      expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
      expect(first[4].headers['x-ratelimit-remaining']).toBe('0')
      const limited = await getFrom(url, '127.0.0.1')
      expect(limited.status).toBe(429)
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
      expect(JSON.parse(limited.body)).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringMatching(/^Rate limit exceeded, retry in \d+ (seconds?|minute)$/),
      })
      expectSecurityHeaders(limited.headers)
      // Another client (another loopback address) has its own allowance.
      expect((await getFrom(url, '127.0.0.2')).status).toBe(200)
    } finally {
      await api.app.close()
    }
  })
})

const randomAddress = () => getAddress('0x' + randomBytes(20).toString('hex'))

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
