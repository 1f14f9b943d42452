import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemFixture, USER_BALANCE } from './fixtures'
import { mathState, pinNextTimestamp, stakeMath, storedState, type Pool } from './helpers'
import { DAY, ONE, PERCENT, previewStake, unstakePreview, type PoolVersion } from '../../src/chain/math'
import { V1_PARAMS, V2_PARAMS } from '../../scripts/lib/system'

const T = (n: number) => BigInt(n) * ONE

async function fixtureFor(version: PoolVersion) {
  const sys = await loadFixture(deploySystemFixture)
  const pool: Pool = version === 1 ? sys.poolV1 : sys.poolV2
  return { ...sys, pool, params: version === 1 ? V1_PARAMS : V2_PARAMS }
}

/** Stakes through the 2- or 3-argument overload and checks the result against the math module to the wei. */
async function stakeExactly(
  pool: Pool,
  user: Awaited<ReturnType<typeof ethers.getSigners>>[number],
  amount: bigint,
  hold: bigint,
  referer?: string,
) {
  const { state, lastAccrual } = await storedState(pool)
  const t = await pinNextTimestamp()
  // Everything read after pinning is a view: the stake below is the next block.
  const expected = previewStake(state, amount, hold, referer !== undefined, t - lastAccrual)
  const id = await pool.getUserStakesCount(user.address)
  const p = pool.connect(user)
  const tx = referer ? p['stake(uint256,uint256,address)'](amount, hold, referer) : p['stake(uint256,uint256)'](amount, hold)
  await expect(tx)
    .to.emit(pool, 'Staked')
    .withArgs(user.address, id, amount, expected.bonus, expected.shares, expected.holdTime, referer ?? ethers.ZeroAddress)
  const s = await pool.getStake(user.address, id)
  expect(s.lpAmount).to.equal(expected.shares)
  expect(s.stakeAmount).to.equal(amount)
  expect(s.holdTime).to.equal(expected.holdTime)
  expect(s.stakeTime).to.equal(t)
  expect(s.active).to.equal(true)
  return { id, expected }
}

async function unstakeExactly(
  pool: Pool,
  user: Awaited<ReturnType<typeof ethers.getSigners>>[number],
  id: bigint,
  token: Awaited<ReturnType<typeof deploySystemFixture>>['token'],
  after = 1n,
) {
  const version = Number(await pool.version()) as PoolVersion
  const { state, lastAccrual } = await storedState(pool)
  const t = await pinNextTimestamp(after)
  const inflation =
    state.inflationPercent === 0n ? 0n : (await import('../../src/chain/math')).inflationPaid(state, t - lastAccrual)
  const rate = (await import('../../src/chain/math')).rate(version, state.totalStaked + inflation, state.totalShares)
  const expected = unstakePreview(version, await stakeMath(pool, user.address, id), rate, state.unHoldFee, t)
  const tx = pool.connect(user).unstake([id])
  await expect(tx).to.emit(pool, 'Unstaked').withArgs(user.address, id, expected.received, expected.fee)
  await expect(tx).to.changeTokenBalance(token, user, expected.received)
  const s = await pool.getStake(user.address, id)
  expect(s.active).to.equal(false)
  expect(s.closeAmount).to.equal(expected.received)
  expect(s.closeTime).to.equal(t)
  expect(s.closeRate).to.equal(rate)
  return expected
}

function shouldBehaveLikePool(version: PoolVersion) {
  describe(`common behaviour (version ${version})`, () => {
    it('reports its version, token, reservoir and harvest', async () => {
      const { pool, token, reservoir, harvest } = await fixtureFor(version)
      expect(await pool.version()).to.equal(version)
      expect(await pool.stakeToken()).to.equal(await token.getAddress())
      expect(await pool.reservoir()).to.equal(await reservoir.getAddress())
      expect(await pool.harvest()).to.equal(await harvest.getAddress())
      expect(await pool.getRate()).to.equal(ONE)
    })

    it('stakes for whole days and funds the length bonus from the reservoir', async () => {
      const { pool, users, token, reservoir } = await fixtureFor(version)
      const before = await token.balanceOf(await reservoir.getAddress())
      const { expected } = await stakeExactly(pool, users[0], T(1000), 365n * DAY + 5000n)
      expect(expected.holdTime).to.equal(365n * DAY)
      expect(expected.bonus).to.be.greaterThan(0n)
      expect(await token.balanceOf(await reservoir.getAddress())).to.equal(before - expected.bonus - expected.inflation)
      expect(await pool.getAllUserStakesAmount(users[0].address)).to.equal(T(1000))
      expect(await pool.balanceOf(users[0].address)).to.equal(expected.shares)
    })

    it('rejects a hold under one day, over the maximum, or too short with a referer', async () => {
      const { pool, users } = await fixtureFor(version)
      const p = pool.connect(users[0])
      const max = await pool.holdTimeMax()
      await expect(p['stake(uint256,uint256)'](T(1), DAY - 1n))
        .to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
        .withArgs(DAY - 1n, DAY, max)
      await expect(p['stake(uint256,uint256)'](T(1), max + DAY)).to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
      await expect(p['stake(uint256,uint256,address)'](T(1), 10n * DAY, users[1].address))
        .to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
        .withArgs(10n * DAY, await pool.holdTimeRefMin(), max)
      await expect(p['stake(uint256,uint256,address)'](T(1), 100n * DAY, users[0].address)).to.be.revertedWithCustomError(
        pool,
        'SelfReferral',
      )
      await expect(p['stake(uint256,uint256)'](0n, 10n * DAY)).to.be.revertedWithCustomError(pool, 'ZeroAmount')
    })

    it('refuses amounts that do not fit a stake slot instead of truncating them', async () => {
      const { pool, users, token, owner } = await fixtureFor(version)
      const huge = 2n ** 96n
      await token.connect(owner).mint(users[0].address, huge)
      await expect(pool.connect(users[0])['stake(uint256,uint256)'](huge, DAY)).to.be.revertedWithCustomError(
        pool,
        'SafeCastOverflowedUintDowncast',
      )
    })

    it('pays an early close less the linear fee and records the close', async () => {
      const { pool, users, token } = await fixtureFor(version)
      const { id } = await stakeExactly(pool, users[0], T(500), 100n * DAY)
      await time.increase(40n * DAY)
      const e = await unstakeExactly(pool, users[0], id, token)
      expect(e.fee).to.be.greaterThan(0n)
      expect(await pool.getAllUserStakesAmount(users[0].address)).to.equal(0n)
      expect(await pool.balanceOf(users[0].address)).to.equal(0n)
      const [amountOut, fee] = await pool.getUnstakeData(users[0].address, id)
      expect(amountOut - fee).to.equal(e.received)
      expect(fee).to.equal(e.fee)
    })

    it('pays a matured stake at least its amount, with no fee', async () => {
      const { pool, users, token } = await fixtureFor(version)
      const { id, expected } = await stakeExactly(pool, users[0], T(500), 90n * DAY)
      await time.increase(90n * DAY)
      const e = await unstakeExactly(pool, users[0], id, token)
      expect(e.fee).to.equal(0n)
      expect(e.received).to.be.greaterThanOrEqual(T(500) + expected.bonus - 1n)
    })

    it('closes several stakes in one call and refuses a closed or unknown id', async () => {
      const { pool, users } = await fixtureFor(version)
      for (let i = 0; i < 3; i++) await pool.connect(users[1])['stake(uint256,uint256)'](T(10 + i), 30n * DAY)
      await time.increase(31n * DAY)
      await expect(pool.connect(users[1]).unstake([0, 2])).to.emit(pool, 'Unstaked')
      expect((await pool.getStake(users[1].address, 1)).active).to.equal(true)
      await expect(pool.connect(users[1]).unstake([2]))
        .to.be.revertedWithCustomError(pool, 'StakeNotActive')
        .withArgs(2)
      await expect(pool.connect(users[1]).unstake([7]))
        .to.be.revertedWithCustomError(pool, 'StakeNotFound')
        .withArgs(7)
      await expect(pool.connect(users[1]).unstake([])).to.be.revertedWithCustomError(pool, 'NoStakeIds')
      await expect(pool.getStake(users[1].address, 9)).to.be.revertedWithCustomError(pool, 'StakeNotFound')
      await expect(pool.getUnstakeData(users[1].address, 9)).to.be.revertedWithCustomError(pool, 'StakeNotFound')
    })

    it('keeps pool shares with their stakes: no transfers', async () => {
      const { pool, users } = await fixtureFor(version)
      await pool.connect(users[0])['stake(uint256,uint256)'](T(10), DAY)
      await expect(pool.connect(users[0]).transfer(users[1].address, 1n)).to.be.revertedWithCustomError(
        pool,
        'SharesNotTransferable',
      )
    })

    it('pages a user stakes and stake infos', async () => {
      const { pool, users } = await fixtureFor(version)
      for (let i = 0; i < 5; i++) await pool.connect(users[2])['stake(uint256,uint256)'](T(1 + i), DAY)
      const page = await pool.getUserStakes(users[2].address, 1, 2)
      expect(page.map((s) => s.stakeAmount)).to.deep.equal([T(2), T(3)])
      expect(await pool.getUserStakes(users[2].address, 9, 2)).to.deep.equal([])
      expect((await pool.getAllUserStakes(users[2].address)).length).to.equal(5)
      const [infos, next] = await pool.getStakeInfos(users[2].address, 3, 10, 0)
      expect(infos.map((i) => i.stakeId)).to.deep.equal([3n, 4n])
      expect(next).to.equal(5n)
    })

    it('lets only the owner set bounded parameters, terms, pause and harvest', async () => {
      const { pool, users, params } = await fixtureFor(version)
      const u = pool.connect(users[0])
      await expect(u.setParameters(params)).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      await expect(u.setHarvestTerms([])).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      await expect(u.setStakingPaused(true)).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      await expect(u.setHarvest(users[0].address)).to.be.revertedWithCustomError(pool, 'OwnableUnauthorizedAccount')
      await expect(pool.setParameters({ ...params, unHoldFee: PERCENT + 1n })).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      await expect(pool.setParameters({ ...params, holdTimeMax: 1096n * DAY })).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      await expect(pool.setParameters({ ...params, holdTimeMax: DAY - 1n })).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      await expect(pool.setParameters({ ...params, holdTimeRefMin: 1096n * DAY })).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      await expect(pool.setParameters({ ...params, timeBonusPercent: 1001n * ONE })).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      await expect(pool.setParameters({ ...params, unHoldFee: 10n * ONE })).to.emit(pool, 'ParametersChanged')
      expect(await pool.unHoldFee()).to.equal(10n * ONE)
      await expect(pool.setHarvestTerms([{ hold: DAY - 1n, bonus: 0n }])).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      await expect(pool.setHarvestTerms([{ hold: DAY, bonus: 1001n * ONE }])).to.be.revertedWithCustomError(
        pool,
        'ParameterOutOfBounds',
      )
      const eleven = Array.from({ length: 11 }, (_, i) => ({ hold: BigInt(i + 1) * DAY, bonus: ONE }))
      await expect(pool.setHarvestTerms(eleven)).to.be.revertedWithCustomError(pool, 'TooManyTerms').withArgs(11)
      await expect(pool.setHarvestTerms([{ hold: 7n * DAY, bonus: ONE }])).to.emit(pool, 'HarvestTermsChanged')
      expect(await pool.getAllHarvestBonusTimeData()).to.deep.equal([[7n * DAY, ONE]])
      await expect(pool.setHarvest(users[3].address)).to.emit(pool, 'HarvestChanged').withArgs(users[3].address)
    })

    it('pauses new stakes but never closes', async () => {
      const { pool, users } = await fixtureFor(version)
      await pool.connect(users[0])['stake(uint256,uint256)'](T(10), DAY)
      await expect(pool.setStakingPaused(true)).to.emit(pool, 'StakingPausedChanged').withArgs(true)
      await expect(pool.connect(users[0])['stake(uint256,uint256)'](T(10), DAY)).to.be.revertedWithCustomError(
        pool,
        'StakingIsPaused',
      )
      await expect(pool.connect(users[0]).unstake([0])).to.emit(pool, 'Unstaked')
    })

    it('accepts stakeFor only from the harvest contract and only with an offered term', async () => {
      const { pool, users } = await fixtureFor(version)
      await expect(pool.connect(users[0]).stakeFor(users[0].address, T(1), 30n * DAY))
        .to.be.revertedWithCustomError(pool, 'NotHarvest')
        .withArgs(users[0].address)
      await pool.setHarvest(users[4].address)
      await expect(pool.connect(users[4]).stakeFor(users[0].address, T(1), 31n * DAY))
        .to.be.revertedWithCustomError(pool, 'TermNotOffered')
        .withArgs(31n * DAY)
      await expect(pool.connect(users[4]).stakeFor(ethers.ZeroAddress, T(1), 30n * DAY)).to.be.revertedWithCustomError(
        pool,
        'ZeroAddress',
      )
      const { state, lastAccrual } = await storedState(pool)
      const t = await pinNextTimestamp()
      const e = previewStake(state, T(100), 90n * DAY, false, t - lastAccrual, 20n * ONE)
      const tx = pool.connect(users[4]).stakeFor(users[0].address, T(100), 90n * DAY)
      await expect(tx)
        .to.emit(pool, 'Staked')
        .withArgs(users[0].address, 0, T(100), e.bonus, e.shares, 90n * DAY, ethers.ZeroAddress)
      await expect(tx).to.changeTokenBalance(
        await ethers.getContractAt('PlatformToken', await pool.stakeToken()),
        users[4],
        -T(100),
      )
    })

    it('cannot be initialised twice, nor its implementation at all', async () => {
      const { pool, implV1, implV2, params, token, reservoir } = await fixtureFor(version)
      const impl = version === 1 ? implV1 : implV2
      const args = [
        'x',
        'x',
        await token.getAddress(),
        await reservoir.getAddress(),
        ethers.ZeroAddress,
        ethers.ZeroAddress,
        params,
        [] as { hold: bigint; bonus: bigint }[],
      ] as const
      await expect(pool.initialize(...args)).to.be.revertedWithCustomError(pool, 'InvalidInitialization')
      await expect(impl.initialize(...args)).to.be.revertedWithCustomError(impl, 'InvalidInitialization')
    })
  })
}

describe('ImplAndTermsV1', () => {
  shouldBehaveLikePool(1)

  it('adds the referral bonus on top of the length bonus', async () => {
    const { pool, users } = await fixtureFor(1)
    const { expected } = await stakeExactly(pool, users[0], T(1000), 365n * DAY, users[1].address)
    expect(expected.referralBonusPercent).to.equal(V1_PARAMS.refererBonusPercent)
    expect(expected.lengthBonusPercent).to.equal((BigInt(V1_PARAMS.timeBonusPercent) * 365n) / 1095n)
  })

  it('leaves the early fee in the pool so the rate rises for those who hold', async () => {
    const { pool, users, token } = await fixtureFor(1)
    await stakeExactly(pool, users[0], T(1000), 365n * DAY)
    const { id } = await stakeExactly(pool, users[1], T(1000), 365n * DAY)
    const before = (await mathState(pool)).totalStaked
    const rateBefore = await pool.getRate()
    const e = await unstakeExactly(pool, users[1], id, token)
    expect(e.fee).to.be.greaterThan(0n)
    expect(await pool.getRate()).to.be.greaterThan(rateBefore)
    expect(await pool.totalStaked()).to.be.greaterThanOrEqual(before - e.received)
  })

  it('accrues inflation into the rate, including the due part in views', async () => {
    const { pool, users } = await fixtureFor(1)
    await stakeExactly(pool, users[0], T(1000), 365n * DAY)
    const stored = await pool.totalStaked()
    await time.increase(30n * DAY)
    const view = await mathState(pool)
    expect(view.totalStaked).to.be.greaterThan(stored)
    expect(await pool.getAllCurrentStakeAmount(users[0].address)).to.equal(
      ((await pool.balanceOf(users[0].address)) * (await pool.getRate())) / ONE,
    )
    await expect(pool.connect(users[1])['stake(uint256,uint256)'](T(1), DAY)).to.emit(pool, 'InflationAccrued')
  })

  for (const [label, rich] of [
    ['a full', true],
    ['a nearly empty', false],
  ] as const) {
    it(`runs a year at 400% with ${label} reservoir and every stake still closes`, async () => {
      const sys = await loadFixture(rich ? deploySystemFixture : (await import('./fixtures')).deployPoorReservoirFixture)
      const pool = sys.poolV1
      const ids: bigint[] = []
      for (const u of sys.users) ids.push((await stakeExactly(pool, u, T(10_000), 365n * DAY)).id)
      for (let m = 0; m < 12; m++) {
        await time.increase(30n * DAY + DAY / 2n)
        await stakeExactly(pool, sys.users[m % 5], T(1), DAY)
      }
      await time.increase(5n * DAY)
      const rate = await pool.getRate()
      if (rich) {
        // Compounded monthly, 400% simple a year is at least x5 the principal.
        expect(rate).to.be.greaterThan(5n * ONE)
      } else {
        expect((await pool.getPoolState()).reservoirAvailable).to.equal(0n)
        expect(rate).to.be.lessThan(ONE + ONE / 100n)
      }
      for (const [i, u] of sys.users.entries()) {
        const e = await unstakeExactly(pool, u, ids[i], sys.token)
        expect(e.received).to.be.greaterThanOrEqual(T(10_000))
      }
      const balance = await sys.token.balanceOf(await pool.getAddress())
      expect(balance).to.be.greaterThanOrEqual(await pool.totalStaked())
    })
  }

  it('does not charge inflation for the time before it was switched on', async () => {
    const { pool, users, params } = await fixtureFor(1)
    await pool.setParameters({ ...params, inflationPercent: 0n })
    await stakeExactly(pool, users[0], T(1000), 365n * DAY)
    await time.increase(100n * DAY)
    await pool.setParameters(params)
    expect((await mathState(pool)).totalStaked).to.equal(await pool.totalStaked())
  })
})

describe('ImplAndTermsV2', () => {
  shouldBehaveLikePool(2)

  it('keeps the rate at 1e18 and shares equal to amount plus the length bonus', async () => {
    const { pool, users } = await fixtureFor(2)
    const { expected } = await stakeExactly(pool, users[0], T(1000), 1095n * DAY)
    expect(expected.shares).to.equal(T(1000) + (T(1000) * BigInt(V2_PARAMS.timeBonusPercent)) / PERCENT)
    await time.increase(400n * DAY)
    expect(await pool.getRate()).to.equal(ONE)
    expect(await pool.totalStaked()).to.equal(await pool.totalSupply())
  })

  it('returns the unused bonus and the fee to the reservoir on an early close', async () => {
    const { pool, users, token, reservoir } = await fixtureFor(2)
    const { id, expected } = await stakeExactly(pool, users[0], T(1000), 200n * DAY)
    await time.increase(50n * DAY)
    const before = await token.balanceOf(await reservoir.getAddress())
    const e = await unstakeExactly(pool, users[0], id, token)
    expect(await token.balanceOf(await reservoir.getAddress())).to.equal(before + expected.bonus + e.fee)
    expect(await token.balanceOf(await pool.getAddress())).to.equal(0n)
  })

  it('refuses inflation and referral bonus parameters', async () => {
    const { pool } = await fixtureFor(2)
    await expect(pool.setParameters({ ...V2_PARAMS, inflationPercent: ONE })).to.be.revertedWithCustomError(
      pool,
      'NotSupportedInThisVersion',
    )
    await expect(pool.setParameters({ ...V2_PARAMS, refererBonusPercent: ONE })).to.be.revertedWithCustomError(
      pool,
      'NotSupportedInThisVersion',
    )
  })

  it('starts users with their demo balance', async () => {
    const { token, users } = await fixtureFor(2)
    expect(await token.balanceOf(users[0].address)).to.equal(USER_BALANCE)
  })
})
