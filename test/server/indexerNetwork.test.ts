import { MaxUint256, parseUnits } from 'ethers'
import { PlatformToken__factory, StakingPoolBase__factory } from '../../src/chain/types'
import { startPostgres, type RunningPostgres } from '../../scripts/lib/postgres'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { account, dedicatedChain, getJson, provider } from '../support/api'
import { asExpected, fetchAllActivity, scanActivity, startIndexedApi, waitCaughtUp } from '../support/indexer'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// Nodes, services and databases of their own: longer than the layer's 60 s a test.
jest.setTimeout(300_000)

describe('the index over a realistic network and with replicas', () => {
  let chain: Awaited<ReturnType<typeof dedicatedChain>>
  beforeAll(async () => {
    chain = await dedicatedChain()
  })
  afterAll(async () => {
    await chain.down()
  })

  const stakeOnce = async (i: number, amount: number) => {
    const p = provider(chain.url)
    const u = account(i, p)
    const pool = chain.record().pools[0].address
    const token = PlatformToken__factory.connect(chain.record().contracts.token, u)
    if ((await token.allowance(u.address, pool)) < MaxUint256 / 2n) await (await token.approve(pool, MaxUint256)).wait()
    const hold = (await StakingPoolBase__factory.connect(pool, p).getAllHarvestBonusTimeData())[0].hold
    return (
      await StakingPoolBase__factory.connect(pool, u)['stake(uint256,uint256)'](parseUnits(String(amount), 18), hold)
    ).wait()
  }

  it('150 ms of latency, a 1,000-block cap on eth_getLogs and a block every 3 s: catches up, then stays within 2 blocks', async () => {
    const p = provider(chain.url)
    // A history wider than the cap, with events spread through it.
    for (let k = 0; k < 5; k++) {
      await p.send('hardhat_mine', ['0x' + (1_500).toString(16)])
      await stakeOnce(1 + (k % 3), 10 + k)
    }
    const proxy = await startRpcProxy(chain.url, { latencyMs: 150, logsBlockCap: 1_000 })
    const api = await startIndexedApi({ ...chain.apiConfig, rpcUrl: proxy.url, indexPollMs: 1_000 })
    try {
      const head = Number(await p.send('eth_blockNumber', []))
      expect(head).toBeGreaterThan(7_500)
      await waitCaughtUp(api, p, 120_000)
      // The default range (2,000) was refused and narrowed to the node's cap.
      expect(proxy.counts.byMethod.eth_getLogs).toBeGreaterThanOrEqual(Math.ceil(head / 1_000))

      await p.send('evm_setAutomine', [false])
      await p.send('evm_setIntervalMining', [3_000])
      const lags: number[] = []
      const until = Date.now() + 16_000
      let sent = 0
      while (Date.now() < until) {
        if (sent < 3) {
          const u = account(1 + sent, p)
          const pool = StakingPoolBase__factory.connect(chain.record().pools[0].address, u)
          const hold = (await pool.getAllHarvestBonusTimeData())[0].hold
          await pool['stake(uint256,uint256)'](parseUnits('5', 18), hold)
          sent++
        }
        const [h, indexed] = await Promise.all([p.send('eth_blockNumber', []), api.app.index.indexedBlock()])
        lags.push(Number(h) - indexed)
        await sleep(500)
      }
      await p.send('evm_setIntervalMining', [0])
      await p.send('evm_setAutomine', [true])
      expect(Math.max(...lags)).toBeLessThanOrEqual(2)
      const health = await getJson(`${api.url}/health`)
      expect(health.body.index).toMatchObject({ writer: true })
      expect(health.body.index.lag).toBeLessThanOrEqual(2)

      await waitCaughtUp(api, p)
      const expected = await scanActivity(p, chain.record())
      for (const i of [1, 2, 3]) {
        const a = account(i, p).address
        expect((await fetchAllActivity(api.url, a)).map((x) => asExpected(a, x))).toEqual(expected.get(a.toLowerCase()))
      }
    } finally {
      await api.app.close()
      await proxy.stop()
    }
  })

  describe('two replicas on one PostgreSQL', () => {
    let postgres: RunningPostgres
    beforeAll(async () => {
      postgres = await startPostgres()
    })
    afterAll(async () => {
      await postgres.stop()
    })

    it('one writes, both answer the same; when the writer stops the other takes over', async () => {
      const p = provider(chain.url)
      const databaseUrl = await postgres.createDatabase('replicas')
      const a = await startIndexedApi({ ...chain.apiConfig, databaseUrl })
      const b = await startIndexedApi({ ...chain.apiConfig, databaseUrl })
      try {
        await stakeOnce(2, 7)
        await waitCaughtUp(a, p)
        await waitCaughtUp(b, p)
        expect([a.app.index.writer, b.app.index.writer].filter(Boolean)).toHaveLength(1)
        const [writer, reader] = a.app.index.writer ? [a, b] : [b, a]
        const holders = [0, 1, 2, 3, 4].map((i) => account(i, p).address)
        for (const h of holders) expect(await fetchAllActivity(reader.url, h)).toEqual(await fetchAllActivity(writer.url, h))
        const pool = chain.record().pools[0].address
        const stats = (api: typeof a) => getJson(`${api.url}/stats/pool/${pool}?interval=day`).then((r) => r.body)
        expect(await stats(reader)).toEqual(await stats(writer))

        await writer.app.close()
        const receipt = await stakeOnce(3, 8)
        await waitCaughtUp(reader, p, 20_000)
        expect(reader.app.index.writer).toBe(true)
        const mine = await fetchAllActivity(reader.url, account(3, p).address, 1)
        expect(mine[0]).toMatchObject({
          kind: 'stake',
          txHash: receipt!.hash.toLowerCase(),
          amount: parseUnits('8', 18).toString(),
        })
      } finally {
        await a.app.close()
        await b.app.close()
      }
    })
  })
})
