/**
 * The API's edges, one request at a time: duplicate and too many addresses, compression, over-long and wrongly
 * checksummed addresses, errors Fastify and Node write themselves, the idle timeout, /health on a node without the
 * deployment and its own rate-limit bucket, and an outage logged once when it starts and once when it ends.
 */
import http from 'node:http'
import net from 'node:net'
import zlib from 'node:zlib'
import { getAddress } from 'ethers'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { freePort, startHardhatNode } from '../../scripts/lib/node'
import { getJson, postJson, record, startTestApi } from '../support/api'
import { exchange, httpRequest } from '../support/rawHttp'

const MULTI = '/contract-parser/api/contract/multipleAbi'
const ABI = '/contract-parser/api/contract/abi'

/** POST `body` as JSON with Accept-Encoding `encoding`: the status, headers and the body's bytes as received. */
function postEncoded(url: string, body: unknown, encoding: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: Buffer }>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'accept-encoding': encoding } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, raw: Buffer.concat(chunks) }))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

/** The address with the case of each letter a-f flipped: same address, wrong EIP-55 checksum. */
const flipCase = (address: string) =>
  '0x' + [...address.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('')

/** The log lines of `logs` (pino JSON) at `level` or above. */
const linesAtOrAbove = (logs: string[], level: number) =>
  logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; msg: string; [k: string]: unknown })
    .filter((l) => l.level >= level)

describe('the API at its edges', () => {
  const rec = record()
  let api: Awaited<ReturnType<typeof startTestApi>>
  beforeAll(async () => {
    api = await startTestApi()
  })
  afterAll(() => api.app.close())

  it('answers each address of multipleAbi once, compressed for a client that accepts it', async () => {
    const pool = rec.pools[0].address
    const plain = await postEncoded(api.url + MULTI, { address: Array(50).fill(pool), network: 31337 }, 'identity')
    expect(plain.status).toBe(200)
    const answer = JSON.parse(plain.raw.toString())
    expect(answer.data.map((d: { address: string }) => d.address)).toEqual([getAddress(pool)])
    // One ABI, not fifty: about 32 KB (the pool's ABI with restake and the referral views) where the same request was
    // answered with 1.26 MB.
    expect(plain.raw.length).toBeLessThan(40_000)
    expect(plain.headers['content-encoding']).toBeUndefined()

    // Each contract once, in the order first named, whatever the case.
    const mixed = await postJson(api.url + MULTI, {
      address: [rec.contracts.lens, pool.toLowerCase(), rec.contracts.lens.toLowerCase(), pool],
      network: 31337,
    })
    expect(mixed.body.data.map((d: { name: string }) => d.name)).toEqual(['Lens', 'ImplAndTermsV2'])

    for (const [encoding, inflate] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const packed = await postEncoded(api.url + MULTI, { address: Array(50).fill(pool), network: 31337 }, encoding)
      expect(packed.headers['content-encoding']).toBe(encoding)
      expect(packed.headers.vary).toMatch(/accept-encoding/i)
      expect(packed.raw.length).toBeLessThan(plain.raw.length / 5)
      expect(JSON.parse(inflate(packed.raw).toString())).toEqual(answer)
      expect(packed.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it('refuses more than 50 addresses with a 400 that says the limit', async () => {
    const res = await postJson(api.url + MULTI, { address: Array(51).fill(rec.contracts.lens), network: 31337 })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('body/address must NOT have more than 50 items')
  })

  it('refuses an over-long address with a 400 that says why, on every route that takes one', async () => {
    const long = `0x${'a'.repeat(10_000)}`
    for (const res of [
      await getJson(`${api.url}/vesting/address/${long}`),
      await getJson(`${api.url}/explorer/address/${long}`),
      await postJson(api.url + ABI, { address: long, network: 31337 }),
    ]) {
      expect(res.status).toBe(400)
      expect(res.body.message).toMatch(/(wallet|address) must NOT have more than 42 characters$/)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    // As long as the request line may be (16 KB with the headers), a path segment still reaches its schema.
    const longest = await getJson(`${api.url}/vesting/address/0x${'a'.repeat(15_000)}`)
    expect(longest.status).toBe(400)
    // Longer, and Node's parser refuses the request itself: 431, with the headers and a JSON reason.
    const over = await exchange(Number(new URL(api.url).port), httpRequest('GET', `/vesting/address/0x${'a'.repeat(17_000)}`))
    expect(over.statuses).toEqual([431])
    expect(JSON.parse(over.body)).toEqual({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: 'The request line and headers are over 16384 bytes.',
    })
    expect(over.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'")
  })

  it('refuses a mixed-case address with a wrong checksum with a 400 that says so, and takes one-case addresses', async () => {
    const wrong = flipCase(rec.deployer)
    expect(wrong.toLowerCase()).toBe(rec.deployer.toLowerCase())
    const because = 'has mixed case but a wrong EIP-55 checksum: send it all lower-case or with its checksum'
    const vesting = await getJson(`${api.url}/vesting/address/${wrong}`)
    expect([vesting.status, vesting.body.message]).toEqual([400, `params/wallet ${because}`])
    const abi = await postJson(api.url + ABI, { address: flipCase(rec.contracts.lens), network: 31337 })
    expect([abi.status, abi.body.message]).toEqual([400, `body/address ${because}`])
    const multi = await postJson(api.url + MULTI, {
      address: [rec.contracts.lens, flipCase(rec.contracts.token)],
      network: 31337,
    })
    expect([multi.status, multi.body.message]).toEqual([400, `body/address/1 ${because}`])
    for (const ok of [rec.deployer, rec.deployer.toLowerCase(), '0x' + rec.deployer.slice(2).toUpperCase()])
      expect((await getJson(`${api.url}/vesting/address/${ok}`)).status).toBe(200)
  })

  it('answers a URL it cannot decode and unknown routes without quoting them, with the headers', async () => {
    const port = Number(new URL(api.url).port)
    const bad = await exchange(port, httpRequest('GET', '/vesting/address/%ff<script>alert(1)</script>'))
    expect(bad.statuses).toEqual([400])
    expect(JSON.parse(bad.body)).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'The URL has malformed percent-encoding.',
    })
    expect(bad.headers['strict-transport-security']).toMatch(/^max-age=/)
    const unknown = await exchange(port, httpRequest('GET', '/nope/<script>alert(1)</script>'))
    expect(unknown.statuses).toEqual([404])
    expect(unknown.body).not.toContain('script')
    expect(unknown.headers['x-frame-options']).toBe('SAMEORIGIN')
    const garbage = await exchange(port, Buffer.from('\x16\x03\x01 <script>\r\n\r\n', 'latin1'))
    expect(garbage.statuses).toEqual([400])
    expect(garbage.body).toBe('{"statusCode":400,"error":"Bad Request","message":"Malformed HTTP request."}')
    expect(garbage.headers['referrer-policy']).toBe('no-referrer')
  })

  it('closes an idle kept-alive connection within API_IDLE_TIMEOUT_MS', async () => {
    const idle = await startTestApi({ idleTimeoutMs: 1_500 })
    try {
      const { answer, closedAfterMs } = await new Promise<{ answer: string; closedAfterMs: number }>((resolve) => {
        const socket = net.connect(Number(new URL(idle.url).port), '127.0.0.1')
        let answer = ''
        let answeredAt = 0
        socket.on('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'))
        socket.on('data', (d) => {
          answer += d
          answeredAt ||= Date.now()
        })
        socket.on('error', () => {})
        socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - answeredAt }))
      })
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/)
      expect(answer).toMatch(/\r\nConnection: keep-alive\r\n/i)
      // Closed by the server around the timeout (Fastify's default kept it 72 s), with slack for a loaded machine.
      expect(closedAfterMs).toBeGreaterThan(1_000)
      expect(closedAfterMs).toBeLessThan(1_500 + 500)
    } finally {
      await idle.app.close()
    }
  })

  it('answers /health 503 with a reason on a node without the deployment', async () => {
    const fresh = await startHardhatNode(await freePort())
    const bare = await startTestApi({ rpcUrl: fresh.url, retryAfterSeconds: 7 })
    try {
      const res = await getJson(`${bare.url}/health`)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('7')
      expect(res.body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message:
          'The chain at block 0 does not hold the deployment this service serves (no code at any of its contracts): ' +
          'the node was restarted or is another chain.',
        reason: 'deployment_missing',
      })
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      // Once per outage in the log, however many ask.
      for (let i = 0; i < 5; i++) expect((await getJson(`${bare.url}/health`)).status).toBe(503)
      expect(linesAtOrAbove(bare.logs, 40).map((l) => [l.msg, l.reason])).toEqual([
        [expect.stringMatching(/^request failed: service unavailable; outage started/), 'deployment_missing'],
      ])
    } finally {
      await bare.app.close()
      await fresh.stop()
    }
  })

  it('keeps a rate-limit bucket of its own for /health', async () => {
    const limited = await startTestApi({ rateLimitMax: 3 })
    try {
      const vesting = `${limited.url}/vesting/address/${rec.deployer}`
      for (let i = 0; i < 3; i++) expect((await getJson(vesting)).status).toBe(200)
      expect((await getJson(vesting)).status).toBe(429)
      // The clients' bucket is empty; health checks have their own.
      const health = []
      for (let i = 0; i < 4; i++) health.push((await getJson(`${limited.url}/health`)).status)
      expect(health).toEqual([200, 200, 200, 429])
    } finally {
      await limited.app.close()
    }
  })

  it('logs an outage once when it starts and once when it ends, not once per request', async () => {
    const proxy = await startRpcProxy(process.env.CHAIN_URL!)
    const flaky = await startTestApi({ rpcUrl: proxy.url, retryAfterSeconds: 1 })
    try {
      const routes = [
        () => getJson(`${flaky.url}/health`),
        () => getJson(`${flaky.url}/vesting/address/${rec.deployer}`),
        () =>
          postJson(`${flaky.url}/contract-parser/api/contract/token-holders`, { address: rec.pools[1].address, network: 31337 }),
        async () => ({ status: (await fetch(`${flaky.url}/explorer/address/${rec.deployer}`)).status }),
      ]
      expect((await routes[0]()).status).toBe(200)
      proxy.setFault('down')
      for (let i = 0; i < 40; i++) expect((await routes[i % routes.length]()).status).toBe(503)
      const during = linesAtOrAbove(flaky.logs, 40)
      expect(during).toHaveLength(1)
      expect(during[0]).toMatchObject({ level: 50, reason: 'chain_unreachable', dependency: 'chain' })
      expect(during[0].msg).toMatch(/^request failed: service unavailable; outage started/)

      proxy.setFault('none')
      for (const route of routes) expect((await route()).status).toBe(200)
      // The end is written once nothing has failed for Retry-After (1 s here), with or without more requests.
      const waitedFrom = Date.now()
      while (linesAtOrAbove(flaky.logs, 40).length < 2 && Date.now() - waitedFrom < 5_000)
        await new Promise((r) => setTimeout(r, 100))
      expect(Date.now() - waitedFrom).toBeGreaterThan(500)
      const after = linesAtOrAbove(flaky.logs, 40)
      expect(after).toHaveLength(2)
      expect(after[1]).toMatchObject({
        level: 40,
        msg: 'service available again: outage ended',
        dependency: 'chain',
        reason: 'chain_unreachable',
        failedRequests: 40,
      })
      expect(after[1].durationMs).toBeGreaterThan(0)
    } finally {
      await flaky.app.close()
      await proxy.stop()
    }
  })
})
