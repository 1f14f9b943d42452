import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemFixture } from './fixtures'
import { claimDigest, claimDomain, harvestArgs, type Claim } from '../../src/domain/claim'
import { signedClaim } from '../../scripts/lib/claims'
import { DAY, ONE, poolParams } from '../../src/domain/math'
import { RewardHarvest__factory } from '../../src/chain/types'
import type { Signer } from 'ethers'

async function harvestFixture() {
  const sys = await loadFixture(deploySystemFixture)
  const { chainId } = await ethers.provider.getNetwork()
  const domain = claimDomain(chainId, await sys.harvest.getAddress())
  const rewardToken = await sys.token.getAddress()
  const user = sys.users[0]
  /** A claim for `user` signed by `signer` (the trusted one by default) at the latest block. */
  const claimFor = (amount: bigint, over: Partial<Claim> = {}, signer: Signer = sys.signer, dom = domain) =>
    signedClaim({ harvest: sys.harvest, rewardToken, signer }, user.address, amount, { over, domain: dom })
  const args = (c: Awaited<ReturnType<typeof claimFor>>) => harvestArgs(c.claim, c.message, c.signature)
  return { ...sys, domain, rewardToken, user, claimFor, args }
}

describe('RewardHarvest', () => {
  it('computes the same EIP-712 digest as the off-chain signer', async () => {
    const { harvest, claimFor, domain } = await harvestFixture()
    const { claim } = await claimFor(5n * ONE)
    expect(
      await harvest.claimDigest(
        claim.user,
        claim.amount,
        claim.lastUpdateBlock,
        claim.currentBlock,
        claim.claimedBefore,
        claim.deadline,
        claim.rewardToken,
      ),
    ).to.equal(claimDigest(domain, claim))
  })

  it('pays a valid claim, moves the last block, counts the user once', async () => {
    const { harvest, token, user, claimFor, args, rewardToken } = await harvestFixture()
    const c = await claimFor(7n * ONE)
    const tx = harvest.connect(user).harvest(...args(c))
    await expect(tx)
      .to.emit(harvest, 'Harvested')
      .withArgs(user.address, rewardToken, 7n * ONE, c.claim.currentBlock)
    await expect(tx).to.changeTokenBalances(token, [user, harvest], [7n * ONE, -7n * ONE])
    expect(await harvest.getLastBlock(user.address, rewardToken)).to.equal(c.claim.currentBlock)
    expect(await harvest.claimed(user.address, rewardToken)).to.equal(7n * ONE)
    expect(await harvest.getClaimState(user.address, rewardToken)).to.deep.equal([7n * ONE, c.claim.currentBlock])
    expect(await harvest.getUsersCount()).to.equal(1n)
    const again = await claimFor(ONE)
    await harvest.connect(user).harvest(...args(again))
    expect(await harvest.getUsersCount()).to.equal(1n)
    expect(await harvest.claimed(user.address, rewardToken)).to.equal(8n * ONE)
  })

  it('refuses a replayed claim and a stale lastUpdateBlock', async () => {
    const { harvest, user, claimFor, args } = await harvestFixture()
    const c = await claimFor(ONE)
    await harvest.connect(user).harvest(...args(c))
    await expect(harvest.connect(user).harvest(...args(c)))
      .to.be.revertedWithCustomError(harvest, 'StaleClaim')
      .withArgs(c.claim.currentBlock, c.claim.lastUpdateBlock)
    const stale = await claimFor(ONE, { lastUpdateBlock: 0n })
    await expect(harvest.connect(user).harvest(...args(stale))).to.be.revertedWithCustomError(harvest, 'StaleClaim')
  })

  it('refuses an untrusted signer, and a signer trusted for another token', async () => {
    const { harvest, user, claimFor, args, users, signer, owner } = await harvestFixture()
    const c = await claimFor(ONE, {}, users[3])
    await expect(harvest.connect(user).harvest(...args(c)))
      .to.be.revertedWithCustomError(harvest, 'UntrustedSigner')
      .withArgs(users[3].address)
    await harvest.connect(owner).setTrustedSigner(await harvest.getAddress(), users[3].address, true)
    await expect(harvest.connect(user).harvest(...args(c))).to.be.revertedWithCustomError(harvest, 'UntrustedSigner')
    await expect(harvest.setTrustedSigner(c.claim.rewardToken, signer.address, false))
      .to.emit(harvest, 'TrustedSignerChanged')
      .withArgs(c.claim.rewardToken, signer.address, false)
    const d = await claimFor(ONE)
    await expect(harvest.connect(user).harvest(...args(d))).to.be.revertedWithCustomError(harvest, 'UntrustedSigner')
  })

  it('refuses a signature for another chain id or another contract', async () => {
    const { harvest, user, claimFor, args, domain, users } = await harvestFixture()
    const otherChain = await claimFor(ONE, {}, undefined, { ...domain, chainId: 97 })
    await expect(harvest.connect(user).harvest(...args(otherChain))).to.be.revertedWithCustomError(harvest, 'InvalidMessage')
    const otherContract = await claimFor(ONE, {}, undefined, { ...domain, verifyingContract: users[4].address })
    await expect(harvest.connect(user).harvest(...args(otherContract))).to.be.revertedWithCustomError(harvest, 'InvalidMessage')
    // Right digest, signature made for the other domain: recovers a stranger.
    const c = await claimFor(ONE)
    const forged = { ...c, signature: otherChain.signature }
    await expect(harvest.connect(user).harvest(...args(forged))).to.be.revertedWithCustomError(harvest, 'UntrustedSigner')
  })

  it('refuses a tampered amount, another user, a zero amount and a bad signature', async () => {
    const { harvest, user, claimFor, args, users } = await harvestFixture()
    const c = await claimFor(ONE)
    const tampered = args(c)
    await expect(
      harvest.connect(user).harvest(2n * ONE, ...(tampered.slice(1) as [bigint, bigint, bigint, bigint, string, string, string])),
    ).to.be.revertedWithCustomError(harvest, 'InvalidMessage')
    // Each signed field is part of the digest: claiming with another claimedBefore or a later deadline is refused.
    await expect(
      harvest.connect(user).harvest(...harvestArgs({ ...c.claim, claimedBefore: 1n }, c.message, c.signature)),
    ).to.be.revertedWithCustomError(harvest, 'InvalidMessage')
    await expect(
      harvest.connect(user).harvest(...harvestArgs({ ...c.claim, deadline: c.claim.deadline + 1n }, c.message, c.signature)),
    ).to.be.revertedWithCustomError(harvest, 'InvalidMessage')
    await expect(harvest.connect(users[1]).harvest(...args(c))).to.be.revertedWithCustomError(harvest, 'InvalidMessage')
    const zero = await claimFor(0n)
    await expect(harvest.connect(user).harvest(...args(zero))).to.be.revertedWithCustomError(harvest, 'ZeroAmount')
    await expect(harvest.connect(user).harvest(...args({ ...c, signature: '0x1234' }))).to.be.revertedWithCustomError(
      harvest,
      'ECDSAInvalidSignatureLength',
    )
  })

  it('refuses currentBlock in the future or not above lastUpdateBlock', async () => {
    const { harvest, user, claimFor, args } = await harvestFixture()
    const future = await claimFor(ONE, { currentBlock: BigInt(await ethers.provider.getBlockNumber()) + 100n })
    await expect(harvest.connect(user).harvest(...args(future))).to.be.revertedWithCustomError(harvest, 'CurrentBlockInFuture')
    const same = await claimFor(ONE, { currentBlock: 0n })
    await expect(harvest.connect(user).harvest(...args(same)))
      .to.be.revertedWithCustomError(harvest, 'InvalidCurrentBlock')
      .withArgs(0n)
  })

  it('refuses a claim signed for another claimed total, whatever its last block says', async () => {
    const { harvest, user, claimFor, args, rewardToken } = await harvestFixture()
    // Two claims signed for the same state: the first one paid, the second names a total that no longer holds.
    const first = await claimFor(3n * ONE)
    const second = await claimFor(5n * ONE)
    await harvest.connect(user).harvest(...args(first))
    const lastBlock = await harvest.getLastBlock(user.address, rewardToken)
    // Even if its last block matched (as after a rollback that reuses block numbers), the total does not.
    const sameBlock = await claimFor(5n * ONE, { lastUpdateBlock: lastBlock, claimedBefore: 0n })
    await expect(harvest.connect(user).harvest(...args(sameBlock)))
      .to.be.revertedWithCustomError(harvest, 'ClaimedTotalMismatch')
      .withArgs(3n * ONE, 0n)
    await expect(harvest.connect(user).harvest(...args(second))).to.be.revertedWithCustomError(harvest, 'StaleClaim')
    expect(await harvest.claimed(user.address, rewardToken)).to.equal(3n * ONE)
  })

  it('refuses a claim past its deadline and pays one at its deadline', async () => {
    const { harvest, user, claimFor, args } = await harvestFixture()
    const now = BigInt(await time.latest())
    const expired = await claimFor(ONE, { deadline: now + 10n })
    await time.setNextBlockTimestamp(now + 11n)
    await expect(harvest.connect(user).harvest(...args(expired)))
      .to.be.revertedWithCustomError(harvest, 'ClaimExpired')
      .withArgs(now + 10n, now + 11n)
    const onTime = await claimFor(ONE, { deadline: now + 20n })
    await time.setNextBlockTimestamp(now + 20n)
    await expect(harvest.connect(user).harvest(...args(onTime))).to.emit(harvest, 'Harvested')
  })

  it('stakes a claim into a pool term with the term bonus', async () => {
    const { harvest, user, claimFor, args, poolV1, poolV2 } = await harvestFixture()
    for (const pool of [poolV1, poolV2]) {
      const c = await claimFor(100n * ONE)
      const tx = harvest.connect(user).harvestStake(...args(c), await pool.getAddress(), 90n * DAY)
      await expect(tx)
        .to.emit(harvest, 'HarvestStaked')
        .withArgs(user.address, await pool.getAddress(), 0n, 100n * ONE, 90n * DAY)
      await expect(tx).to.emit(pool, 'Staked')
      const s = await pool.getStake(user.address, 0)
      expect(s.holdTime).to.equal(90n * DAY)
      expect(s.stakeAmount).to.equal(100n * ONE)
    }
  })

  it('refuses harvestStake with a term not offered, an unknown pool or another token', async () => {
    const { harvest, user, claimFor, args, poolV1, factory, owner, reservoir } = await harvestFixture()
    const c = await claimFor(ONE)
    await expect(harvest.connect(user).harvestStake(...args(c), await poolV1.getAddress(), 45n * DAY))
      .to.be.revertedWithCustomError(poolV1, 'TermNotOffered')
      .withArgs(45n * DAY)
    await expect(harvest.connect(user).harvestStake(...args(c), user.address, 30n * DAY))
      .to.be.revertedWithCustomError(harvest, 'UnknownPool')
      .withArgs(user.address)
    const other = await (await ethers.getContractFactory('PlatformToken')).deploy('Other', 'OTH', owner.address)
    const impl = await poolV1
      .getAddress()
      .then(async () => (await ethers.getContractFactory('ImplAndTermsV1')).deploy(await poolV1.VIEWS(), await poolV1.SETTINGS()))
    const config = {
      implementation: await impl.getAddress(),
      name: 'o',
      symbol: 'o',
      stakeToken: await other.getAddress(),
      reservoir: await reservoir.getAddress(),
      harvest: await harvest.getAddress(),
      params: poolParams(await poolV1.getPoolState()),
      terms: [{ hold: 30n * DAY, bonus: ONE }],
    }
    const [otherPool] = await factory.createPool.staticCall(config)
    await factory.createPool(config)
    await expect(harvest.connect(user).harvestStake(...args(c), otherPool, 30n * DAY)).to.be.revertedWithCustomError(
      harvest,
      'TokenMismatch',
    )
  })

  it('lets only the owner manage signers and withdraw', async () => {
    const { harvest, user, rewardToken, token, owner } = await harvestFixture()
    await expect(harvest.connect(user).setTrustedSigner(rewardToken, user.address, true)).to.be.revertedWithCustomError(
      harvest,
      'OwnableUnauthorizedAccount',
    )
    await expect(harvest.connect(user).withdraw(rewardToken, user.address, 1n)).to.be.revertedWithCustomError(
      harvest,
      'OwnableUnauthorizedAccount',
    )
    await expect(harvest.setTrustedSigner(ethers.ZeroAddress, user.address, true)).to.be.revertedWithCustomError(
      harvest,
      'ZeroAddress',
    )
    await expect(harvest.withdraw(rewardToken, ethers.ZeroAddress, 1n)).to.be.revertedWithCustomError(harvest, 'ZeroAddress')
    const tx = harvest.withdraw(rewardToken, owner.address, ONE)
    await expect(tx).to.changeTokenBalance(token, owner, ONE)
    await expect(tx).to.emit(harvest, 'Withdrawn').withArgs(rewardToken, owner.address, ONE)
    await expect(
      new RewardHarvest__factory(owner).deploy(ethers.ZeroAddress, ethers.ZeroAddress, owner.address),
    ).to.be.revertedWithCustomError(harvest, 'ZeroAddress')
  })
})
