import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemFixture } from './fixtures'
import { DAY, ONE } from '../../src/chain/math'
import { PoolsInfo__factory, Reservoir__factory, StakingPoolFactory__factory } from '../../src/chain/types'
import { V1_PARAMS, DEFAULT_TERMS } from '../../scripts/lib/system'

describe('PlatformToken', () => {
  it('has 18 decimals and only the owner mints', async () => {
    const { token, users, owner } = await loadFixture(deploySystemFixture)
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
    const { reservoir, token, users, owner, poolV1 } = await loadFixture(deploySystemFixture)
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
    await expect(reservoir.withdraw(t, owner.address, balance - ONE)).to.emit(reservoir, 'Withdrawn')
    expect(await reservoir.available(t, await poolV1.getAddress())).to.equal(ONE)
    expect((await poolV1.getPoolState()).reservoirAvailable).to.equal(ONE)
  })
})

describe('PoolsInfo', () => {
  it('registers pool 0 = version 2 and pool 1 = version 1', async () => {
    const { poolsInfo, poolV1, poolV2, factory, token, implV1, implV2 } = await loadFixture(deploySystemFixture)
    expect(await poolsInfo.getPoolsLength()).to.equal(2n)
    const p0 = await poolsInfo.getPools(0)
    expect(p0.pool).to.equal(await poolV2.getAddress())
    expect(p0.implAndTerms).to.equal(await implV2.getAddress())
    expect(p0.factory).to.equal(await factory.getAddress())
    expect(p0.stakeToken).to.equal(await token.getAddress())
    expect((await poolsInfo.getPools(1)).pool).to.equal(await poolV1.getAddress())
    expect((await poolsInfo.getPools(1)).implAndTerms).to.equal(await implV1.getAddress())
    expect((await poolsInfo.getAllPools()).length).to.equal(2)
    expect(await poolsInfo.isPool(await poolV1.getAddress())).to.equal(true)
    await expect(poolsInfo.getPools(2)).to.be.revertedWithCustomError(poolsInfo, 'PoolNotFound').withArgs(2)
  })

  it('lets only whitelisted callers add pools and only the owner whitelist', async () => {
    const { poolsInfo, users, owner, poolV1 } = await loadFixture(deploySystemFixture)
    const [a, b] = users
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
    await expect(poolsInfo.connect(a).addPool(a.address, b.address, b.address, b.address))
      .to.emit(poolsInfo, 'PoolAdded')
      .withArgs(2, a.address, b.address, b.address, b.address)
    await expect(poolsInfo.connect(a).addPool(a.address, b.address, b.address, b.address)).to.be.revertedWithCustomError(
      poolsInfo,
      'PoolAlreadyAdded',
    )
    await expect(
      poolsInfo.connect(a).addPool(a.address, await poolV1.getAddress(), b.address, b.address),
    ).to.be.revertedWithCustomError(poolsInfo, 'PoolAlreadyAdded')
    await expect(poolsInfo.connect(a).addPool(a.address, ethers.ZeroAddress, b.address, b.address)).to.be.revertedWithCustomError(
      poolsInfo,
      'ZeroAddress',
    )
  })
})

describe('StakingPoolFactory', () => {
  it('lets only its owner create pools, and needs an implementation', async () => {
    const { factory, users, implV1, token, reservoir, harvest, owner } = await loadFixture(deploySystemFixture)
    const config = {
      implementation: await implV1.getAddress(),
      name: 'n',
      symbol: 's',
      stakeToken: await token.getAddress(),
      reservoir: await reservoir.getAddress(),
      harvest: await harvest.getAddress(),
      params: V1_PARAMS,
      terms: DEFAULT_TERMS,
    }
    await expect(factory.connect(users[0]).createPool(config)).to.be.revertedWithCustomError(
      factory,
      'OwnableUnauthorizedAccount',
    )
    await expect(factory.createPool({ ...config, implementation: ethers.ZeroAddress })).to.be.revertedWithCustomError(
      factory,
      'ZeroAddress',
    )
    await expect(factory.createPool({ ...config, reservoir: ethers.ZeroAddress })).to.be.revertedWithCustomError(
      implV1,
      'ZeroAddress',
    )
    await expect(factory.createPool(config)).to.emit(factory, 'PoolCreated')
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
    const { lens, poolsInfo, poolV1, users, token } = await loadFixture(deploySystemFixture)
    await poolV1.connect(users[0])['stake(uint256,uint256)'](10n * ONE, 30n * DAY)
    const anon = await lens.getPoolData(await poolV1.getAddress(), ethers.ZeroAddress)
    expect(anon.tokenSymbol).to.equal('PLT')
    expect(anon.tokenName).to.equal('Platform Token')
    expect(anon.tokenDecimals).to.equal(18n)
    expect(anon.walletStakeTokenBalance).to.equal(0n)
    expect(anon.state.version).to.equal(1n)
    const d = await lens.getPoolDataById(await poolsInfo.getAddress(), 1, users[0].address)
    expect(d.poolId).to.equal(1n)
    expect(d.allUserStakesAmount).to.equal(10n * ONE)
    expect(d.userStakesCount).to.equal(1n)
    expect(d.userShares).to.equal(await poolV1.balanceOf(users[0].address))
    expect(d.walletStakeTokenBalance).to.equal(await token.balanceOf(users[0].address))
    expect(d.allowance).to.equal(ethers.MaxUint256)
    expect(d.harvestTerms.length).to.equal(3)
    const all = await lens.getPoolsDataFromPoolInfo(await poolsInfo.getAddress(), users[0].address)
    expect(all.map((p) => p.poolId)).to.deep.equal([0n, 1n])
    expect(all.map((p) => p.state.version)).to.deep.equal([2n, 1n])
    const two = await lens.getPoolsData([await poolV1.getAddress()], users[0].address)
    expect(two[0].state.totalStaked).to.equal(d.state.totalStaked)
  })

  it('lists active stakes and those closed less than six months ago, with their figures', async () => {
    const { lens, poolV2, users } = await loadFixture(deploySystemFixture)
    const pool = await poolV2.getAddress()
    const u = users[1]
    for (let i = 0; i < 4; i++) await poolV2.connect(u)['stake(uint256,uint256)'](BigInt(i + 1) * ONE, 30n * DAY)
    await poolV2.connect(u).unstake([0])
    await time.increase(181n * DAY)
    await poolV2.connect(u).unstake([1])
    const active = await lens.getAllUnstakeDataForActiveStakes(pool, u.address)
    expect(active.map((i) => i.stakeId)).to.deep.equal([2n, 3n])
    const recent = await lens.getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth(pool, u.address)
    expect(recent.map((i) => i.stakeId)).to.deep.equal([1n, 2n, 3n])
    expect(recent[0].stake.active).to.equal(false)
    expect(recent[0].amountOut - recent[0].fee).to.equal(recent[0].stake.closeAmount)
    const one = await lens.getUnstakeData(pool, u.address, 2)
    expect(one.stakeId).to.equal(2n)
    expect(one.amountOut).to.equal(recent[1].amountOut)
    const [page, next] = await lens.getUnstakeDataPage(pool, u.address, 0, 2)
    expect(page.map((i) => i.stakeId)).to.deep.equal([1n])
    expect(next).to.equal(2n)
  })
})
