import { ImplAndTermsV1__factory, ImplAndTermsV2__factory, PlatformToken__factory } from '../../src/chain/types'
import { DAY } from '../../src/domain/math'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { account, apiSession, getJson, postJson, startTestApi } from '../support/api'

const ABI = '/contract-parser/api/contract/abi'
const MULTI = '/contract-parser/api/contract/multipleAbi'
const HOLDERS = '/contract-parser/api/contract/token-holders'

describe('contract-parser API against a real node', () => {
  const session = apiSession()
  const { p, rec } = session

  it('serves the ABI of each deployed contract, and of a pool clone its implementation', async () => {
    const harvest = await postJson(session.api.url + ABI, { address: rec.contracts.harvest, network: 31337 })
    expect(harvest.status).toBe(200)
    expect(harvest.body.status).toBe('success')
    expect(harvest.body.data.map((f: { name?: string }) => f.name)).toEqual(
      expect.arrayContaining(['harvest', 'harvestStake', 'getLastBlock']),
    )
    const pool = await postJson(session.api.url + ABI, { address: rec.pools[1].address.toLowerCase(), network: '31337' })
    expect(pool.body.name).toBe('ImplAndTermsV1')
    const multi = await postJson(session.api.url + MULTI, { address: [rec.contracts.lens, rec.pools[0].address], network: 31337 })
    expect(multi.status).toBe(200)
    expect(multi.body.data.map((d: { name: string }) => d.name)).toEqual(['Lens', 'ImplAndTermsV2'])
    expect(multi.body.data[0].abi.some((f: { name?: string }) => f.name === 'getPoolsDataFromPoolInfo')).toBe(true)
  })

  it('answers 404 JSON for an unknown address', async () => {
    const stranger = account(12, p).address
    const one = await postJson(session.api.url + ABI, { address: stranger, network: 31337 })
    expect(one.status).toBe(404)
    expect(one.body.message).toContain(stranger)
    const multi = await postJson(session.api.url + MULTI, { address: [rec.contracts.lens, stranger], network: 31337 })
    expect(multi.status).toBe(404)
    expect((await postJson(session.api.url + HOLDERS, { address: rec.contracts.lens, network: 31337 })).status).toBe(404)
  })

  it("counts each pool's stakers from the chain exactly, after stakes and closes by several accounts", async () => {
    const owner = account(0, p)
    const token = PlatformToken__factory.connect(rec.contracts.token, owner)
    const v1 = ImplAndTermsV1__factory.connect(rec.pools[1].address, p)
    const v2 = ImplAndTermsV2__factory.connect(rec.pools[0].address, p)
    // Accounts #10-#14: fund, approve, stake in both pools; then some close everything.
    for (let i = 10; i < 15; i++) {
      const u = account(i, p)
      await (await token.mint(u.address, 10n ** 22n)).wait()
      await (await token.connect(u).approve(await v1.getAddress(), 10n ** 22n)).wait()
      await (await token.connect(u).approve(await v2.getAddress(), 10n ** 22n)).wait()
      await (await v1.connect(u)['stake(uint256,uint256)'](10n ** 20n, 30n * DAY)).wait()
      await (await v2.connect(u)['stake(uint256,uint256)'](10n ** 20n, 30n * DAY)).wait()
    }
    for (const i of [10, 12]) await (await v1.connect(account(i, p)).unstake([0])).wait()
    await (await v2.connect(account(13, p)).unstake([0])).wait()

    for (const pool of [v1, v2]) {
      // The truth, computed independently: every account that could stake, with at least one active stake.
      let truth = 0
      for (let i = 0; i < 20; i++) if ((await pool.getUserActiveStakesCount(account(i, p).address)) > 0n) truth++
      const res = await postJson(session.api.url + HOLDERS, { address: await pool.getAddress(), network: 31337 })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ status: 'success', data: { count: truth, block: await p.getBlockNumber() } })
    }
  })

  it('reads the count once per block, however many ask: one shared eth_call, no log scan', async () => {
    const proxy = await startRpcProxy(process.env.CHAIN_URL!)
    const api = await startTestApi({ rpcUrl: proxy.url, blockCacheMs: 60_000 })
    try {
      const body = { address: rec.pools[1].address, network: 31337 }
      await postJson(api.url + HOLDERS, body)
      proxy.reset()
      const answers = await Promise.all(Array.from({ length: 30 }, () => postJson(api.url + HOLDERS, body)))
      expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1)
      expect(proxy.counts.calls).toBe(0)
      expect(proxy.counts.byMethod.eth_getLogs).toBeUndefined()
      // A new block: one head read and one count read for all of them.
      await p.send('evm_mine', [])
      const fresh = await startTestApi({ rpcUrl: proxy.url, blockCacheMs: 0 })
      try {
        await getJson(fresh.url + '/health')
        proxy.reset()
        await Promise.all(Array.from({ length: 30 }, () => postJson(fresh.url + HOLDERS, body)))
        expect(proxy.counts.byMethod.eth_call).toBe(1)
      } finally {
        await fresh.app.close()
      }
    } finally {
      await api.app.close()
      await proxy.stop()
    }
  })
})
