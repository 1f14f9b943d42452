import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemWith } from './fixtures'
import { jamFactory } from './helpers'
import { DAY, ONE } from '../../src/domain/math'
import { BrokenPool__factory, PoolsInfo__factory, Reservoir__factory, StakingPoolFactory__factory } from '../../src/chain/types'
import { V1_PARAMS, DEFAULT_TERMS } from '../../scripts/lib/system'

const MAX = ethers.MaxUint256
/** BrokenPool's modes, in the contract's order. */
const BROKEN = { Revert: 0, Garbage: 1, NotAToken: 2, BurnGas: 3 } as const

/** The system, plus one broken "pool" of each kind (deployed, not registered) and a config for new real pools. */
async function deployRegistryFixture() {
  const sys = await deploySystemWith()
  const tokenAddr = await sys.token.getAddress()
  const broken = await Promise.all(
    Object.values(BROKEN).map((mode) => new BrokenPool__factory(sys.owner).deploy(mode, tokenAddr)),
  )
  const poolConfig = {
    implementation: await sys.implV1.getAddress(),
    name: 'n',
    symbol: 's',
    stakeToken: tokenAddr,
    reservoir: await sys.reservoir.getAddress(),
    harvest: await sys.harvest.getAddress(),
    params: V1_PARAMS,
    terms: DEFAULT_TERMS,
  }
  return { ...sys, broken, poolConfig }
}

describe('PlatformToken', () => {
  it('has 18 decimals and only the owner mints', async () => {
    const { token, users, owner } = await loadFixture(deployRegistryFixture)
    expect(await token.decimals()).to.equal(18n)
    await expect(token.connect(users[0]).mint(users[0].address, 1n)).to.be.revertedWithCustomError(
      token,
      'OwnableUnauthorizedAccount',
    )
    await expect(token.connect(owner).mint(users[0].address, 1n)).to.changeTokenBalance(token, users[0], 1n)
  })
})

describe('Reservoir', () => {
  it('lets only its owner approve pools and withdraw, and reports what a pool can draw', async () => {
    const { reservoir, token, users, owner, poolV1 } = await loadFixture(deployRegistryFixture)
    const t = await token.getAddress()
    await expect(reservoir.connect(users[0]).approvePool(t, users[0].address, 1n)).to.be.revertedWithCustomError(
      reservoir,
      'OwnableUnauthorizedAccount',
    )
    await expect(reservoir.connect(users[0]).withdraw(t, users[0].address, 1n)).to.be.revertedWithCustomError(
      reservoir,
      'OwnableUnauthorizedAccount',
    )
    await expect(reservoir.approvePool(t, ethers.ZeroAddress, 1n)).to.be.revertedWithCustomError(reservoir, 'ZeroAddress')
    await expect(reservoir.withdraw(t, ethers.ZeroAddress, 1n)).to.be.revertedWithCustomError(reservoir, 'ZeroAddress')
    await expect(reservoir.approvePool(t, await poolV1.getAddress(), 5n * ONE))
      .to.emit(reservoir, 'PoolApproved')
      .withArgs(t, await poolV1.getAddress(), 5n * ONE)
    expect(await reservoir.available(t, await poolV1.getAddress())).to.equal(5n * ONE)
    const balance = await token.balanceOf(await reservoir.getAddress())
    const tx = reservoir.withdraw(t, owner.address, balance - ONE)
    await expect(tx)
      .to.emit(reservoir, 'Withdrawn')
      .withArgs(t, owner.address, balance - ONE)
    await expect(tx).to.changeTokenBalances(token, [reservoir, owner], [-(balance - ONE), balance - ONE])
    expect(await reservoir.available(t, await poolV1.getAddress())).to.equal(ONE)
    expect((await poolV1.getPoolState()).reservoirAvailable).to.equal(ONE)
  })
})

describe('PoolsInfo', () => {
  it('registers pool 0 = version 2 and pool 1 = version 1, both listed', async () => {
    const { poolsInfo, poolV1, poolV2, factory, token, implV1, implV2 } = await loadFixture(deployRegistryFixture)
    expect(await poolsInfo.getPoolsLength()).to.equal(2n)
    const p0 = await poolsInfo.getPools(0)
    expect(p0.pool).to.equal(await poolV2.getAddress())
    expect(p0.implAndTerms).to.equal(await implV2.getAddress())
    expect(p0.factory).to.equal(await factory.getAddress())
    expect(p0.stakeToken).to.equal(await token.getAddress())
    expect(p0.listed).to.equal(true)
    expect((await poolsInfo.getPools(1)).pool).to.equal(await poolV1.getAddress())
    expect((await poolsInfo.getPools(1)).implAndTerms).to.equal(await implV1.getAddress())
    expect((await poolsInfo.getAllPools()).map((p) => p.listed)).to.deep.equal([true, true])
    expect(await poolsInfo.isPool(await poolV1.getAddress())).to.equal(true)
    expect(await poolsInfo.isListed(await poolV1.getAddress())).to.equal(true)
    await expect(poolsInfo.getPools(2)).to.be.revertedWithCustomError(poolsInfo, 'PoolNotFound').withArgs(2)
  })

  it('lets only whitelisted factories add pools they made, and only the owner whitelist', async () => {
    const { poolsInfo, users, owner, poolV1, token } = await loadFixture(deployRegistryFixture)
    const [a, b] = users
    const t = await token.getAddress()
    await expect(poolsInfo.connect(a).setWhitelisted(a.address, true)).to.be.revertedWithCustomError(
      poolsInfo,
      'OwnableUnauthorizedAccount',
    )
    await expect(poolsInfo.connect(a).addPool(a.address, b.address, b.address, b.address))
      .to.be.revertedWithCustomError(poolsInfo, 'NotWhitelisted')
      .withArgs(a.address)
    await expect(poolsInfo.connect(owner).setWhitelisted(ethers.ZeroAddress, true)).to.be.revertedWithCustomError(
      poolsInfo,
      'ZeroAddress',
    )
    await expect(poolsInfo.connect(owner).setWhitelisted(a.address, true))
      .to.emit(poolsInfo, 'WhitelistChanged')
      .withArgs(a.address, true)
    expect(await poolsInfo.whitelist(a.address)).to.equal(true)
    // A whitelisted account that made nothing: no address without code, nothing it cannot vouch for, nothing in
    // another factory's name.
    await expect(poolsInfo.connect(a).addPool(a.address, b.address, t, b.address))
      .to.be.revertedWithCustomError(poolsInfo, 'NotCreatedByFactory')
      .withArgs(b.address, a.address)
    await expect(poolsInfo.connect(a).addPool(a.address, t, t, t))
      .to.be.revertedWithCustomError(poolsInfo, 'NotCreatedByFactory')
      .withArgs(t, a.address)
    await expect(poolsInfo.connect(a).addPool(b.address, t, t, t))
      .to.be.revertedWithCustomError(poolsInfo, 'NotTheFactory')
      .withArgs(b.address, a.address)
    // A factory (here one that vouches for anything) adds what has code, once.
    const jam = await jamFactory(owner, poolsInfo)
    const j = await jam.getAddress()
    await expect(jam.register(t, t)).to.emit(poolsInfo, 'PoolAdded').withArgs(2, j, t, t, j)
    await expect(jam.register(t, t)).to.be.revertedWithCustomError(poolsInfo, 'PoolAlreadyAdded').withArgs(t)
    await expect(jam.register(await poolV1.getAddress(), t)).to.be.revertedWithCustomError(poolsInfo, 'PoolAlreadyAdded')
    await expect(jam.register(ethers.ZeroAddress, t)).to.be.revertedWithCustomError(poolsInfo, 'ZeroAddress')
    await expect(jam.register(j, ethers.ZeroAddress)).to.be.revertedWithCustomError(poolsInfo, 'ZeroAddress')
    await expect(jam.register(users[2].address, t)).to.be.revertedWithCustomError(poolsInfo, 'NotCreatedByFactory')
    await poolsInfo.connect(owner).setWhitelisted(j, false)
    await expect(jam.register(j, t)).to.be.revertedWithCustomError(poolsInfo, 'NotWhitelisted').withArgs(j)
  })

  it('lets only the owner delist and relist a pool, which stays readable by id', async () => {
    const { poolsInfo, users, poolV1 } = await loadFixture(deployRegistryFixture)
    const pool = await poolV1.getAddress()
    await expect(poolsInfo.connect(users[0]).setListed(1, false))
      .to.be.revertedWithCustomError(poolsInfo, 'OwnableUnauthorizedAccount')
      .withArgs(users[0].address)
    await expect(poolsInfo.setListed(2, false)).to.be.revertedWithCustomError(poolsInfo, 'PoolNotFound').withArgs(2)
    await expect(poolsInfo.setListed(1, false)).to.emit(poolsInfo, 'PoolListingChanged').withArgs(1, pool, false)
    expect(await poolsInfo.isListed(pool)).to.equal(false)
    expect(await poolsInfo.isPool(pool)).to.equal(true)
    expect((await poolsInfo.getPools(1)).listed).to.equal(false)
    expect((await poolsInfo.getPools(1)).pool).to.equal(pool)
    expect(await poolsInfo.isListed(await (await poolsInfo.getPools(0)).pool)).to.equal(true)
    // An address never registered is not listed (its id would read as pool 0's).
    expect(await poolsInfo.isListed(users[1].address)).to.equal(false)
    await expect(poolsInfo.setListed(1, true)).to.emit(poolsInfo, 'PoolListingChanged').withArgs(1, pool, true)
    expect(await poolsInfo.isListed(pool)).to.equal(true)
  })
})

describe('StakingPoolFactory', () => {
  it('lets only its owner create pools, needs an implementation, and remembers the pools it made', async () => {
    const { factory, users, implV1, owner, poolV1, poolV2, poolsInfo, poolConfig } = await loadFixture(deployRegistryFixture)
    expect(await factory.poolsInfo()).to.equal(await poolsInfo.getAddress())
    expect(await factory.isPoolCreated(await poolV1.getAddress())).to.equal(true)
    expect(await factory.isPoolCreated(await poolV2.getAddress())).to.equal(true)
    expect(await factory.isPoolCreated(users[0].address)).to.equal(false)
    expect(await factory.isPoolCreated(await implV1.getAddress())).to.equal(false)
    await expect(factory.connect(users[0]).createPool(poolConfig)).to.be.revertedWithCustomError(
      factory,
      'OwnableUnauthorizedAccount',
    )
    await expect(factory.createPool({ ...poolConfig, implementation: ethers.ZeroAddress })).to.be.revertedWithCustomError(
      factory,
      'ZeroAddress',
    )
    await expect(factory.createPool({ ...poolConfig, reservoir: ethers.ZeroAddress })).to.be.revertedWithCustomError(
      implV1,
      'ZeroAddress',
    )
    const [pool, id] = await factory.createPool.staticCall(poolConfig)
    await expect(factory.createPool(poolConfig))
      .to.emit(factory, 'PoolCreated')
      .withArgs(id, pool, await implV1.getAddress(), poolConfig.stakeToken)
    expect(id).to.equal(2n)
    expect(await factory.isPoolCreated(pool)).to.equal(true)
    expect(await poolsInfo.isListed(pool)).to.equal(true)
    const created = await ethers.getContractAt('ImplAndTermsV1', pool)
    expect(await created.owner()).to.equal(owner.address)
    expect(await created.version()).to.equal(1n)
    await expect(new StakingPoolFactory__factory(owner).deploy(ethers.ZeroAddress, owner.address)).to.be.revertedWithCustomError(
      factory,
      'ZeroAddress',
    )
    expect(await new PoolsInfo__factory(owner).deploy(owner.address)).to.not.equal(undefined)
    expect(await new Reservoir__factory(owner).deploy(owner.address)).to.not.equal(undefined)
  })
})

describe('Lens', () => {
  it('reads the whole pool page in one call, for a visitor and for a user', async () => {
    const { lens, poolsInfo, poolV1, users, token } = await loadFixture(deployRegistryFixture)
    await poolV1.connect(users[0])['stake(uint256,uint256)'](10n * ONE, 30n * DAY)
    const anon = await lens.getPoolData(await poolV1.getAddress(), ethers.ZeroAddress)
    expect(anon.tokenSymbol).to.equal('PLT')
    expect(anon.tokenName).to.equal('Platform Token')
    expect(anon.tokenDecimals).to.equal(18n)
    expect(anon.walletStakeTokenBalance).to.equal(0n)
    expect(anon.userStakesCount).to.equal(0n)
    expect(anon.poolId).to.equal(MAX)
    expect(anon.state.version).to.equal(1n)
    expect(anon.state).to.deep.equal(await poolV1.getPoolState())
    const d = await lens.getPoolDataById(await poolsInfo.getAddress(), 1, users[0].address)
    expect(d.poolId).to.equal(1n)
    expect(d.pool).to.equal(await poolV1.getAddress())
    expect(d.allUserStakesAmount).to.equal(10n * ONE)
    expect(d.userStakesCount).to.equal(1n)
    expect(d.userShares).to.equal(await poolV1.balanceOf(users[0].address))
    expect(d.walletStakeTokenBalance).to.equal(await token.balanceOf(users[0].address))
    expect(d.allowance).to.equal(MAX)
    expect(d.harvestTerms.length).to.equal(3)
    expect(d.state.stakersCount).to.equal(1n)
    await expect(lens.getPoolDataById(await poolsInfo.getAddress(), 2, users[0].address))
      .to.be.revertedWithCustomError(poolsInfo, 'PoolNotFound')
      .withArgs(2)
    const all = await lens.getPoolsDataFromPoolInfo(await poolsInfo.getAddress(), users[0].address)
    expect(all.map((p) => p.poolId)).to.deep.equal([0n, 1n])
    expect(all.map((p) => p.state.version)).to.deep.equal([2n, 1n])
    const two = await lens.getPoolsData([await poolV1.getAddress()], users[0].address)
    expect(two[0].state.totalStaked).to.equal(d.state.totalStaked)
  })

  it('lists only listed pools, with their registry ids', async () => {
    const { lens, poolsInfo, factory, poolConfig, users } = await loadFixture(deployRegistryFixture)
    await factory.createPool(poolConfig)
    await poolsInfo.setListed(1, false)
    const info = await poolsInfo.getAddress()
    expect((await lens.getPoolsDataFromPoolInfo(info, users[0].address)).map((p) => p.poolId)).to.deep.equal([0n, 2n])
    await poolsInfo.setListed(0, false)
    await poolsInfo.setListed(2, false)
    expect(await lens.getPoolsDataFromPoolInfo(info, users[0].address)).to.deep.equal([])
    await poolsInfo.setListed(1, true)
    expect((await lens.getPoolsDataFromPoolInfo(info, ethers.ZeroAddress)).map((p) => p.poolId)).to.deep.equal([1n])
    // A delisted pool stays readable by id.
    expect((await lens.getPoolDataById(info, 2, users[0].address)).poolId).to.equal(2n)
  })

  for (const [name, mode] of Object.entries(BROKEN)) {
    it(`lists every other pool when a registered pool fails its reads (${name})`, async () => {
      const { lens, poolsInfo, factory, poolConfig, users, owner, broken } = await loadFixture(deployRegistryFixture)
      const bad = broken[mode]
      // A whitelisted caller other than the factory (one that lies about what it made) registers the bad pool between
      // good ones.
      const badAddr = await bad.getAddress()
      await (await jamFactory(owner, poolsInfo)).register(badAddr, poolConfig.stakeToken)
      for (let i = 0; i < 3; i++) await factory.createPool(poolConfig)
      await expect(lens.getPoolData(badAddr, users[0].address)).to.be.reverted
      const info = await poolsInfo.getAddress()
      // Within the gas a wallet or provider gives one call (a bad pool that burns all the gas it is given must not
      // take the others with it: its read gets a bounded share).
      const all = await lens.getPoolsDataFromPoolInfo(info, users[0].address, { gasLimit: 3_000_000n })
      expect(all.map((p) => p.poolId)).to.deep.equal([0n, 1n, 3n, 4n, 5n])
      expect(all.map((p) => p.state.version)).to.deep.equal([2n, 1n, 1n, 1n, 1n])
    })
  }

  it('lists active stakes and those closed less than six months ago, with their figures', async () => {
    const { lens, poolV2, users } = await loadFixture(deployRegistryFixture)
    const pool = await poolV2.getAddress()
    const u = users[1]
    for (let i = 0; i < 4; i++) await poolV2.connect(u)['stake(uint256,uint256)'](BigInt(i + 1) * ONE, 30n * DAY)
    await poolV2.connect(u).unstake([0])
    await time.increase(181n * DAY)
    await poolV2.connect(u).unstake([1])
    const active = await lens.getAllUnstakeDataForActiveStakes(pool, u.address)
    expect(active.map((i) => i.stakeId).sort()).to.deep.equal([2n, 3n])
    const recent = await lens.getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth(pool, u.address)
    expect(
      recent
        .map((i) => i.stakeId)
        .slice(0, 2)
        .sort(),
    ).to.deep.equal([2n, 3n])
    expect(recent.map((i) => i.stakeId).slice(2)).to.deep.equal([1n])
    expect(recent[2].stake.active).to.equal(false)
    expect(recent[2]).to.deep.equal(await poolV2.getStakeInfo(u.address, 1))
    const one = await lens.getUnstakeData(pool, u.address, 2)
    const info = await poolV2.getStakeInfo(u.address, 2)
    expect(one).to.deep.equal([2n, info.amountOut, info.fee, info.forfeited])
  })

  it('pages a user stakes with next until the end, at any offset and limit up to 2^256-1', async () => {
    const { lens, poolV1, users } = await loadFixture(deployRegistryFixture)
    const pool = await poolV1.getAddress()
    const u = users[2]
    for (let i = 0; i < 7; i++) await poolV1.connect(u)['stake(uint256,uint256)'](BigInt(i + 1) * ONE, DAY)
    await time.increase(DAY)
    await poolV1.connect(u).unstake([0, 1])
    await time.increase(181n * DAY)
    await poolV1.connect(u).unstake([4])
    // Visible: 5 active, then the close of stake 4; stakes 0 and 1 closed more than six months ago.
    const seen: bigint[] = []
    let offset = 0n
    let pages = 0
    while (offset !== MAX) {
      const [infos, next] = await lens.getUnstakeDataPage(pool, u.address, offset, 2)
      seen.push(...infos.map((i) => i.stakeId))
      offset = next
      pages++
    }
    expect(seen.slice(0, 4).sort()).to.deep.equal([2n, 3n, 5n, 6n])
    expect(seen.slice(4)).to.deep.equal([4n])
    expect(pages).to.equal(3)
    const [whole, end] = await lens.getUnstakeDataPage(pool, u.address, 0, MAX)
    expect(whole.map((i) => i.stakeId)).to.deep.equal(seen)
    expect(end).to.equal(MAX)
    const [fromOne, next1] = await lens.getUnstakeDataPage(pool, u.address, 1, MAX)
    expect(fromOne.map((i) => i.stakeId)).to.deep.equal(seen.slice(1))
    expect(next1).to.equal(MAX)
    expect(await lens.getUnstakeDataPage(pool, u.address, MAX, MAX)).to.deep.equal([[], MAX])
    expect(await lens.getUnstakeDataPage(pool, u.address, MAX, 1)).to.deep.equal([[], MAX])
    expect(await lens.getUnstakeDataPage(pool, users[3].address, 0, MAX)).to.deep.equal([[], MAX])
  })
})
