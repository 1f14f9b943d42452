import { expect } from 'chai'
import { loadFixture } from '@nomicfoundation/hardhat-network-helpers'
import { jamFactory } from './helpers'
import { deploySystemWith } from './fixtures'
import { signedClaim } from '../../scripts/lib/claims'
import { DAY, ONE } from '../../src/domain/math'
import { StakingPoolFactory__factory } from '../../src/chain/types'
import { DEFAULT_TERMS, V1_PARAMS } from '../../scripts/lib/system'

/**
 * harvestStake pays a claim only into a pool that the harvest's own factory made and that PoolsInfo lists (issue 12,
 * finding 6). Besides the system: a second factory, whitelisted in PoolsInfo, that made a real version 1 pool with
 * the same token and harvest, and a claim builder for the first user.
 */
async function deployHarvestPoolsFixture() {
  const sys = await deploySystemWith()
  const { owner, poolsInfo, token, reservoir, harvest, implV1 } = sys
  const rogueFactory = await new StakingPoolFactory__factory(owner).deploy(await poolsInfo.getAddress(), owner.address)
  await poolsInfo.setWhitelisted(await rogueFactory.getAddress(), true)
  const config = {
    implementation: await implV1.getAddress(),
    name: 'rogue',
    symbol: 'r',
    stakeToken: await token.getAddress(),
    reservoir: await reservoir.getAddress(),
    harvest: await harvest.getAddress(),
    params: V1_PARAMS,
    terms: DEFAULT_TERMS,
  }
  const [roguePool] = await rogueFactory.createPool.staticCall(config)
  await rogueFactory.createPool(config)
  const rewardToken = await token.getAddress()
  const user = sys.users[0]
  /** A claim of `amount` for `user`, signed by the trusted signer for the user's state now. */
  const claimFor = async (amount: bigint) =>
    (await signedClaim({ harvest, rewardToken, signer: sys.signer }, user.address, amount)).args
  return { ...sys, rogueFactory, roguePool, user, rewardToken, claimFor }
}

describe('RewardHarvest.harvestStake: which pools a claim may be staked into', () => {
  /** The claim is refused with UnknownPool(pool) and nothing is paid or counted. */
  async function expectRefused(f: Awaited<ReturnType<typeof deployHarvestPoolsFixture>>, pool: string) {
    const { harvest, token, user, rewardToken, claimFor } = f
    const before = [await token.balanceOf(pool), await token.balanceOf(await harvest.getAddress())]
    const tx = harvest.connect(user).harvestStake(...(await claimFor(10n * ONE)), pool, 30n * DAY)
    await expect(tx).to.be.revertedWithCustomError(harvest, 'UnknownPool').withArgs(pool)
    expect(await harvest.claimed(user.address, rewardToken)).to.equal(0n)
    expect([await token.balanceOf(pool), await token.balanceOf(await harvest.getAddress())]).to.deep.equal(before)
  }

  it('refuses an address no registry or factory knows', async () => {
    const f = await loadFixture(deployHarvestPoolsFixture)
    await expectRefused(f, f.users[3].address)
    await expectRefused(f, await f.implV1.getAddress())
  })

  it('refuses a pool a whitelisted caller registered but the factory did not make', async () => {
    const f = await loadFixture(deployHarvestPoolsFixture)
    const { poolsInfo, factory, rogueFactory, roguePool, users, owner, token } = f
    // A real pool, listed, same token and harvest: only its maker differs.
    expect(await poolsInfo.isListed(roguePool)).to.equal(true)
    expect(await rogueFactory.isPoolCreated(roguePool)).to.equal(true)
    expect(await factory.isPoolCreated(roguePool)).to.equal(false)
    await expectRefused(f, roguePool)
    // And a contract a whitelisted caller that lies about what it made put in the registry.
    const jam = await jamFactory(owner, poolsInfo)
    const other = await jam.getAddress()
    await jam.register(other, await token.getAddress())
    expect(await poolsInfo.isListed(other)).to.equal(true)
    await expectRefused(f, other)
    // A plain address cannot be registered at all.
    await poolsInfo.connect(owner).setWhitelisted(users[4].address, true)
    await expect(
      poolsInfo.connect(users[4]).addPool(users[4].address, users[3].address, await token.getAddress(), users[3].address),
    ).to.be.revertedWithCustomError(poolsInfo, 'NotCreatedByFactory')
  })

  it('refuses a delisted pool, and pays into it again once relisted', async () => {
    const f = await loadFixture(deployHarvestPoolsFixture)
    const { poolsInfo, poolV1, harvest, user, token, claimFor } = f
    const pool = await poolV1.getAddress()
    await poolsInfo.setListed(1, false)
    await expectRefused(f, pool)
    await poolsInfo.setListed(1, true)
    const tx = harvest.connect(user).harvestStake(...(await claimFor(10n * ONE)), pool, 30n * DAY)
    await expect(tx)
      .to.emit(harvest, 'HarvestStaked')
      .withArgs(user.address, pool, 0n, 10n * ONE, 30n * DAY)
    const funded = (await poolV1.getStake(user.address, 0)).bonus + (await poolV1.getStake(user.address, 0)).reward
    await expect(tx).to.changeTokenBalances(token, [harvest, poolV1], [-10n * ONE, 10n * ONE + funded])
  })
})
