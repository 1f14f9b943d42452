import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemWith } from './fixtures'
import { DEFAULT_TIMELOCK_DELAY, handOverToTimelock } from '../../scripts/lib/timelock'
import { V1_PARAMS } from '../../scripts/lib/system'
import { DAY, ONE } from '../../src/domain/math'

async function deployTimelockedFixture() {
  const sys = await deploySystemWith()
  const timelock = await handOverToTimelock(sys, sys.owner)
  return { ...sys, timelock }
}

describe('Owner powers behind a TimelockController (real networks)', () => {
  it('owns pools, registry, factory, harvest, reservoir and token, with a 48 h delay and no admin', async () => {
    const { timelock, poolV1, poolV2, poolsInfo, factory, harvest, reservoir, token, owner } =
      await loadFixture(deployTimelockedFixture)
    const to = await timelock.getAddress()
    for (const c of [poolV1, poolV2, poolsInfo, factory, harvest, reservoir, token]) expect(await c.owner()).to.equal(to)
    expect(await timelock.getMinDelay()).to.equal(DEFAULT_TIMELOCK_DELAY)
    expect(await timelock.hasRole(await timelock.DEFAULT_ADMIN_ROLE(), owner.address)).to.equal(false)
    await expect(poolV1.connect(owner).setStakingPaused(true)).to.be.revertedWithCustomError(poolV1, 'OwnableUnauthorizedAccount')
    await expect(reservoir.connect(owner).withdraw(token, owner.address, 1n)).to.be.revertedWithCustomError(
      reservoir,
      'OwnableUnauthorizedAccount',
    )
  })

  it('runs a parameter change only 48 h after it was scheduled, and it applies to new stakes only', async () => {
    const { timelock, poolV1, users, owner } = await loadFixture(deployTimelockedFixture)
    await poolV1.connect(users[0])['stake(uint256,uint256)'](1000n * ONE, 100n * DAY)
    const before = await poolV1.getStake(users[0].address, 0)
    const data = poolV1.interface.encodeFunctionData('setParameters', [{ ...V1_PARAMS, unHoldFee: 0n, inflationPercent: 0n }])
    const args = [await poolV1.getAddress(), 0n, data, ethers.ZeroHash, ethers.id('fee-change')] as const
    await timelock.connect(owner).schedule(...args, DEFAULT_TIMELOCK_DELAY)
    await expect(timelock.execute(...args)).to.be.revertedWithCustomError(timelock, 'TimelockUnexpectedOperationState')
    await time.increase(DEFAULT_TIMELOCK_DELAY)
    await expect(timelock.connect(users[3]).execute(...args)).to.emit(poolV1, 'ParametersChanged')
    expect(await poolV1.unHoldFee()).to.equal(0n)
    const after = await poolV1.getStake(users[0].address, 0)
    expect([after.unHoldFee, after.reward, after.bonus]).to.deep.equal([before.unHoldFee, before.reward, before.bonus])
    expect(before.unHoldFee).to.equal(V1_PARAMS.unHoldFee)
  })

  it('lets only proposers schedule', async () => {
    const { timelock, poolV1, users } = await loadFixture(deployTimelockedFixture)
    const data = poolV1.interface.encodeFunctionData('setStakingPaused', [true])
    await expect(
      timelock
        .connect(users[0])
        .schedule(await poolV1.getAddress(), 0n, data, ethers.ZeroHash, ethers.ZeroHash, DEFAULT_TIMELOCK_DELAY),
    ).to.be.revertedWithCustomError(timelock, 'AccessControlUnauthorizedAccount')
  })
})
