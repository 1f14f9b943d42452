import { Wallet } from 'ethers'
import { getJson, provider, record, startTestApi } from '../support/api'
import { asExpected, fetchAllActivity, scanActivity, startIndexedApi, waitCaughtUp } from '../support/indexer'

describe('the activity and statistics routes on the seeded local chain', () => {
  let api: Awaited<ReturnType<typeof startIndexedApi>>
  beforeAll(async () => {
    api = await startIndexedApi()
    await waitCaughtUp(api, provider())
  })
  afterAll(async () => {
    await api.app.close()
  })

  it("lists each holder's activity as a full scan of the chain gives it, newest first, page by page", async () => {
    const expected = await scanActivity(provider(), record())
    expect(expected.size).toBeGreaterThan(3)
    for (const [account, list] of expected) {
      const got = await fetchAllActivity(api.url, account, 2)
      expect(got.map((i) => asExpected(account, i))).toEqual(list)
      for (const i of got) expect(new Date(i.time as string).toISOString()).toBe(i.time)
    }
  })

  it('reports how far the index has read, in each answer and in /health', async () => {
    const head = Number(await provider().send('eth_blockNumber', []))
    const r = await getJson(`${api.url}/activity/${new Wallet(Wallet.createRandom().privateKey).address}`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ items: [], next: null, indexedBlock: head, headBlock: head, lag: 0 })
    const health = await getJson(`${api.url}/health`)
    expect(health.body.index).toEqual({ block: head, lag: 0, writer: true })
  })

  it('gives each pool its statistics: the last point ends at the chain totals', async () => {
    const rec = record()
    for (const { address } of rec.pools) {
      const r = await getJson(`${api.url}/stats/pool/${address}?interval=day`)
      expect(r.status).toBe(200)
      const last = r.body.points[r.body.points.length - 1]
      expect(r.body.points.length).toBeGreaterThan(1)
      expect(new Date(last.time).getUTCHours()).toBe(0)
      const { StakingPoolBase__factory } = await import('../../src/chain/types')
      const pool = StakingPoolBase__factory.connect(address, provider())
      expect(last.totalStaked).toBe((await pool.totalStaked()).toString())
      expect(last.stakers).toBe(Number(await pool.stakersCount()))
      const staked = r.body.points.reduce((s: bigint, p: { staked: string }) => s + BigInt(p.staked), 0n)
      const closed = r.body.points.reduce((s: bigint, p: { closed: string }) => s + BigInt(p.closed), 0n)
      expect(staked - closed).toBe(await pool.totalStaked())
      const weeks = await getJson(`${api.url}/stats/pool/${address}?interval=week`)
      expect(new Date(weeks.body.points[0].time).getUTCDay()).toBe(1)
    }
  })

  it.each([
    ['/activity/0x123', /address|pattern/i],
    ['/activity/0x70997970C51812dc3A010C7d01b50e0d17dc79C9', /checksum|eip55|EIP-55/i],
    ['/activity/0x70997970c51812dc3a010c7d01b50e0d17dc79c8?limit=0', /limit/],
    ['/activity/0x70997970c51812dc3a010c7d01b50e0d17dc79c8?limit=201', /limit/],
    ['/activity/0x70997970c51812dc3a010c7d01b50e0d17dc79c8?limit=abc', /limit/],
    ['/activity/0x70997970c51812dc3a010c7d01b50e0d17dc79c8?cursor=bm90LWEtY3Vyc29y', /cursor/],
    ['/activity/0x70997970c51812dc3a010c7d01b50e0d17dc79c8?cursor=%25%25', /cursor/],
    ['/activity/0x70997970c51812dc3a010c7d01b50e0d17dc79c8?page=2', /additional|page/],
    ['/stats/pool/POOL?interval=month', /interval/],
    ['/stats/pool/POOL?from=200&to=100', /from/],
    ['/stats/pool/POOL?from=-1', /from/],
    ['/stats/pool/POOL?interval=day&from=0&to=1700000000', /1000 points/],
  ])('%s is a 400 that says why', async (url, reason) => {
    const r = await getJson(api.url + url.replace('POOL', record().pools[0].address))
    expect(r.status).toBe(400)
    expect(r.body.message).toMatch(reason)
  })

  it('a statistics request for an address that is not a pool is a 404', async () => {
    const r = await getJson(`${api.url}/stats/pool/${record().contracts.token}`)
    expect(r.status).toBe(404)
    expect(r.body.message).toMatch(/not a staking pool/)
  })

  it('a service started without the index answers 503 index_off and /health says it has none', async () => {
    const off = await startTestApi()
    try {
      const r = await getJson(`${off.url}/activity/${record().contracts.token}`)
      expect(r.status).toBe(503)
      expect(r.body.reason).toBe('index_off')
      expect((await getJson(`${off.url}/health`)).body.index).toBeNull()
    } finally {
      await off.app.close()
    }
  })
})
