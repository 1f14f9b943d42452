import { getJson, postJson, record, startTestApi } from '../support/api'

describe('API hardening', () => {
  const rec = record()
  let api: Awaited<ReturnType<typeof startTestApi>>
  beforeAll(async () => {
    api = await startTestApi({ bodyLimitBytes: 2048 })
  })
  afterAll(() => api.app.close())

  const expectJson400 = (res: { status: number; body: { statusCode: number; message: string } }, text: string | RegExp) => {
    expect(res.status).toBe(400)
    expect(res.body.statusCode).toBe(400)
    expect(res.body.message).toMatch(text)
  }

  it('reports health with the chain id and block', async () => {
    const res = await getJson(`${api.url}/health`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'ok', chainId: 31337 })
    expect(res.body.block).toBeGreaterThan(0)
  })

  it('refuses malformed wallet addresses with a JSON reason', async () => {
    for (const bad of [
      '0x123',
      'hello',
      '0xZZ9fd6e51aad88f6f4ce6ab8827279cfffb92266',
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb922661',
    ]) {
      expectJson400(await getJson(`${api.url}/vesting/address/${bad}`), /wallet/)
    }
  })

  it('refuses an unknown network, wrong types, missing fields and extra fields', async () => {
    const url = `${api.url}/contract-parser/api/contract/abi`
    expectJson400(await postJson(url, { address: rec.contracts.lens, network: 97 }), /Unknown network 97/)
    expectJson400(await postJson(url, { address: rec.contracts.lens, network: true }), /network/)
    expectJson400(await postJson(url, { address: 12345, network: 31337 }), /address/)
    expectJson400(await postJson(url, { network: 31337 }), /address/)
    expectJson400(await postJson(url, { address: rec.contracts.lens, network: 31337, extra: 1 }), /additional/)
    expectJson400(
      await postJson(`${api.url}/contract-parser/api/contract/multipleAbi`, { address: rec.contracts.lens, network: 31337 }),
      /array/,
    )
    expectJson400(
      await postJson(`${api.url}/contract-parser/api/contract/multipleAbi`, { address: [], network: 31337 }),
      /fewer than 1/,
    )
    expectJson400(
      await postJson(`${api.url}/contract-parser/api/contract/token-holders`, { address: rec.pools[1].address, network: 'bsc' }),
      /network/,
    )
  })

  it('refuses malformed JSON with 400 and an oversized body with 413', async () => {
    expectJson400(await postJson(`${api.url}/contract-parser/api/contract/abi`, '{"address": "0x', {}), /JSON/)
    const big = await postJson(`${api.url}/contract-parser/api/contract/abi`, {
      address: rec.contracts.lens,
      network: 31337,
      pad: 'x'.repeat(5000),
    })
    expect(big.status).toBe(413)
    expect(big.body.statusCode).toBe(413)
  })

  it('answers unknown routes with 404 JSON', async () => {
    const res = await getJson(`${api.url}/nope`)
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('Not Found')
  })

  it('allows only configured origins', async () => {
    const ok = await fetch(`${api.url}/health`, { headers: { origin: 'http://app.test' } })
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://app.test')
    const other = await fetch(`${api.url}/health`, { headers: { origin: 'http://evil.test' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers 503 with Retry-After and a JSON reason when the chain is unreachable, and logs it', async () => {
    const down = await startTestApi({ rpcUrl: 'http://127.0.0.1:9' })
    try {
      const res = await getJson(`${down.url}/vesting/address/${rec.deployer}`)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', reason: 'chain_unreachable' })
      expect(down.logs.join('')).toMatch(/service unavailable/)
    } finally {
      await down.app.close()
    }
  })
})
