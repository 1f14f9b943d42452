import { MaxUint256, parseUnits } from 'ethers'
import { PlatformToken__factory, RewardHarvest__factory, StakingPoolBase__factory } from '../../src/chain/types'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { account, allocationsFile, chainNow, claimArgs, dedicatedChain, getJson, provider } from '../support/api'
import { asExpected, fetchAllActivity, scanActivity, startIndexedApi } from '../support/indexer'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// A node, a service and an index of their own, with blocks every second: longer than the layer's 60 s a test.
jest.setTimeout(240_000)

/**
 * The service behind what public load-balanced endpoints do (issue 41): half of the HTTP requests answered by a
 * backend 2 blocks behind (`latest` older, newer blocks unknown, a read pinned to one "header not found"), 10 calls a
 * second with every call of a batch counted, and a block every second.
 */
describe('the API behind a load balancer whose backends lag and count every call', () => {
  let chain: Awaited<ReturnType<typeof dedicatedChain>>
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>
  let api: Awaited<ReturnType<typeof startIndexedApi>>
  const p = () => provider(chain.url)
  const holder = 5

  beforeAll(async () => {
    chain = await dedicatedChain()
    const node = p()
    const file = allocationsFile({
      tge: (await chainNow(node)) - 86_400,
      months: 3,
      monthSeconds: 30 * 86_400,
      allocations: { [account(holder, node).address]: { round: 'Public', amount: parseUnits('90000', 18).toString() } },
    })
    proxy = await startRpcProxy(chain.url, {
      latencyMs: 20,
      jitterMs: 10,
      lag: { blocks: 2, share: 0.5 },
      rateLimit: { perSecond: 10, count: 'calls' },
      seed: 41,
    })
    await node.send('evm_setAutomine', [false])
    await node.send('evm_setIntervalMining', [1_000])
    api = await startIndexedApi({
      ...chain.apiConfig,
      allocationsFile: file,
      rpcUrl: proxy.url,
      rpcCallsPerSecond: 10,
      indexConfirmations: 2,
      indexPollMs: 500,
    })
  })
  afterAll(async () => {
    await api?.app.close()
    await proxy?.stop()
    await chain?.down()
  })

  const vesting = async () => getJson(`${api.url}/vesting/address/${account(holder, p()).address}`)

  it('never answers from behind what it has shown, says no false 503, and shows a claim from its block on', async () => {
    const seen: { block: number; claimed: bigint }[] = []
    const look = async () => {
      const r = await vesting()
      expect(r.status).toBe(200)
      seen.push({ block: Number(r.body.currentBlock), claimed: BigInt(r.body.claimed) })
      return r.body
    }
    for (let i = 0; i < 12; i++) await look()
    const offer = await look()
    expect(offer.signature).not.toBeNull()
    // The holder's wallet sends the claim through a node of its own; it lands within a block or two.
    const harvest = RewardHarvest__factory.connect(chain.record().contracts.harvest, account(holder, p()))
    const receipt = (await (await harvest.harvest(...claimArgs(offer))).wait())!
    const until = Date.now() + 20_000
    while (Date.now() < until) {
      const body = await look()
      if (Number(body.currentBlock) > receipt.blockNumber + 2) break
      await sleep(150)
    }
    // Heads and claimed totals never go back; every answer at or after the claim's block shows it.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].block).toBeGreaterThanOrEqual(seen[i - 1].block)
      expect(seen[i].claimed).toBeGreaterThanOrEqual(seen[i - 1].claimed)
    }
    const after = seen.filter((s) => s.block >= receipt.blockNumber)
    expect(after.length).toBeGreaterThan(0)
    for (const s of after) expect(s.claimed).toBe(BigInt(offer.unlocked))
    // The lagging backends did answer (the test would prove nothing otherwise), and none of it read as a reorg.
    expect(proxy.counts.lagged).toBeGreaterThan(10)
    expect(api.logs.join('')).not.toMatch(/reorg|new genesis/)
  })

  it('indexes every event once with no rollback for lag, within the calls a second the endpoint allows', async () => {
    const node = p()
    const pool = chain.record().pools[0].address
    for (const i of [1, 2, 3]) {
      const u = account(i, node)
      await (await PlatformToken__factory.connect(chain.record().contracts.token, u).approve(pool, MaxUint256)).wait()
      const staking = StakingPoolBase__factory.connect(pool, u)
      const hold = (await staking.getAllHarvestBonusTimeData())[0].hold
      await (await staking['stake(uint256,uint256)'](parseUnits(String(10 + i), 18), hold)).wait()
    }
    const last = await node.getBlockNumber()
    // The index stays 2 blocks behind the newest head; the blocks keep coming every second.
    const until = Date.now() + 60_000
    for (;;) {
      const tip = await api.app.index.tip()
      if (tip.number >= last) {
        const canonical = await node.send('eth_getBlockByNumber', ['0x' + tip.number.toString(16), false])
        expect(tip.hash).toBe(canonical.hash)
        break
      }
      if (Date.now() > until) throw new Error(`index stuck at ${tip.number}, events up to ${last}`)
      await sleep(250)
    }
    await node.send('evm_setIntervalMining', [0])
    await node.send('evm_setAutomine', [true])
    const expected = await scanActivity(node, chain.record())
    for (const i of [1, 2, 3, holder]) {
      const a = account(i, node).address
      expect((await fetchAllActivity(api.url, a)).map((x) => asExpected(a, x))).toEqual(expected.get(a.toLowerCase()) ?? [])
    }
    expect(api.logs.join('')).not.toMatch(/events above the fork dropped|reading from the start|cached answers dropped/)
    // The service kept within the limit: the proxy refused none of its requests.
    expect(proxy.counts.limited).toBe(0)
  })
})
