import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemWith, USER_BALANCE } from './fixtures'
import {
  checkStaked,
  expectSolvent,
  expectedUnstake,
  pinNextTimestamp,
  stakeExactly,
  stakeMath,
  unstakeExactly,
  approveUnlimited,
  type Pool,
} from './helpers'
import { mathState } from '../../scripts/lib/poolState'
import {
  DAY,
  MAX_ACCOUNT_TOTAL,
  MAX_BONUS_PERCENT,
  MAX_RATE,
  MAX_STAKE_AMOUNT,
  ONE,
  PERCENT,
  VIRTUAL_SHARES,
  FEE_STREAM,
  releaseFees,
  type FeeStream,
  previewStake,
  unstakePreview,
  type PoolVersion,
} from '../../src/domain/math'
import { DEFAULT_TERMS, V1_PARAMS, V2_PARAMS } from '../../scripts/lib/system'

const T = (n: number | bigint) => BigInt(n) * ONE
const MAX = ethers.MaxUint256

/** The system with five funded users who approved both pools, a funded reservoir and harvest. */
async function deployPoolsFixture() {
  return deploySystemWith()
}

async function fixtureFor(version: PoolVersion) {
  const sys = await loadFixture(deployPoolsFixture)
  const pool: Pool = version === 1 ? sys.poolV1 : sys.poolV2
  const params = version === 1 ? V1_PARAMS : V2_PARAMS
  return { ...sys, pool, params: { ...params } as typeof V1_PARAMS & Record<string, bigint> }
}

type Fixture = Awaited<ReturnType<typeof fixtureFor>>

const params = (f: Fixture, over: Partial<Record<keyof typeof V1_PARAMS, bigint>> = {}) => ({
  inflationPercent: BigInt(f.params.inflationPercent),
  refererBonusPercent: BigInt(f.params.refererBonusPercent),
  timeBonusPercent: BigInt(f.params.timeBonusPercent),
  unHoldFee: BigInt(f.params.unHoldFee),
  holdTimeRefMin: BigInt(f.params.holdTimeRefMin),
  holdTimeMax: BigInt(f.params.holdTimeMax),
  ...over,
})

/**
 * The storage slot of `user`'s account (one word: staked, count, closedCount, backedUntil, backed), found by its stake
 * count.
 */
async function accountSlot(pool: Pool, user: string): Promise<bigint> {
  const addr = await pool.getAddress()
  const count = await pool.getUserStakesCount(user)
  for (let base = 0; base < 64; base++) {
    const slot = BigInt(ethers.keccak256(ethers.AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [user, base])))
    const word = BigInt(await ethers.provider.getStorage(addr, slot))
    if (word !== 0n && ((word >> 104n) & 0xffffffn) === count) return slot
  }
  throw new Error('account slot not found: the Account layout changed')
}

function shouldBehaveLikePool(version: PoolVersion) {
  describe(`common behaviour (version ${version})`, () => {
    it('reports its version, token, reservoir, harvest, owner, bounds and an empty book', async () => {
      const f = await fixtureFor(version)
      const { pool, token, reservoir, harvest, owner } = f
      expect(await pool.version()).to.equal(version)
      expect(await pool.stakeToken()).to.equal(await token.getAddress())
      expect(await pool.reservoir()).to.equal(await reservoir.getAddress())
      expect(await pool.harvest()).to.equal(await harvest.getAddress())
      expect(await pool.owner()).to.equal(owner.address)
      expect(await pool.getRate()).to.equal(ONE)
      expect(await pool.name()).to.equal(`PLT Staking Shares v${version}`)
      expect(await pool.symbol()).to.equal(`sPLT${version}`)
      expect(await pool.decimals()).to.equal(18n)
      expect(await pool.totalSupply()).to.equal(0n)
      expect(await pool.totalStaked()).to.equal(0n)
      expect(await pool.stakersCount()).to.equal(0n)
      expect(await pool.MAX_STAKE_AMOUNT()).to.equal(MAX_STAKE_AMOUNT)
      expect(await pool.MAX_RATE()).to.equal(MAX_RATE)
      expect(await pool.MAX_BONUS_PERCENT()).to.equal(MAX_BONUS_PERCENT)
      expect(await pool.MAX_ACCOUNT_TOTAL()).to.equal(MAX_ACCOUNT_TOTAL)
      expect(await pool.MAX_STAKES_PER_USER()).to.equal(2n ** 24n - 1n)
      expect(await pool.VIRTUAL_SHARES()).to.equal(VIRTUAL_SHARES)
      expect(await pool.MAX_HOLD_TIME()).to.equal(1095n * DAY)
      expect(await pool.MAX_FEE_PERCENT()).to.equal(PERCENT)
      expect(await pool.MAX_INFLATION_PERCENT()).to.equal(1000n * ONE)
      expect(await pool.MAX_TERMS()).to.equal(10n)
      expect(await pool.FEE_STREAM()).to.equal(FEE_STREAM)
      expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
      const st = await pool.getPoolState()
      const p = params(f)
      expect([st.inflationPercent, st.refererBonusPercent, st.timeBonusPercent, st.unHoldFee]).to.deep.equal([
        p.inflationPercent,
        p.refererBonusPercent,
        p.timeBonusPercent,
        p.unHoldFee,
      ])
      expect([st.holdTimeRefMin, st.holdTimeMax]).to.deep.equal([p.holdTimeRefMin, p.holdTimeMax])
      expect(st.version).to.equal(BigInt(version))
      expect(st.stakeToken).to.equal(await token.getAddress())
      // What the reservoir lets this pool draw (its backed allowance).
      expect(st.reservoirAvailable).to.equal(await token.allowance(await reservoir.getAddress(), await pool.getAddress()))
      expect(st.refererMinStake).to.equal(T(100))
      expect([st.totalStaked, st.totalShares, st.rate, st.obligations, st.stakersCount]).to.deep.equal([0n, 0n, ONE, 0n, 0n])
      expect(st.stakingPaused).to.equal(false)
      expect(await pool.getAllHarvestBonusTimeData()).to.deep.equal(DEFAULT_TERMS.map((t) => [t.hold, t.bonus]))
    })

    it('stakes for whole days with its terms fixed and funded from the reservoir at stake time', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const tx = stakeExactly(f, pool, users[0], T(1000), 365n * DAY + 5000n)
      const { expected } = await tx
      expect(expected.holdTime).to.equal(365n * DAY)
      expect(expected.bonus).to.equal((T(1000) * ((BigInt(f.params.timeBonusPercent) * 365n) / 1095n / 100n)) / ONE)
      expect(expected.reward).to.equal(version === 1 ? T(4000) : 0n)
      // A stake's shares are its principal: the bonus buys none.
      expect(expected.shares).to.equal(T(1000))
      expect(await pool.balanceOf(users[0].address)).to.equal(expected.shares)
      expect(await pool.totalSupply()).to.equal(expected.shares)
      expect(await pool.totalStaked()).to.equal(T(1000))
      const st = await pool.getPoolState()
      expect(st.obligations).to.equal(expected.atMaturity)
      expect(st.stakersCount).to.equal(1n)
      await expectSolvent(f, pool)
    })

    it('mints and burns pool shares as balances only, without Transfer events (they cost 1,756 gas a stake)', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const { expected } = await stakeExactly(f, pool, users[0], T(10), 30n * DAY)
      expect(await pool.balanceOf(users[0].address)).to.equal(expected.shares)
      const close = await (await pool.connect(users[0]).unstake([0])).wait()
      expect(await pool.balanceOf(users[0].address)).to.equal(0n)
      expect(await pool.totalSupply()).to.equal(0n)
      const transfer = ethers.id('Transfer(address,address,uint256)')
      const poolAddress = (await pool.getAddress()).toLowerCase()
      expect(close!.logs.filter((l) => l.address.toLowerCase() === poolAddress && l.topics[0] === transfer)).to.have.length(0)
    })

    it('refuses a hold out of bounds, a zero amount and an amount over 2^96-1', async () => {
      const { pool, users, token, owner } = await fixtureFor(version)
      const p = pool.connect(users[0])
      const max = await pool.holdTimeMax()
      await expect(p['stake(uint256,uint256)'](T(1), DAY - 1n))
        .to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
        .withArgs(DAY - 1n, DAY, max)
      await expect(p['stake(uint256,uint256)'](T(1), max + DAY))
        .to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
        .withArgs(max + DAY, DAY, max)
      await expect(p['stake(uint256,uint256)'](0n, 10n * DAY)).to.be.revertedWithCustomError(pool, 'ZeroAmount')
      await token.connect(owner).mint(users[0].address, 2n ** 96n)
      await expect(p['stake(uint256,uint256)'](2n ** 96n, DAY))
        .to.be.revertedWithCustomError(pool, 'StakeTooLarge')
        .withArgs(2n ** 96n, MAX_STAKE_AMOUNT)
    })

    it('takes a referer only if it has an active stake, is not the staker, and the hold is long enough', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const p = pool.connect(users[0])
      const refMin = await pool.holdTimeRefMin()
      await expect(p['stake(uint256,uint256,address)'](T(1), 100n * DAY, users[0].address)).to.be.revertedWithCustomError(
        pool,
        'SelfReferral',
      )
      await expect(p['stake(uint256,uint256,address)'](T(1), 100n * DAY, users[1].address))
        .to.be.revertedWithCustomError(pool, 'RefererNotStaking')
        .withArgs(users[1].address)
      await stakeExactly(f, pool, users[1], T(1000), 1095n * DAY)
      await expect(p['stake(uint256,uint256,address)'](T(1), refMin - DAY, users[1].address))
        .to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
        .withArgs(refMin - DAY, refMin, await pool.holdTimeMax())
      const { expected } = await stakeExactly(f, pool, users[0], T(1000), 365n * DAY, users[1].address)
      // The referral bonus grows with the hold, as the length bonus does.
      expect(expected.referralBonusPercent).to.equal(
        (BigInt(f.params.refererBonusPercent) * 365n * DAY) / BigInt(await pool.holdTimeMax()),
      )
      // The referer's stake closed: it no longer refers.
      await unstakeExactly(f, pool, users[1], [0n], DAY)
      await expect(pool.connect(users[2])['stake(uint256,uint256,address)'](T(1), 100n * DAY, users[1].address))
        .to.be.revertedWithCustomError(pool, 'RefererNotStaking')
        .withArgs(users[1].address)
    })

    it('pays an early close its principal less the linear fee plus the reward earned; bonus and the rest go back', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const { expected } = await stakeExactly(f, pool, users[0], T(500), 100n * DAY)
      await time.increase(40n * DAY)
      const e = await unstakeExactly(f, pool, users[0], [0n])
      const c = e.closes[0]
      expect(c.matured).to.equal(false)
      expect(c.fee).to.be.greaterThan(0n)
      expect(c.forfeited).to.equal(expected.bonus + expected.reward - c.rewardEarned)
      expect(await pool.getAllUserStakesAmount(users[0].address)).to.equal(0n)
      expect(await pool.balanceOf(users[0].address)).to.equal(0n)
      expect(await pool.getUnstakeData(users[0].address, 0)).to.deep.equal([c.amountOut, c.fee])
      expect((await pool.getPoolState()).obligations).to.equal(0n)
      expect(await f.token.balanceOf(await pool.getAddress())).to.equal(0n)
    })

    it('pays a matured stake its principal, bonus and reward, with no fee', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const { expected } = await stakeExactly(f, pool, users[0], T(500), 90n * DAY)
      await time.increase(90n * DAY)
      const e = await unstakeExactly(f, pool, users[0], [0n])
      expect(e.closes[0].fee).to.equal(0n)
      expect(e.toUser).to.equal(expected.atMaturity)
      expect(e.toReservoir).to.equal(0n)
    })

    it('closes several stakes in one call and refuses a closed, repeated, unknown or empty list', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      for (let i = 0; i < 3; i++) await stakeExactly(f, pool, users[1], T(10 + i), 30n * DAY)
      await time.increase(31n * DAY)
      await unstakeExactly(f, pool, users[1], [0n, 2n])
      expect((await pool.getStake(users[1].address, 1)).active).to.equal(true)
      expect(await pool.getUserActiveStakesCount(users[1].address)).to.equal(1n)
      const u = pool.connect(users[1])
      await expect(u.unstake([2]))
        .to.be.revertedWithCustomError(pool, 'StakeNotActive')
        .withArgs(2)
      await expect(u.unstake([1, 1]))
        .to.be.revertedWithCustomError(pool, 'StakeNotActive')
        .withArgs(1)
      await expect(u.unstake([3]))
        .to.be.revertedWithCustomError(pool, 'StakeNotFound')
        .withArgs(3)
      await expect(u.unstake([])).to.be.revertedWithCustomError(pool, 'NoStakeIds')
      // Someone else's id is not the caller's stake.
      await expect(pool.connect(users[2]).unstake([1]))
        .to.be.revertedWithCustomError(pool, 'StakeNotFound')
        .withArgs(1)
      await expect(pool.getStake(users[1].address, 3)).to.be.revertedWithCustomError(pool, 'StakeNotFound').withArgs(3)
      await expect(pool.getStakeInfo(users[1].address, 3)).to.be.revertedWithCustomError(pool, 'StakeNotFound')
      await expect(pool.getUnstakeData(users[1].address, 3)).to.be.revertedWithCustomError(pool, 'StakeNotFound')
    })

    it('keeps pool shares with their stakes: the share token cannot move', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      await stakeExactly(f, pool, users[0], T(10), DAY)
      const u = pool.connect(users[0])
      await expect(u.transfer(users[1].address, 1n)).to.be.revertedWithCustomError(pool, 'SharesNotTransferable')
      await expect(u.approve(users[1].address, 1n)).to.be.revertedWithCustomError(pool, 'SharesNotTransferable')
      await expect(u.transferFrom(users[0].address, users[1].address, 1n)).to.be.revertedWithCustomError(
        pool,
        'SharesNotTransferable',
      )
      expect(await pool.allowance(users[0].address, users[1].address)).to.equal(0n)
    })

    it('counts stakers with at least one active stake', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      await stakeExactly(f, pool, users[0], T(1), DAY)
      await stakeExactly(f, pool, users[0], T(1), DAY)
      await stakeExactly(f, pool, users[1], T(1), DAY)
      expect(await pool.stakersCount()).to.equal(2n)
      await unstakeExactly(f, pool, users[0], [1n], DAY)
      expect(await pool.stakersCount()).to.equal(2n)
      await unstakeExactly(f, pool, users[0], [0n])
      expect(await pool.stakersCount()).to.equal(1n)
      expect(await pool.getUserActiveStakesCount(users[0].address)).to.equal(0n)
      expect(await pool.getUserStakesCount(users[0].address)).to.equal(2n)
      await stakeExactly(f, pool, users[0], T(1), DAY)
      expect((await pool.getPoolState()).stakersCount).to.equal(2n)
    })

    it('pages stakes: by id, and active first then closes since a time, newest close first', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const u = users[2]
      for (let i = 0; i < 5; i++) await stakeExactly(f, pool, u, T(1 + i), DAY)
      await time.increase(DAY)
      await unstakeExactly(f, pool, u, [0n])
      await time.increase(200n * DAY)
      await unstakeExactly(f, pool, u, [3n])
      const since = BigInt(await time.latest())
      await unstakeExactly(f, pool, u, [1n])
      expect((await pool.getUserStakes(u.address, 1, 2)).map((s) => s.stakeAmount)).to.deep.equal([T(2), T(3)])
      expect(await pool.getUserStakes(u.address, 9, 2)).to.deep.equal([])
      expect(await pool.getUserStakes(u.address, MAX, MAX)).to.deep.equal([])
      expect((await pool.getUserStakes(u.address, 3, MAX)).length).to.equal(2)
      expect((await pool.getAllUserStakes(u.address)).map((s) => s.active)).to.deep.equal([false, false, true, false, true])

      const ids = async (offset: bigint, limit: bigint, closedSince: bigint) => {
        const [infos, next] = await pool.getStakeInfos(u.address, offset, limit, closedSince)
        return { ids: infos.map((i) => i.stakeId), next }
      }
      const all = await ids(0n, MAX, 0n)
      expect(all.next).to.equal(MAX)
      // Active first (2 and 4, in any order), then closes newest first: 1, 3, 0.
      expect([...all.ids.slice(0, 2)].sort()).to.deep.equal([2n, 4n])
      expect(all.ids.slice(2)).to.deep.equal([1n, 3n, 0n])
      // Closes before `since` are left out and end the list.
      expect(await ids(0n, MAX, since)).to.deep.equal({ ids: all.ids.slice(0, 4), next: MAX })
      expect(await ids(0n, 2n, since)).to.deep.equal({ ids: all.ids.slice(0, 2), next: 2n })
      // The row after them is a close before `since`: no next page.
      expect(await ids(2n, 2n, since)).to.deep.equal({ ids: [1n, 3n], next: MAX })
      expect(await ids(2n, 1n, since)).to.deep.equal({ ids: [1n], next: 3n })
      expect(await ids(4n, 2n, since)).to.deep.equal({ ids: [], next: MAX })
      expect(await ids(3n, MAX, 0n)).to.deep.equal({ ids: [3n, 0n], next: MAX })
      expect(await ids(MAX, MAX, 0n)).to.deep.equal({ ids: [], next: MAX })
      expect(await ids(1n, MAX, MAX)).to.deep.equal({ ids: all.ids.slice(1, 2), next: MAX })
      // Each row carries the stake and the figures its close paid.
      const [rows] = await pool.getStakeInfos(u.address, 2, 1, 0)
      const closed = await pool.getStakeInfo(u.address, 1)
      expect(rows[0]).to.deep.equal(closed)
      expect(rows[0].stake.closeTime).to.equal(BigInt(await time.latest()))
    })

    it('previews closing each active stake now, and every close pays the preview', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const u = users[0]
      await stakeExactly(f, pool, u, T(100), 200n * DAY)
      await stakeExactly(f, pool, u, T(300), 10n * DAY)
      await stakeExactly(f, pool, users[1], T(50), 400n * DAY)
      await time.increase(20n * DAY)
      const t = await pinNextTimestamp(3600n)
      // Views at the pinned time (the pending block) against the model.
      const pending = { blockTag: 'pending' } as const
      const e = await expectedUnstake(pool, u.address, [0n, 1n], t)
      const rate = await pool.getRate(pending)
      const single = [unstakePreview(await stakeMath(pool, u.address, 0, pending), rate, t)]
      expect(await pool.getUnstakeData(u.address, 0, pending)).to.deep.equal([single[0].amountOut, single[0].fee])
      const info = await pool.getStakeInfo(u.address, 0, pending)
      expect([info.amountOut, info.fee, info.forfeited]).to.deep.equal([single[0].amountOut, single[0].fee, single[0].forfeited])
      const both = e.stakes.map((s) => unstakePreview(s, rate, t))
      expect(await pool.getAllCurrentStakeAmount(u.address, pending)).to.equal(both[0].received + both[1].received)
      await expect(pool.connect(u).unstake([0, 1])).to.changeTokenBalance(f.token, u, e.toUser)
    })

    it('sweeps tokens sent to it by mistake to the reservoir, never what it owes', async () => {
      const f = await fixtureFor(version)
      const { pool, users, token, reservoir } = f
      await stakeExactly(f, pool, users[0], T(100), 30n * DAY)
      expect(await pool.sweep.staticCall()).to.equal(0n)
      await expect(pool.sweep()).not.to.emit(pool, 'Swept')
      await token.connect(users[1]).transfer(await pool.getAddress(), T(7))
      expect(await pool.sweep.staticCall()).to.equal(T(7))
      const tx = pool.connect(users[2]).sweep()
      await expect(tx).to.emit(pool, 'Swept').withArgs(T(7))
      await expect(tx).to.changeTokenBalances(token, [pool, reservoir, users[2]], [-T(7), T(7), 0n])
      await expectSolvent(f, pool)
      await time.increase(30n * DAY)
      await unstakeExactly(f, pool, users[0], [0n])
      expect(await token.balanceOf(await pool.getAddress())).to.equal(0n)
    })

    it('refuses a stake the reservoir cannot fund in full, unless the staker accepts lower terms', async () => {
      const f = await fixtureFor(version)
      const { pool, users, token, reservoir, owner } = f
      const tokenAddr = await token.getAddress()
      await reservoir.withdraw(tokenAddr, owner.address, (await token.balanceOf(await reservoir.getAddress())) - T(10))
      // Full terms asked: refused with what the reservoir could fund (the bonus first: all 10 tokens, no reward).
      const { id: refused, expected: short } = await stakeExactly(f, pool, users[0], T(1000), 1095n * DAY)
      expect(refused).to.equal(-1n)
      expect([short.bonus, short.reward]).to.deep.equal([T(10), 0n])
      // Minimums above what it can fund: refused too; at or below: taken with RewardsShort and the lower terms.
      expect((await stakeExactly(f, pool, users[0], T(1000), 1095n * DAY, undefined, [T(10) + 1n, 0n])).id).to.equal(-1n)
      const { id, expected } = await stakeExactly(f, pool, users[0], T(1000), 1095n * DAY, undefined, [T(10), 0n])
      expect([id, expected.bonus, expected.reward]).to.deep.equal([0n, T(10), 0n])
      // An empty reservoir funds nothing: only minimums of 0 accept that.
      expect((await stakeExactly(f, pool, users[1], T(1000), 1095n * DAY, undefined, [1n, 0n])).id).to.equal(-1n)
      const { expected: none } = await stakeExactly(f, pool, users[1], T(1000), 1095n * DAY, undefined, [0n, 0n])
      expect([none.bonus, none.reward]).to.deep.equal([0n, 0n])
      // A stake that wants nothing from the reservoir needs nothing: full terms of 0.
      await pool.setParameters(params(f, { timeBonusPercent: 0n, inflationPercent: 0n }))
      await stakeExactly(f, pool, users[3], T(5), DAY)
      await pool.setParameters(params(f))
      // An allowance caps what it gives, whatever its balance (and it must be backed by the balance).
      await token.mint(await reservoir.getAddress(), T(1_000_000))
      const other = version === 1 ? f.poolV2 : f.poolV1
      await reservoir.approvePool(tokenAddr, await other.getAddress(), 0n)
      const most = await reservoir.approvable(tokenAddr, await pool.getAddress())
      await expect(reservoir.approvePool(tokenAddr, await pool.getAddress(), most + 1n))
        .to.be.revertedWithCustomError(reservoir, 'AllowanceNotBacked')
        .withArgs(most + 1n, most)
      await reservoir.approvePool(tokenAddr, await pool.getAddress(), T(3))
      const { expected: capped } = await stakeExactly(f, pool, users[2], T(1000), 1095n * DAY, undefined, [0n, 0n])
      expect(capped.bonus + capped.reward).to.equal(T(3))
      expect((await pool.getPoolState()).reservoirAvailable).to.equal(0n)
      // Claim-and-stake asks for the full terms.
      await pool.setHarvest(users[4].address)
      await expect(pool.connect(users[4]).stakeFor(users[0].address, T(100), 90n * DAY)).to.be.revertedWithCustomError(
        pool,
        'RewardsUnavailable',
      )
      await time.increase(1095n * DAY)
      const e = await unstakeExactly(f, pool, users[0], [0n])
      expect(e.toUser).to.equal(expected.atMaturity)
    })

    it('lets only the owner set bounded parameters, terms, pause and harvest', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      const p = params(f)
      const u = pool.connect(users[0])
      await expect(u.setParameters(p))
        .to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
        .withArgs(users[0].address)
      await expect(u.setHarvestTerms([])).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      await expect(u.setStakingPaused(true)).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      await expect(u.setHarvest(users[0].address)).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      const bad: [keyof typeof p, bigint, bigint][] = [
        ['unHoldFee', PERCENT + 1n, PERCENT],
        ['timeBonusPercent', MAX_BONUS_PERCENT + 1n, MAX_BONUS_PERCENT],
        ['holdTimeMax', 1096n * DAY, 1095n * DAY],
        ['holdTimeMax', DAY - 1n, 1095n * DAY],
        ['holdTimeRefMin', p.holdTimeMax + 1n, p.holdTimeMax],
      ]
      if (version === 1) {
        bad.push(['inflationPercent', 1000n * ONE + 1n, 1000n * ONE])
        bad.push(['refererBonusPercent', MAX_BONUS_PERCENT + 1n, MAX_BONUS_PERCENT])
      }
      for (const [name, value, max] of bad) {
        await expect(pool.setParameters({ ...p, [name]: value }))
          .to.be.revertedWithCustomError(pool, 'ParameterOutOfBounds')
          .withArgs(name, value, max)
      }
      const next = { ...p, unHoldFee: 10n * ONE, timeBonusPercent: MAX_BONUS_PERCENT, holdTimeMax: DAY, holdTimeRefMin: DAY }
      await expect(pool.setParameters(next)).to.emit(pool, 'ParametersChanged').withArgs(Object.values(next))
      expect(await pool.unHoldFee()).to.equal(10n * ONE)
      expect(await pool.timeBonusPercent()).to.equal(MAX_BONUS_PERCENT)
      expect([await pool.holdTimeMax(), await pool.holdTimeRefMin()]).to.deep.equal([DAY, DAY])
      for (const [term, name, max] of [
        [{ hold: DAY - 1n, bonus: 0n }, 'hold', 1095n * DAY],
        [{ hold: 1096n * DAY, bonus: 0n }, 'hold', 1095n * DAY],
        [{ hold: DAY + 1n, bonus: 0n }, 'hold', 1095n * DAY],
        [{ hold: DAY, bonus: MAX_BONUS_PERCENT + 1n }, 'bonus', MAX_BONUS_PERCENT],
      ] as const) {
        await expect(pool.setHarvestTerms([term]))
          .to.be.revertedWithCustomError(pool, 'ParameterOutOfBounds')
          .withArgs(name, name === 'hold' ? term.hold : term.bonus, max)
      }
      const eleven = Array.from({ length: 11 }, (_, i) => ({ hold: BigInt(i + 1) * DAY, bonus: ONE }))
      await expect(pool.setHarvestTerms(eleven)).to.be.revertedWithCustomError(pool, 'TooManyTerms').withArgs(11)
      await expect(pool.setHarvestTerms(eleven.slice(0, 10))).to.emit(pool, 'HarvestTermsChanged')
      await expect(pool.setHarvestTerms([{ hold: 7n * DAY, bonus: ONE }])).to.emit(pool, 'HarvestTermsChanged')
      expect(await pool.getAllHarvestBonusTimeData()).to.deep.equal([[7n * DAY, ONE]])
      await expect(pool.setHarvest(users[3].address)).to.emit(pool, 'HarvestChanged').withArgs(users[3].address)
      expect(await pool.harvest()).to.equal(users[3].address)
    })

    it('applies parameter changes to new stakes only', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      await pool.setParameters(params(f, { unHoldFee: 10n * ONE }))
      const { expected: early, time: t0 } = await stakeExactly(f, pool, users[0], T(1000), 365n * DAY)
      const { expected: held } = await stakeExactly(f, pool, users[1], T(1000), 365n * DAY)
      await pool.setParameters(
        params(f, { unHoldFee: PERCENT, timeBonusPercent: 0n, inflationPercent: 0n, holdTimeMax: 400n * DAY }),
      )
      const { expected: later } = await stakeExactly(f, pool, users[2], T(1000), 365n * DAY)
      expect([later.bonus, later.reward, later.feeFraction]).to.deep.equal([0n, 0n, ONE])
      expect(early.feeFraction).to.equal(ONE / 10n)
      await time.increase(100n * DAY)
      const e = await unstakeExactly(f, pool, users[0], [0n])
      // The first stake's fee is the 10% it was made under, not the 100% in force at its close.
      const left = 365n * DAY - (e.time - t0)
      expect(e.closes[0].fee).to.equal((T(1000) * (ONE / 10n) * left) / (365n * DAY) / ONE)
      expect(e.closes[0].rewardEarned).to.equal((early.reward * (e.time - t0)) / (365n * DAY))
      await time.increase(265n * DAY)
      const m = await unstakeExactly(f, pool, users[1], [0n])
      expect(m.toUser).to.equal(held.atMaturity + m.closes[0].gains)
    })

    it('pauses new stakes (also by harvest) but never closes', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      await stakeExactly(f, pool, users[0], T(10), DAY)
      await expect(pool.setStakingPaused(true)).to.emit(pool, 'StakingPausedChanged').withArgs(true)
      expect(await pool.stakingPaused()).to.equal(true)
      await expect(pool.connect(users[0])['stake(uint256,uint256)'](T(10), DAY)).to.be.revertedWithCustomError(
        pool,
        'StakingIsPaused',
      )
      await pool.setHarvest(users[4].address)
      await expect(pool.connect(users[4]).stakeFor(users[0].address, T(1), 30n * DAY)).to.be.revertedWithCustomError(
        pool,
        'StakingIsPaused',
      )
      await unstakeExactly(f, pool, users[0], [0n])
      await expect(pool.setStakingPaused(false)).to.emit(pool, 'StakingPausedChanged').withArgs(false)
      await stakeExactly(f, pool, users[0], T(10), DAY)
    })

    it('accepts stakeFor only from the harvest contract, for someone, with an offered term', async () => {
      const f = await fixtureFor(version)
      const { pool, users } = f
      await expect(pool.connect(users[0]).stakeFor(users[0].address, T(1), 30n * DAY))
        .to.be.revertedWithCustomError(pool, 'NotHarvest')
        .withArgs(users[0].address)
      const harvest = users[4]
      await pool.setHarvest(harvest.address)
      await expect(pool.connect(harvest).stakeFor(users[0].address, T(1), 31n * DAY))
        .to.be.revertedWithCustomError(pool, 'TermNotOffered')
        .withArgs(31n * DAY)
      await expect(pool.connect(harvest).stakeFor(ethers.ZeroAddress, T(1), 30n * DAY)).to.be.revertedWithCustomError(
        pool,
        'ZeroAddress',
      )
      const expected = previewStake(await mathState(pool), T(100), 90n * DAY, false, BigInt(DEFAULT_TERMS[1].bonus))
      expect(expected.bonus).to.equal(T(20))
      const t = await pinNextTimestamp()
      const tx = pool.connect(harvest).stakeFor(users[0].address, T(100), 90n * DAY)
      await checkStaked(f, pool, tx, users[0].address, harvest, T(100), expected, 0n, t)
      expect(await pool.getAllUserStakesAmount(harvest.address)).to.equal(0n)
      await time.increase(90n * DAY)
      const e = await unstakeExactly(f, pool, users[0], [0n])
      expect(e.toUser).to.equal(expected.atMaturity)
    })

    it('cannot be initialised twice, nor its implementation, nor without token and reservoir', async () => {
      const f = await fixtureFor(version)
      const { pool, implV1, implV2, token, reservoir, factory } = f
      const impl = version === 1 ? implV1 : implV2
      const args = [
        'x',
        'x',
        await token.getAddress(),
        await reservoir.getAddress(),
        ethers.ZeroAddress,
        ethers.ZeroAddress,
        params(f),
        [] as { hold: bigint; bonus: bigint }[],
      ] as const
      await expect(pool.initialize(...args)).to.be.revertedWithCustomError(pool, 'InvalidInitialization')
      await expect(impl.initialize(...args)).to.be.revertedWithCustomError(impl, 'InvalidInitialization')
      const config = {
        implementation: await impl.getAddress(),
        name: 'n',
        symbol: 's',
        stakeToken: await token.getAddress(),
        reservoir: await reservoir.getAddress(),
        harvest: ethers.ZeroAddress,
        params: params(f),
        terms: [],
      }
      await expect(factory.createPool({ ...config, stakeToken: ethers.ZeroAddress })).to.be.revertedWithCustomError(
        impl,
        'ZeroAddress',
      )
      await expect(factory.createPool({ ...config, reservoir: ethers.ZeroAddress })).to.be.revertedWithCustomError(
        impl,
        'ZeroAddress',
      )
    })

    it('caps each account: total shares and principal at 2^104-1, stakes made at 2^24-1', async () => {
      const f = await fixtureFor(version)
      const { pool, users, token, reservoir, owner } = f
      const whale = users[3]
      await token.connect(owner).mint(whale.address, 2n ** 103n)
      await token.connect(owner).mint(whale.address, 2n ** 105n)
      await approveUnlimited(reservoir, token, await pool.getAddress(), 2n ** 112n)
      // 500% for the full hold: the bonus buys no shares, so each stake of 2^96-1 has 2^96-1 shares and principal,
      // and the 257th passes 2^104-1.
      await pool.setParameters(params(f, { timeBonusPercent: MAX_BONUS_PERCENT }))
      const hold = BigInt(f.params.holdTimeMax)
      const p = pool.connect(whale)
      for (let i = 0; i < 256; i++) await p['stake(uint256,uint256)'](MAX_STAKE_AMOUNT, hold)
      expect(await pool.balanceOf(whale.address)).to.equal(256n * MAX_STAKE_AMOUNT)
      await expect(p['stake(uint256,uint256)'](MAX_STAKE_AMOUNT, hold))
        .to.be.revertedWithCustomError(pool, 'AccountLimit')
        .withArgs(MAX_ACCOUNT_TOTAL)
      // Every one of them still closes, to the wei.
      await time.increase(hold)
      await unstakeExactly(
        f,
        pool,
        whale,
        Array.from({ length: 256 }, (_, i) => BigInt(i)),
      )

      // 2^24-1 stakes cannot be made in a test: write the count the account would have.
      const u = users[0]
      await stakeExactly(f, pool, u, T(1), DAY)
      await unstakeExactly(f, pool, u, [0n], DAY)
      const slot = await accountSlot(pool, u.address)
      const most = 2n ** 24n - 1n
      await ethers.provider.send('hardhat_setStorageAt', [
        await pool.getAddress(),
        ethers.toQuantity(slot),
        ethers.zeroPadValue(ethers.toBeHex((most << 128n) | (most << 104n)), 32),
      ])
      expect(await pool.getUserStakesCount(u.address)).to.equal(most)
      expect(await pool.getUserActiveStakesCount(u.address)).to.equal(0n)
      await expect(pool.connect(u)['stake(uint256,uint256)'](T(1), DAY))
        .to.be.revertedWithCustomError(pool, 'TooManyStakes')
        .withArgs(most)
    })
  })
}

describe('ImplAndTermsV1', () => {
  shouldBehaveLikePool(1)

  it('adds the referral bonus to the length bonus and earns inflation as simple interest, linearly', async () => {
    const f = await fixtureFor(1)
    const { pool, users } = f
    await stakeExactly(f, pool, users[1], T(1000), 1095n * DAY)
    const { expected } = await stakeExactly(f, pool, users[0], T(1000), 365n * DAY, users[1].address)
    // Both bonuses grow with the hold: 5% and 30% of 365/1,095.
    expect(expected.referralBonusPercent).to.equal((BigInt(V1_PARAMS.refererBonusPercent) * 365n) / 1095n)
    expect(expected.lengthBonusPercent).to.equal((BigInt(V1_PARAMS.timeBonusPercent) * 365n) / 1095n)
    expect(expected.bonus).to.equal((T(1000) * ((expected.lengthBonusPercent + expected.referralBonusPercent) / 100n)) / ONE)
    // 400% a year: 4,000 tokens over the year, half of it at half time.
    expect(expected.reward).to.equal(T(4000))
    await time.increase((365n * DAY) / 2n)
    const e = await unstakeExactly(f, pool, users[0], [0n])
    expect(e.closes[0].rewardEarned).to.equal((T(4000) * (e.time - e.stakes[0].stakeTime)) / (365n * DAY))
    expect(e.closes[0].forfeited).to.equal(expected.bonus + T(4000) - e.closes[0].rewardEarned)
  })

  it('streams an early-close fee to the stakes that remain over 30 days, through a rate that only rises', async () => {
    const f = await fixtureFor(1)
    const { pool, users } = f
    const { expected: a } = await stakeExactly(f, pool, users[0], T(1000), 365n * DAY)
    await stakeExactly(f, pool, users[1], T(1000), 365n * DAY)
    await time.increase(100n * DAY)
    const e = await unstakeExactly(f, pool, users[1], [0n])
    const fee = e.closes[0].fee
    expect(e.streamed).to.equal(fee)
    // Nothing reaches the holders at once.
    expect(await pool.getRate()).to.equal(ONE)
    expect(await pool.getFeeStream()).to.deep.equal([fee, e.time + FEE_STREAM])
    let stream: FeeStream = { rate: ONE, sharedFees: 0n, pending: fee, lastRelease: e.time, streamEnd: e.time + FEE_STREAM }
    let shares = a.shares
    // A third of the way, a third of it has reached the holders, in every view, without a transaction.
    await time.increaseTo(e.time + 10n * DAY)
    const third = releaseFees(stream, shares, e.time + 10n * DAY)
    expect(third.released).to.equal(fee / 3n)
    expect(await pool.getRate()).to.equal(third.rate)
    expect(third.rate).to.equal(ONE + ((fee / 3n) * ONE) / (a.shares + VIRTUAL_SHARES))
    expect((await pool.getFeeStream())[0]).to.equal(third.pending)
    expect((await pool.getStake(users[0].address, 0)).gains).to.equal((a.shares * (third.rate - ONE)) / ONE)
    // A new stake releases what is due first (it gets none of that), then shares what follows.
    const t = await pinNextTimestamp()
    const due = releaseFees(stream, shares, t)
    const newcomer = previewStake(await mathState(pool, { blockTag: 'pending' }), T(1000), 365n * DAY, false)
    expect(newcomer.rate).to.equal(due.rate)
    await expect(pool.connect(users[2])['stake(uint256,uint256)'](T(1000), 365n * DAY))
      .to.emit(pool, 'FeesReleased')
      .withArgs(due.released, due.toHolders, due.rate)
    stream = { ...due, lastRelease: t }
    shares += newcomer.shares
    // After the stream's end everything has been released; the holders' part is owed, the rest is the pool's dust.
    await time.increaseTo(e.time + FEE_STREAM + 1n)
    const done = releaseFees(stream, shares, e.time + FEE_STREAM + 1n)
    expect(await pool.getRate()).to.equal(done.rate)
    expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
    const gains = (a.shares * (done.rate - ONE)) / ONE
    const later = (newcomer.shares * (done.rate - due.rate)) / ONE
    expect(later).to.be.greaterThan(0n)
    expect(gains + later).to.be.lessThanOrEqual(fee)
    await time.increase(265n * DAY)
    const m = await unstakeExactly(f, pool, users[0], [0n])
    expect(m.closes[0].gains).to.equal(gains)
    expect(m.toUser).to.equal(a.atMaturity + gains)
    const n = await unstakeExactly(f, pool, users[2], [0n], DAY)
    expect(n.closes[0].gains).to.equal(later)
    // The last share burned: the rounding of the holders' part went back with it; what the virtual shares got, no
    // stake owns: it is left for sweep().
    const dust = await f.token.balanceOf(await pool.getAddress())
    expect((await pool.getPoolState()).obligations).to.equal(0n)
    expect(dust).to.equal(fee - due.toHolders - done.toHolders)
    await expect(pool.sweep()).to.emit(pool, 'Swept').withArgs(dust)
    expect(await pool.getRate()).to.equal(done.rate)
  })

  it('sends a fee to the reservoir when no other share remains', async () => {
    const f = await fixtureFor(1)
    const { pool, users } = f
    await stakeExactly(f, pool, users[0], T(1000), 365n * DAY)
    await time.increase(10n * DAY)
    const e = await unstakeExactly(f, pool, users[0], [0n])
    expect(e.toReservoir).to.equal(e.closes[0].forfeited + e.closes[0].fee)
    expect(await pool.getRate()).to.equal(ONE)
    expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
  })

  it('gives a batch own fees to nobody in that transaction, the callers other stakes included', async () => {
    const f = await fixtureFor(1)
    const { pool, users } = f
    // Users[2]'s stake stays at risk through the stream (a matured one would take no part of it).
    await stakeExactly(f, pool, users[2], T(5000), 365n * DAY)
    for (let i = 0; i < 3; i++) await stakeExactly(f, pool, users[0], T(100 * (i + 1)), 100n * DAY)
    await stakeExactly(f, pool, users[0], T(400), DAY)
    await time.increase(50n * DAY)
    const e = await unstakeExactly(f, pool, users[0], [2n, 3n, 0n, 1n])
    expect(e.closes.map((c) => c.gains)).to.deep.equal([0n, 0n, 0n, 0n])
    expect(e.closes[1].matured).to.equal(true)
    const fees = e.closes.reduce((sum, c) => sum + c.fee, 0n)
    expect(e.streamed).to.equal(fees)
    expect(await pool.getFeeStream()).to.deep.equal([fees, e.time + FEE_STREAM])
    await time.increase(FEE_STREAM)
    const last = await unstakeExactly(f, pool, users[2], [0n])
    expect(last.closes[0].gains).to.be.greaterThan((fees * 999n) / 1000n)
  })

  it('gives even a 1-wei stake its one share once the rate has risen: shares are the principal', async () => {
    const f = await fixtureFor(1)
    const { pool, users } = f
    await stakeExactly(f, pool, users[0], T(1000), 365n * DAY)
    await stakeExactly(f, pool, users[1], T(1000), 365n * DAY)
    await unstakeExactly(f, pool, users[1], [0n])
    await time.increase(FEE_STREAM)
    expect(await pool.getRate()).to.be.greaterThan(ONE)
    const { expected } = await stakeExactly(f, pool, users[2], 1n, DAY)
    expect(expected.shares).to.equal(1n)
  })
})

describe('ImplAndTermsV2', () => {
  shouldBehaveLikePool(2)

  it('keeps the rate at 1e18 and shares equal to the amount', async () => {
    const f = await fixtureFor(2)
    const { pool, users } = f
    const { expected } = await stakeExactly(f, pool, users[0], T(1000), 1095n * DAY)
    expect(expected.shares).to.equal(T(1000))
    expect(expected.bonus).to.equal((T(1000) * BigInt(V2_PARAMS.timeBonusPercent)) / PERCENT)
    expect(expected.reward).to.equal(0n)
    await stakeExactly(f, pool, users[1], T(1000), 200n * DAY)
    await time.increase(50n * DAY)
    await unstakeExactly(f, pool, users[1], [0n])
    expect(await pool.getRate()).to.equal(ONE)
  })

  it('returns the bonus and the fee of an early close to the reservoir', async () => {
    const f = await fixtureFor(2)
    const { pool, users } = f
    await stakeExactly(f, pool, users[1], T(1000), 300n * DAY)
    const { expected } = await stakeExactly(f, pool, users[0], T(1000), 200n * DAY)
    await time.increase(50n * DAY)
    const e = await unstakeExactly(f, pool, users[0], [0n])
    expect(e.toReservoir).to.equal(expected.bonus + e.closes[0].fee)
    expect(e.toUser).to.equal(T(1000) - e.closes[0].fee)
  })

  it('refuses inflation and referral bonus parameters', async () => {
    const f = await fixtureFor(2)
    const { pool } = f
    await expect(pool.setParameters(params(f, { inflationPercent: ONE }))).to.be.revertedWithCustomError(
      pool,
      'NotSupportedInThisVersion',
    )
    await expect(pool.setParameters(params(f, { refererBonusPercent: ONE }))).to.be.revertedWithCustomError(
      pool,
      'NotSupportedInThisVersion',
    )
  })

  it('starts users with their demo balance', async () => {
    const { token, users } = await fixtureFor(2)
    expect(await token.balanceOf(users[0].address)).to.equal(USER_BALANCE)
  })
})
