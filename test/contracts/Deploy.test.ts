import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { JsonRpcProvider } from 'ethers'
import { freePort, runHardhatScript, startHardhatNode, type RunningNode } from '../../scripts/lib/node'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import {
  Lens__factory,
  PoolsInfo__factory,
  RewardHarvest__factory,
  PlatformToken__factory,
  TimelockController__factory,
} from '../../src/chain/types'

const ACCOUNT_0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const ACCOUNT_9 = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

describe('scripts/deploy.ts on a real node', function () {
  this.timeout(180_000)
  let node: RunningNode
  let record: DeploymentRecord
  let provider: JsonRpcProvider
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deployments-'))

  before(async () => {
    node = await startHardhatNode(await freePort(), {
      HARDHAT_INITIAL_DATE: new Date(Date.now() - 60 * 86_400_000).toISOString(),
    })
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir }, { quiet: true })
    record = JSON.parse(fs.readFileSync(path.join(dir, '31337.json'), 'utf8'))
    provider = new JsonRpcProvider(node.url, undefined, { cacheTimeout: -1 })
  })
  after(async () => {
    provider?.destroy()
    await node?.stop()
  })

  it('writes a record whose addresses are the wired contracts', async () => {
    expect(record.chainId).to.equal(31337)
    expect(record.defaultPoolId).to.equal(1)
    expect(record.vestingSigner).to.equal(ACCOUNT_9)
    const info = PoolsInfo__factory.connect(record.contracts.poolsInfo, provider)
    expect((await info.getPools(0)).pool).to.equal(record.pools[0].address)
    expect((await info.getPools(1)).pool).to.equal(record.pools[1].address)
    expect(await info.whitelist(record.contracts.factory)).to.equal(true)
    const harvest = RewardHarvest__factory.connect(record.contracts.harvest, provider)
    expect(await harvest.trustedSigners(record.contracts.token, ACCOUNT_9)).to.equal(true)
    const token = PlatformToken__factory.connect(record.contracts.token, provider)
    expect(await token.balanceOf(record.contracts.harvest)).to.be.greaterThan(0n)
    expect(record.startBlock).to.be.greaterThan(0)
  })

  it('seeds pool 1 = version 1 with a mix of stakes for account #0, and a clock at the wall time', async () => {
    const lens = Lens__factory.connect(record.contracts.lens, provider)
    const data = await lens.getPoolDataById(record.contracts.poolsInfo, 1, ACCOUNT_0)
    expect(data.state.version).to.equal(1n)
    expect(data.allowance).to.equal(0n)
    const stakes = await lens.getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth(record.pools[1].address, ACCOUNT_0)
    const latest = (await provider.getBlock('latest'))!.timestamp
    const active = stakes.filter((s) => s.stake.active)
    const matured = active.filter((s) => Number(s.stake.stakeTime + s.stake.holdTime) <= latest)
    expect(active.length).to.equal(3)
    expect(matured.length).to.equal(1)
    expect(stakes.filter((s) => !s.stake.active).length).to.equal(2)
    expect(Math.abs(latest - Date.now() / 1000)).to.be.lessThan(3600)
    const v2 = await lens.getPoolDataById(record.contracts.poolsInfo, 0, ACCOUNT_0)
    expect(v2.state.version).to.equal(2n)
    expect(v2.state.totalShares).to.be.greaterThan(0n)
  })
})

describe('scripts/deploy.ts with TIMELOCK=1 (what it does on every real network)', function () {
  this.timeout(180_000)
  let node: RunningNode
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deployments-'))
  after(async () => node?.stop())

  it('ends with a 48 h TimelockController owning pools, registry, factory, harvest, reservoir and token', async () => {
    node = await startHardhatNode(await freePort(), {
      HARDHAT_INITIAL_DATE: new Date(Date.now() - 60 * 86_400_000).toISOString(),
    })
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir, TIMELOCK: '1' }, { quiet: true })
    const record: DeploymentRecord = JSON.parse(fs.readFileSync(path.join(dir, '31337.json'), 'utf8'))
    const provider = new JsonRpcProvider(node.url, undefined, { cacheTimeout: -1 })
    try {
      expect(record.timelock).to.match(/^0x[0-9a-fA-F]{40}$/)
      const timelock = TimelockController__factory.connect(record.timelock!, provider)
      expect(await timelock.getMinDelay()).to.equal(48n * 3600n)
      const owned = [
        record.pools[0].address,
        record.pools[1].address,
        record.contracts.poolsInfo,
        record.contracts.factory,
        record.contracts.harvest,
        record.contracts.reservoir,
        record.contracts.token,
      ]
      for (const a of owned) expect(await PoolsInfo__factory.connect(a, provider).owner(), a).to.equal(record.timelock)
    } finally {
      provider.destroy()
    }
  })
})
