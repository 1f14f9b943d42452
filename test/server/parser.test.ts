import { JsonRpcProvider, type Filter } from 'ethers'
import { ImplAndTermsV1__factory, ImplAndTermsV2__factory, PlatformToken__factory } from '../../src/chain/types'
import { HolderIndex } from '../../server/parser/holders'
import { DAY } from '../../src/chain/math'
import { account, apiSession, postJson } from './harness'

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

  it('counts pool share holders exactly, after stakes and closes by several accounts', async () => {
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
      // The truth, computed independently: every account that could hold shares, read directly.
      let truth = 0
      for (let i = 0; i < 20; i++) if ((await pool.balanceOf(account(i, p).address)) > 0n) truth++
      const res = await postJson(session.api.url + HOLDERS, { address: await pool.getAddress(), network: 31337 })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ status: 'success', data: { count: truth } })
    }
  })

  it('indexes incrementally: a second count scans only the new blocks', async () => {
    const ranges: [number, number][] = []
    class Recording extends JsonRpcProvider {
      override async getLogs(filter: Parameters<JsonRpcProvider['getLogs']>[0]) {
        const f = filter as Filter
        ranges.push([Number(f.fromBlock), Number(f.toBlock)])
        return super.getLogs(filter)
      }
    }
    const rp = new Recording(process.env.CHAIN_URL!, 31337, { staticNetwork: true })
    const index = new HolderIndex(rp, rec.pools[1].address, rec.startBlock, 10)
    const head = await p.getBlockNumber()
    const first = await index.count(head)
    expect(ranges[0][0]).toBe(rec.startBlock)
    expect(ranges.at(-1)![1]).toBe(head)
    ranges.length = 0
    await p.send('evm_mine', [])
    await p.send('evm_mine', [])
    expect(await index.count(head + 2)).toBe(first)
    expect(ranges).toEqual([[head + 1, head + 2]])
    ranges.length = 0
    expect(await index.count(head + 1)).toBe(first)
    expect(ranges).toEqual([])
    rp.destroy()
  })
})
