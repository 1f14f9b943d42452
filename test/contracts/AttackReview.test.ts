/**
 * Independent attack review of the pools, registry, reservoir, harvest, Lens and permit stake against
 * docs/contracts.md. Each `it` is one attack: a passing test asserts the defence that held, a failing test (marked
 * BROKEN in its title) asserts the promise the attack breaks, with the figures in its failure message.
 */
import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/signers'
import { deploySystemWith } from './fixtures'
import { PENDING, expectSolvent, inOneBlock, jamFactory, pinNextTimestamp, stakeMath, type Pool } from './helpers'
import { mathState } from '../../scripts/lib/poolState'
import { signedClaim } from '../../scripts/lib/claims'
import { DAY, FEE_STREAM, ONE, PERCENT, boundsOf, previewStake, unstakePreview, type StakeBounds } from '../../src/domain/math'
import { permitDomain, signPermit } from '../../src/domain/permit'
import { BrokenPool__factory, PoolsInfo__factory, StakingPoolFactory__factory } from '../../src/chain/types'
import { DEFAULT_TERMS, V1_PARAMS } from '../../scripts/lib/system'

const T = (n: number | bigint) => BigInt(n) * ONE
const ZERO = ethers.ZeroAddress
const MAX_HOLD = 1095n * DAY
const fmt = (x: bigint) => ethers.formatUnits(x, 18)
const params = (over: Partial<Record<keyof typeof V1_PARAMS, bigint>> = {}) => ({
  inflationPercent: BigInt(V1_PARAMS.inflationPercent),
  refererBonusPercent: BigInt(V1_PARAMS.refererBonusPercent),
  timeBonusPercent: BigInt(V1_PARAMS.timeBonusPercent),
  unHoldFee: BigInt(V1_PARAMS.unHoldFee),
  holdTimeRefMin: BigInt(V1_PARAMS.holdTimeRefMin),
  holdTimeMax: BigInt(V1_PARAMS.holdTimeMax),
  ...over,
})

async function reviewFixture() {
  return deploySystemWith()
}
type Fixture = Awaited<ReturnType<typeof reviewFixture>>

const stake2 = (pool: Pool, u: HardhatEthersSigner, amount: bigint, hold: bigint, ov: object = {}) =>
  pool.connect(u)['stake(uint256,uint256)'](amount, hold, ov)
const stake3 = (pool: Pool, u: HardhatEthersSigner, amount: bigint, hold: bigint, referer: string, ov: object = {}) =>
  pool.connect(u)['stake(uint256,uint256,address)'](amount, hold, referer, ov)
const guarded = (
  pool: Pool,
  u: HardhatEthersSigner,
  amount: bigint,
  hold: bigint,
  b: StakeBounds,
  referer = ZERO,
  ov: object = {},
) =>
  pool
    .connect(u)
    ['stake(uint256,uint256,address,uint256,uint256,uint256)'](amount, hold, referer, b.maxFee, b.minBonus, b.minReward, ov)

/** Sends `sends` in order into one block and mines it (helpers.ts inOneBlock); returns each receipt's status. */
const statusesInOneBlock = async (sends: Parameters<typeof inOneBlock>[0]) => (await inOneBlock(sends)).map((r) => r.status!)

async function permitFor(f: Fixture, owner: HardhatEthersSigner, spender: string, value: bigint) {
  const domain = permitDomain(await f.token.name(), (await ethers.provider.getNetwork()).chainId, await f.token.getAddress())
  const deadline = BigInt(await time.latest()) + 3600n
  const nonce = await f.token.nonces(owner.address)
  const sig = await signPermit(owner, domain, { owner: owner.address, spender, value, nonce, deadline })
  return [deadline, sig.v, sig.r, sig.s] as const
}

const claimOf = async (f: Fixture, user: string, amount: bigint) =>
  (await signedClaim({ harvest: f.harvest, rewardToken: await f.token.getAddress(), signer: f.signer }, user, amount)).args

describe('Attack review', () => {
  describe('1. terms the holder never saw', () => {
    it('held: a reservoir allowance cut landing first in the block refuses the guarded, permit and claim-and-stake forms', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, token, reservoir, harvest } = f
      const [a, b, c] = f.users
      const poolAddr = await pool.getAddress()
      const shown = boundsOf(previewStake(await mathState(pool), T(100_000), MAX_HOLD, false))
      expect([shown.minBonus, shown.minReward]).to.deep.equal([T(30_000), T(1_200_000)])
      const term = DEFAULT_TERMS[2]
      const shownTerm = boundsOf(previewStake(await mathState(pool), T(10_000), 180n * DAY, false, BigInt(term.bonus)))
      await token.connect(b).approve(poolAddr, 0n)
      const permit = await permitFor(f, b, poolAddr, T(100_000))
      const claim = await claimOf(f, c.address, T(10_000))
      const statuses = await statusesInOneBlock([
        (ov) => reservoir.approvePool(token.getAddress(), poolAddr, T(1_000), ov),
        (ov) => guarded(pool, a, T(100_000), MAX_HOLD, shown, ZERO, ov),
        (ov) =>
          pool
            .connect(b)
            .stakeWithPermit(T(100_000), MAX_HOLD, ZERO, shown.maxFee, shown.minBonus, shown.minReward, ...permit, ov),
        (ov) => harvest.connect(c).harvestStakeGuarded(...claim, poolAddr, 180n * DAY, shownTerm, ov),
      ])
      expect(statuses, 'allowance cut, guarded, permit, claim-and-stake').to.deep.equal([1, 0, 0, 0])
      for (const u of [a, b, c]) expect(await pool.getUserStakesCount(u.address)).to.equal(0n)
      expect(await harvest.claimed(c.address, await token.getAddress())).to.equal(0n)
    })

    it('held: setParameters / setHarvestTerms landing first in the block refuse every guarded form, naming the term', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, harvest, token } = f
      const [a, b, c] = f.users
      const poolAddr = await pool.getAddress()
      await pool.setParameters(params({ unHoldFee: 10n * ONE }))
      const shown = boundsOf(previewStake(await mathState(pool), T(100_000), 365n * DAY, true))
      const term = DEFAULT_TERMS[2]
      const shownTerm = boundsOf(previewStake(await mathState(pool), T(10_000), 180n * DAY, false, BigInt(term.bonus)))
      // A referer whose stake backs the referral (so only the parameters decide).
      await stake2(pool, f.users[4], T(200_000), MAX_HOLD)
      await token.connect(b).approve(poolAddr, 0n)
      const permit = await permitFor(f, b, poolAddr, T(100_000))
      const claim = await claimOf(f, c.address, T(10_000))
      const ref = f.users[4].address
      const statuses = await statusesInOneBlock([
        // Fee up a hair, referral bonus down a hair (enough to move a 365-day bonus fraction): each a worse term than shown.
        (ov) => pool.setParameters(params({ unHoldFee: 10n * ONE + 100n, refererBonusPercent: 5n * ONE - 10_000n }), ov),
        (ov) =>
          pool.setHarvestTerms(
            DEFAULT_TERMS.map((t) => ({ hold: t.hold, bonus: BigInt(t.bonus) - 100n })),
            ov,
          ),
        (ov) => guarded(pool, a, T(100_000), 365n * DAY, shown, ref, ov),
        (ov) =>
          pool
            .connect(b)
            .stakeWithPermit(T(100_000), 365n * DAY, ref, shown.maxFee, shown.minBonus, shown.minReward, ...permit, ov),
        (ov) =>
          harvest.connect(c).harvestStakeGuarded(...claim, poolAddr, 180n * DAY, { ...shownTerm, maxFee: 10n * ONE + 100n }, ov),
      ])
      expect(statuses, 'params, terms, guarded, permit, claim-and-stake').to.deep.equal([1, 1, 0, 0, 0])
      await expect(guarded(pool, a, T(100_000), 365n * DAY, shown, ref)).to.be.revertedWithCustomError(pool, 'FeeAboveMax')
      await expect(guarded(pool, a, T(100_000), 365n * DAY, { ...shown, maxFee: PERCENT }, ref)).to.be.revertedWithCustomError(
        pool,
        'BonusBelowMin',
      )
      await expect(
        harvest.connect(c).harvestStakeGuarded(...(await claimOf(f, c.address, T(10_000))), poolAddr, 180n * DAY, {
          ...shownTerm,
          maxFee: PERCENT,
        }),
      ).to.be.revertedWithCustomError(pool, 'BonusBelowMin')
    })

    it('documented: the spec forms (stake 2/3-arg, harvestStake) land on terms changed in front of them', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, harvest } = f
      const [a, c] = f.users
      const term = DEFAULT_TERMS[2]
      await pool.setParameters(params({ unHoldFee: 10n * ONE }))
      const seen = previewStake(await mathState(pool), T(100_000), MAX_HOLD, false)
      const statuses = await statusesInOneBlock([
        (ov) => pool.setParameters(params({ unHoldFee: PERCENT, timeBonusPercent: 0n }), ov),
        (ov) =>
          pool.setHarvestTerms(
            DEFAULT_TERMS.map((t) => ({ hold: t.hold, bonus: 0n })),
            ov,
          ),
        (ov) => stake2(pool, a, T(100_000), MAX_HOLD, ov),
      ])
      expect(statuses).to.deep.equal([1, 1, 1])
      const s = await pool.getStake(a.address, 0)
      expect([s.unHoldFee, s.bonus]).to.deep.equal([PERCENT, 0n])
      expect(seen.bonus).to.equal(T(30_000))
      await harvest.connect(c).harvestStake(...(await claimOf(f, c.address, T(10_000))), await pool.getAddress(), term.hold)
      expect((await pool.getStake(c.address, 0)).bonus, 'term bonus cut from 4,000 to 0').to.equal(0n)
    })

    it('fixed (was BROKEN, low): setHarvestTerms refuses two terms of one hold, so the Lens shows no 50% term no claim-and-stake can get', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, harvest, lens } = f
      const c = f.users[2]
      const poolAddr = await pool.getAddress()
      const terms = [
        { hold: 30n * DAY, bonus: 5n * ONE },
        { hold: 30n * DAY, bonus: 50n * ONE },
      ]
      // Fixed: two terms of one hold are refused, naming the hold; the pool keeps one term per hold.
      await expect(pool.setHarvestTerms(terms))
        .to.be.revertedWithCustomError(pool, 'DuplicateTerm')
        .withArgs(30n * DAY)
      await pool.setHarvestTerms([terms[0]])
      const shownTerms = (await lens.getPoolData(poolAddr, c.address)).harvestTerms
      const best = shownTerms.reduce((m, t) => (t.bonus > m ? t.bonus : m), 0n)
      expect(best, 'the Lens shows the one 30-day term, at 5%').to.equal(5n * ONE)
      // The term chooser shows 30 days at 5%: 500 on 10,000, and the guarded claim-and-stake lands on it.
      const shown = boundsOf(previewStake(await mathState(pool), T(10_000), 30n * DAY, false, best))
      expect(shown.minBonus).to.equal(T(500))
      await harvest.connect(c).harvestStakeGuarded(...(await claimOf(f, c.address, T(10_000))), poolAddr, 30n * DAY, shown)
      const got = (await pool.getStake(c.address, 0)).bonus
      expect(got, `a 30-day claim-and-stake of 10,000 got a bonus of ${fmt(got)}; the pool shows 30 days at 5% (500)`).to.equal(
        T(500),
      )
    })
  })

  describe('2. fee sharing', () => {
    it('held: a 500%-bonus stake, ten small stakes and a stake made just before a whale close collect at most their principal-time part; every close pays its preview; solvent to the wei', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, lens, token } = f
      const [W, A, B, S, L] = f.users
      const poolAddr = await pool.getAddress()
      await token.mint(S.address, T(1_000_000))
      await stake2(pool, W, T(1_000_000), MAX_HOLD)
      await stake2(pool, L, T(1_000_000), MAX_HOLD)
      // New stakes: a 500% length bonus at the longest hold, a fee of 1%; then the same stake with no bonus.
      await pool.setParameters(params({ timeBonusPercent: 500n * ONE, unHoldFee: ONE, inflationPercent: 0n }))
      await time.increase(10n * DAY)
      await stake2(pool, A, T(100_000), MAX_HOLD) // bonus 500,000
      await pool.setParameters(params({ timeBonusPercent: 0n, unHoldFee: ONE, inflationPercent: 0n }))
      await stake2(pool, B, T(100_000), MAX_HOLD) // no bonus
      for (let i = 0; i < 10; i++) await stake2(pool, S, T(10_000), DAY) // ten of 10,000
      await pool.connect(W).unstake([0])
      const whaleFee = (await pool.getStakeInfo(W.address, 0)).fee
      expect(fmt(whaleFee).slice(0, 6)).to.equal('990867')
      await time.increase(FEE_STREAM + 1n)
      const paid = async (u: HardhatEthersSigner, ids: bigint[]) => {
        const t = await pinNextTimestamp()
        let shown = 0n
        for (const id of ids) {
          const info = await pool.getStakeInfo(u.address, id, PENDING)
          const viaLens = await lens.getUnstakeData(poolAddr, u.address, id, PENDING)
          const preview = unstakePreview(
            await stakeMath(pool, u.address, id, PENDING),
            (await pool.getPoolState(PENDING)).rate,
            t,
          )
          expect([viaLens.amountOut, viaLens.fee]).to.deep.equal([info.amountOut, info.fee])
          // The math's figures but the gains, which stop at the release day's start: the view's.
          expect([preview.amountOut - preview.gains + info.stake.gains, preview.fee]).to.deep.equal([info.amountOut, info.fee])
          shown += info.amountOut - info.fee
        }
        const before = await token.balanceOf(u.address)
        await pool.connect(u).unstake(ids)
        const got = (await token.balanceOf(u.address)) - before
        expect(got, 'a close pays what the views showed').to.equal(shown)
        await expectSolvent(f, pool)
        let gains = 0n
        for (const id of ids) gains += (await pool.getStakeInfo(u.address, id)).stake.gains
        return gains
      }
      // A and B, the same principal at risk for the same time, one with a 500% bonus and one with none: the same gains.
      const [gA0, gB0] = [
        (await pool.getStakeInfo(A.address, 0)).stake.gains,
        (await pool.getStakeInfo(B.address, 0)).stake.gains,
      ]
      expect(gA0, 'the bonus buys no part of the fees').to.equal(gB0)
      // Matured ones first (no fee of their own), then B's and A's early closes (their 1% fees stream to those left).
      const gS = await paid(S, [...Array(10).keys()].map(BigInt))
      const gB = await paid(B, [0n])
      const gA = await paid(A, [0n])
      // At risk through the whole stream: L 1,000,000, A and B 100,000 each, so never less than 1,200,000 (S's ten
      // 1-day stakes stop sharing at the start of their release day): no principal-time part is above p / 1,200,000.
      const fair = (p: bigint) => (whaleFee * p) / T(1_200_000)
      for (const [name, g] of [
        ['500%-bonus stake', gA],
        ['no-bonus stake', gB],
        ['ten small stakes', gS],
      ] as const)
        expect(g <= fair(T(100_000)), `${name} got ${fmt(g)}, fair ${fmt(fair(T(100_000)))}`).to.equal(true)
      expect(gS < gA, 'ten 1-day stakes, out of the shares from their release day, get less').to.equal(true)
      const gL = await paid(L, [0n])
      expect(gL <= fair(T(1_000_000))).to.equal(true)
      expect((await pool.getPoolState()).obligations).to.equal(0n)
    })
  })

  describe('3. referrals', () => {
    it('fixed (was BROKEN twice): a 1-wei stake naming a stranger as referer sends nothing of the stranger\u2019s early-close fee (990,867 PLT) to the reservoir; all of it streams to the holders', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, token, reservoir } = f
      const [H, W, G] = f.users
      // H and W, honest holders, each 1,000,000 for 1,095 days.
      await stake2(pool, H, T(1_000_000), MAX_HOLD)
      await stake2(pool, W, T(1_000_000), MAX_HOLD)
      // G, a griefer with no stake in the pool, names W as referer for 1 wei over 1,094 days. W never agreed to refer.
      await stake3(pool, G, 1n, 1094n * DAY, W.address)
      expect((await pool.getReferralBacking(W.address, 0))[0], 'a bonus below one unit is no debt').to.equal(0n)
      // Ten days in, W closes early: its fee is the holders' ("earned from strong hands").
      await time.increase(10n * DAY)
      const res = await reservoir.getAddress()
      const r0 = await token.balanceOf(res)
      await pool.connect(W).unstake([0])
      const { fee, forfeited } = await pool.getStakeInfo(W.address, 0)
      const toReservoir = (await token.balanceOf(res)) - r0
      const [pending] = await pool.getFeeStream()
      await time.increase(FEE_STREAM + 1n)
      const hGains = (await pool.getStakeInfo(H.address, 0)).stake.gains
      expect(
        [toReservoir - forfeited, pending],
        `W's early-close fee ${fmt(fee)}: ${fmt(toReservoir - forfeited)} went to the reservoir (besides its forfeited bonus and reward), streaming ${fmt(pending)} ` +
          `to the holders; H, holding 1,000,000 all along, gets ${fmt(hGains)} of it. The griefer's cost: a 1-wei stake`,
      ).to.deep.equal([0n, fee])
      expect(hGains > T(990_000), `H gets ${fmt(hGains)}`).to.equal(true)
    })

    it('held: at the most generous parameters (500% referral bonus) a throwaway second-address referer nets its owner nothing', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, token } = f
      const [S, X, Y] = f.users
      await pool.setParameters(params({ refererBonusPercent: 500n * ONE }))
      await pool.setRefererMinStake(ONE)
      // The most S backs for 30 days from tS + 1: its fee at the referred release, ~97,260; a 30-day referral at 500%
      // gets 500% x 30 / 1,095 (13.7%), so about 710,000 tokens' referral takes all of it.
      const cap = (T(100_000) * (MAX_HOLD - 30n * DAY - 1n)) / MAX_HOLD
      const fraction = (500n * ONE * 30n * DAY) / MAX_HOLD / 100n
      const amount = ((cap * ONE) / fraction / ONE) * ONE
      await token.mint(X.address, amount)
      const s0 = await token.balanceOf(S.address)
      const x0 = await token.balanceOf(X.address)
      const tS = await pinNextTimestamp()
      await stake2(pool, S, T(100_000), MAX_HOLD)
      await time.setNextBlockTimestamp(tS + 1n)
      await stake3(pool, X, amount, 30n * DAY, S.address)
      await expect(stake3(pool, Y, T(1_000), 30n * DAY, S.address)).to.be.revertedWithCustomError(pool, 'ReferralNotBacked')
      // S closes a second later; X holds to maturity.
      await pool.connect(S).unstake([0])
      await time.increase(30n * DAY)
      await pool.connect(X).unstake([0])
      const plain = previewStake(await mathState(pool), amount, 30n * DAY, false)
      const net =
        (await token.balanceOf(S.address)) - s0 + ((await token.balanceOf(X.address)) - x0) - (plain.atMaturity - amount)
      expect(net <= 0n, `the pair nets ${fmt(net)} over a plain stake`).to.equal(true)
    })

    it('held: one referer stake reused for many referrals, late release first: never backs past its fee at a release', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool } = f
      const [R, A, B] = f.users
      await f.token.mint(A.address, T(10_500_000))
      await stake2(pool, R, T(16_000), MAX_HOLD)
      // The late referral first (1,094 days: R keeps only ~14.6 at stake then), then early ones of 3,500,000 for 30
      // days (4,794 of bonus each: three fit in the ~15,547 R keeps at stake until then).
      await expect(stake3(pool, B, T(300), 1094n * DAY, R.address)).to.be.revertedWithCustomError(pool, 'ReferralNotBacked')
      await stake3(pool, B, T(280), 1094n * DAY, R.address)
      let n = 0
      for (; n < 10; n++) {
        const ok = await stake3(pool, A, T(3_500_000), 30n * DAY, R.address)
          .then(() => true)
          .catch(() => false)
        if (!ok) break
      }
      const [backed] = await pool.getReferralBacking(R.address, 0)
      const s = await pool.getStake(R.address, 0)
      const releaseA = BigInt(await time.latest()) + 30n * DAY
      const feeAtA = (s.stakeAmount * (s.unHoldFee / 100n) * (s.stakeTime + s.holdTime - releaseA)) / s.holdTime / ONE
      expect(n).to.equal(3)
      expect(backed <= feeAtA, `backs ${fmt(backed)} against ${fmt(feeAtA)}`).to.equal(true)
    })
  })

  describe('4. registry and pool list', () => {
    it('held: a lying whitelisted factory cannot take the next clone address; createPool still works; its pools get no claims', async () => {
      const f = await loadFixture(reviewFixture)
      const { owner, poolsInfo, factory, harvest, token } = f
      const jam = await jamFactory(owner, poolsInfo)
      const tokenAddr = await token.getAddress()
      const config = {
        implementation: await f.implV1.getAddress(),
        name: 'n',
        symbol: 's',
        stakeToken: tokenAddr,
        reservoir: await f.reservoir.getAddress(),
        harvest: await harvest.getAddress(),
        params: V1_PARAMS,
        terms: DEFAULT_TERMS,
      }
      for (let n = 0n; n < 4n; n++) {
        const next = await factory.poolAddress(config.implementation, (await factory.poolsCreated()) + n)
        await expect(jam.register(next, tokenAddr)).to.be.revertedWithCustomError(poolsInfo, 'NotCreatedByFactory')
      }
      // A real pool of another whitelisted factory: listed, but not the harvest's factory's.
      const f2 = await new StakingPoolFactory__factory(owner).deploy(await poolsInfo.getAddress(), owner.address)
      await poolsInfo.setWhitelisted(await f2.getAddress(), true)
      const [other] = await f2.createPool.staticCall(config)
      await f2.createPool(config)
      await expect(jam.register(other, tokenAddr)).to.be.revertedWithCustomError(poolsInfo, 'PoolAlreadyAdded')
      const [pool] = await factory.createPool.staticCall(config)
      await factory.createPool(config)
      expect(await poolsInfo.isListed(pool)).to.equal(true)
      const u = f.users[0]
      await expect(harvest.connect(u).harvestStake(...(await claimOf(f, u.address, T(10))), other, 30n * DAY))
        .to.be.revertedWithCustomError(harvest, 'UnknownPool')
        .withArgs(other)
    })

    it('note (owner): setFactory takes a factory of another registry, and claim-and-stake then reaches none of its pools', async () => {
      const f = await loadFixture(reviewFixture)
      const { owner, harvest, token } = f
      const info2 = await new PoolsInfo__factory(owner).deploy(owner.address)
      const f2 = await new StakingPoolFactory__factory(owner).deploy(await info2.getAddress(), owner.address)
      await info2.setWhitelisted(await f2.getAddress(), true)
      await harvest.setFactory(await f2.getAddress())
      const config = {
        implementation: await f.implV1.getAddress(),
        name: 'n',
        symbol: 's',
        stakeToken: await token.getAddress(),
        reservoir: await f.reservoir.getAddress(),
        harvest: await harvest.getAddress(),
        params: V1_PARAMS,
        terms: DEFAULT_TERMS,
      }
      const [pool] = await f2.createPool.staticCall(config)
      await f2.createPool(config)
      expect(await f2.isPoolCreated(pool)).to.equal(true)
      const u = f.users[0]
      await expect(
        harvest.connect(u).harvestStake(...(await claimOf(f, u.address, T(10))), pool, 30n * DAY),
      ).to.be.revertedWithCustomError(harvest, 'UnknownPool')
    })

    it('held: eight gas-burning listed pools on one page stay under 2,000,000 gas and the real pools still list', async () => {
      const f = await loadFixture(reviewFixture)
      const { owner, poolsInfo, lens, token } = f
      const jam = await jamFactory(owner, poolsInfo)
      const tokenAddr = await token.getAddress()
      // The real pools 0 and 1 are delisted then relisted, so the burners come first in the listed list.
      await poolsInfo.setListed(0, false)
      await poolsInfo.setListed(1, false)
      for (let i = 0; i < 8; i++)
        await jam.register(await (await new BrokenPool__factory(owner).deploy(3, tokenAddr)).getAddress(), tokenAddr)
      await poolsInfo.setListed(0, true)
      await poolsInfo.setListed(1, true)
      const info = await poolsInfo.getAddress()
      const data = lens.interface.encodeFunctionData('getPoolsPage', [info, f.users[0].address, 0n, 8n])
      const gas = await ethers.provider.estimateGas({ to: await lens.getAddress(), data })
      expect(gas, `page of 8 burners: ${gas}`).to.be.lessThanOrEqual(2_000_000n)
      const [page, next] = await lens.getPoolsPage(info, f.users[0].address, 0n, 8n)
      expect(page.length).to.equal(0)
      const [rest] = await lens.getPoolsPage(info, f.users[0].address, next, 8n)
      expect(rest.map((p) => p.poolId).sort()).to.deep.equal([0n, 1n])
    })
  })

  describe('5. reservoir', () => {
    it('held: a one-block burst at a 0% fee drains only its own pool; the other pool stakes and takes claims in that block', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1, poolV2, token, reservoir, harvest } = f
      const [att, v, c] = f.users
      await poolV1.setParameters(params({ unHoldFee: 0n }))
      const avail = (await poolV1.getPoolState()).reservoirAvailable
      const burst = (avail * 100n) / 1230n + T(1)
      await token.mint(att.address, burst)
      const v2Before = (await poolV2.getPoolState()).reservoirAvailable
      const claim = await claimOf(f, c.address, T(1_000))
      const statuses = await statusesInOneBlock([
        (ov) => poolV1.connect(att)['stake(uint256,uint256,address,uint256,uint256)'](burst, MAX_HOLD, ZERO, 0n, 0n, ov),
        (ov) => stake2(poolV2, v, T(100_000), MAX_HOLD, ov),
        (ov) => harvest.connect(c).harvestStake(...claim, poolV2.getAddress(), 90n * DAY, ov),
        (ov) => poolV1.connect(att).unstake([0], ov),
      ])
      expect(statuses).to.deep.equal([1, 1, 1, 1])
      expect((await poolV1.getPoolState()).reservoirAvailable, 'pool 1 drained (to rounding dust)').to.be.lessThan(10n ** 12n)
      const used = v2Before - (await poolV2.getPoolState()).reservoirAvailable
      expect(used).to.equal(T(50_000) + T(200)) // 50% of 100,000 and 20% of 1,000
      expect(await reservoir.free(await token.getAddress()), 'what the burst drew is back, free').to.be.greaterThanOrEqual(
        avail - 10n ** 12n,
      )
    })
  })

  describe('6. permit stake', () => {
    it('held: a permit for another pool, another amount, or replayed is refused; a griefer submitting it first in the block does not block the stake', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1, poolV2, token } = f
      const [u, griefer] = f.users
      const p1 = await poolV1.getAddress()
      const p2 = await poolV2.getAddress()
      await token.connect(u).approve(p1, 0n)
      await token.connect(u).approve(p2, 0n)
      const permit = await permitFor(f, u, p1, T(1_000))
      const MAXB: StakeBounds = { maxFee: PERCENT, minBonus: 0n, minReward: 0n }
      const withPermit = (pool: Pool, amount: bigint, p: typeof permit, ov: object = {}) =>
        pool.connect(u).stakeWithPermit(amount, 30n * DAY, ZERO, MAXB.maxFee, MAXB.minBonus, MAXB.minReward, ...p, ov)
      await expect(withPermit(poolV2, T(1_000), permit))
        .to.be.revertedWithCustomError(poolV2, 'PermitAllowanceShort')
        .withArgs(0n, T(1_000))
      await expect(withPermit(poolV1, T(999), permit))
        .to.be.revertedWithCustomError(poolV1, 'PermitAllowanceShort')
        .withArgs(0n, T(999))
      // Someone else cannot use it for themselves either.
      await expect(poolV1.connect(griefer).stakeWithPermit(T(1_000), 30n * DAY, ZERO, PERCENT, 0n, 0n, ...permit)).to.emit(
        poolV1,
        'Staked',
      ) // the griefer's own (pre-approved) funds
      expect(await token.allowance(u.address, p1)).to.equal(0n)
      const statuses = await statusesInOneBlock([
        (ov) => token.connect(griefer).permit(u.address, p1, T(1_000), ...permit, ov),
        (ov) => withPermit(poolV1, T(1_000), permit, ov),
      ])
      expect(statuses, 'griefer permit, stake').to.deep.equal([1, 1])
      expect(await token.allowance(u.address, p1), 'no allowance left').to.equal(0n)
      await expect(withPermit(poolV1, T(1_000), permit))
        .to.be.revertedWithCustomError(poolV1, 'PermitAllowanceShort')
        .withArgs(0n, T(1_000))
      expect(await poolV1.getUserStakesCount(u.address)).to.equal(1n)
      // A permit stake replaces an earlier approval by the permit's own amount and uses it up: nothing is left behind
      // (an unlimited approval made before is gone too).
      await token.connect(u).approve(p1, ethers.MaxUint256)
      await withPermit(poolV1, T(1_000), await permitFor(f, u, p1, T(1_000)))
      expect(await token.allowance(u.address, p1)).to.equal(0n)
    })
  })

  describe('7. other', () => {
    it('held: MAX_STAKE_AMOUNT at the highest bonus, inflation and referral closes early and at maturity; sweep takes only the excess', async () => {
      const f = await loadFixture(reviewFixture)
      const { poolV1: pool, token, reservoir } = f
      const [R, X, Y] = f.users
      const MAXA = 2n ** 96n - 1n
      await pool.setParameters(
        params({ inflationPercent: 1000n * ONE, timeBonusPercent: 500n * ONE, refererBonusPercent: 500n * ONE }),
      )
      const poolAddr = await pool.getAddress()
      const tokenAddr = await token.getAddress()
      await token.mint(await reservoir.getAddress(), 2n ** 110n)
      await reservoir.approvePool(tokenAddr, poolAddr, ethers.MaxUint256)
      for (const u of [R, X, Y]) await token.mint(u.address, MAXA)
      await stake2(pool, R, MAXA, MAX_HOLD)
      await stake3(pool, X, MAXA / 10n, 30n * DAY, R.address)
      await stake2(pool, Y, MAXA, MAX_HOLD)
      await token.connect(f.users[3]).transfer(poolAddr, T(7))
      const before = await token.balanceOf(poolAddr)
      const swept = await pool.sweep.staticCall()
      await pool.sweep()
      expect(swept).to.equal(T(7))
      expect(before - (await token.balanceOf(poolAddr))).to.equal(T(7))
      await time.increase(5n * DAY)
      await pool.connect(Y).unstake([0])
      await pool.connect(R).unstake([0])
      await time.increase(30n * DAY)
      await pool.connect(X).unstake([0])
      await expectSolvent(f, pool)
      expect((await pool.getPoolState()).totalShares).to.equal(0n)
    })
  })
})
