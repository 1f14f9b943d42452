/**
 * Regression tests for the audit of pool version 1 (issue 12, findings 1-8): each reproduces the attack or accident
 * the audit ran, with its figures where they apply, and checks that the redesigned pools pay exactly what the model
 * (src/domain/math.ts through poolModel.ts) says. Each fails on the contracts before the redesign (commit 7ce9104;
 * finding 6's claim checks before 7ce9104).
 *
 * Expected figures come from the model, never from the pool's own views, and balances are read from the token, so
 * each test asserts the same thing whatever the pool stores. Figures of the steps that set an attack up are checked
 * after the step the finding is about (`Checks`), so a failure points at that step.
 */
import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/signers'
import { deploySystemWith } from './fixtures'
import { COVERAGE, approveUnlimited, inOneBlock, jamFactory, pinNextTimestamp, type Pool } from './helpers'
import { mathState } from '../../scripts/lib/poolState'
import { PoolModel, type ModelParams } from './poolModel'
import { signedClaim } from '../../scripts/lib/claims'
import {
  BACKING_UNIT,
  DAY,
  FEE_STREAM,
  ONE,
  PERCENT,
  boundsOf,
  previewStake,
  referralBonus,
  shareFee,
  type PoolVersion,
  type StakeBounds,
} from '../../src/domain/math'
import { permitDomain, signPermit } from '../../src/domain/permit'
import {
  BrokenPool__factory,
  FarmAttacker__factory,
  HeavyStaker__factory,
  HugeNameToken__factory,
  StakingPoolFactory__factory,
} from '../../src/chain/types'
import { DEFAULT_TERMS, V1_PARAMS, V2_PARAMS } from '../../scripts/lib/system'

const T = (n: number | bigint) => BigInt(n) * ONE
const MAX = ethers.MaxUint256
const YEAR_HOLD = 365n * DAY
const MAX_HOLD = 1095n * DAY

async function deployAuditFixture() {
  const sys = await deploySystemWith()
  const { owner, token } = sys
  const attacker = await new FarmAttacker__factory(owner).deploy()
  const heavy = await new HeavyStaker__factory(owner).deploy()
  await token.mint(await attacker.getAddress(), T(6_000_000))
  await token.mint(await heavy.getAddress(), T(10_000))
  return { ...sys, attacker, heavy }
}

type Fixture = Awaited<ReturnType<typeof deployAuditFixture>>

/** Figures checked after the step under test, each with a label. */
class Checks {
  private readonly list: [string, unknown, unknown][] = []
  later(label: string, actual: unknown, expected: unknown) {
    this.list.push([label, actual, expected])
  }
  verify() {
    for (const [label, actual, expected] of this.list) expect(actual, label).to.deep.equal(expected)
  }
}

/** One pool with its model, and the on-chain steps that keep both in step. */
class Run {
  readonly checks = new Checks()
  readonly model: PoolModel

  constructor(
    readonly f: Fixture,
    readonly pool: Pool,
    version: PoolVersion,
    params: ModelParams,
  ) {
    this.model = new PoolModel(version, { ...params })
  }

  static async of(f: Fixture, version: PoolVersion) {
    const pool: Pool = version === 1 ? f.poolV1 : f.poolV2
    const p = version === 1 ? V1_PARAMS : V2_PARAMS
    const params = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, BigInt(v)])) as unknown as ModelParams
    return new Run(f, pool, version, params)
  }

  async setParameters(over: Partial<ModelParams>) {
    this.model.params = { ...this.model.params, ...over }
    await this.pool.setParameters(this.model.params)
  }

  /** What the reservoir can fund for this pool: the smaller of its balance and its allowance. */
  async available(): Promise<bigint> {
    const { token, reservoir } = this.f
    const r = await reservoir.getAddress()
    const [balance, allowed] = [await token.balanceOf(r), await token.allowance(r, await this.pool.getAddress())]
    return balance < allowed ? balance : allowed
  }

  async balances(addrs: string[]): Promise<bigint[]> {
    return Promise.all(addrs.map((a) => this.f.token.balanceOf(a)))
  }

  async parties(user: string) {
    return [user, await this.pool.getAddress(), await this.f.reservoir.getAddress()]
  }

  /** stake(amount, hold[, referer]) by `user` at `at` (default: one second on); its funding is checked later. */
  async stake(user: HardhatEthersSigner, amount: bigint, hold: bigint, referer?: string, at?: bigint) {
    const avail = await this.available()
    const parties = await this.parties(user.address)
    const before = await this.balances(parties)
    const t = at ?? (await pinNextTimestamp())
    if (at !== undefined) await time.setNextBlockTimestamp(at)
    const { stake, preview } = this.model.stake(user.address, amount, hold, referer ?? null, avail, t)
    const p = this.pool.connect(user)
    await (referer ? p['stake(uint256,uint256,address)'](amount, hold, referer) : p['stake(uint256,uint256)'](amount, hold))
    const funded = preview.bonus + preview.reward
    const after = await this.balances(parties)
    this.checks.later(
      `stake ${stake.id} of ${user.address}: user, pool, reservoir`,
      after.map((a, i) => a - before[i]),
      [-amount, amount + funded, -funded],
    )
    return { id: stake.id, preview, time: t }
  }

  /**
   * unstake(ids) by `user` at `at` (default: one second on). With `now`, its payout is checked at once (the step
   * under test), else later.
   */
  async close(user: HardhatEthersSigner, ids: bigint[], opts: { at?: bigint; now?: boolean } = {}) {
    const parties = await this.parties(user.address)
    const before = await this.balances(parties)
    const t = opts.at ?? (await pinNextTimestamp())
    if (opts.at !== undefined) await time.setNextBlockTimestamp(opts.at)
    const expected = this.model.close(user.address, ids, t)
    const want = [expected.toUser, -(expected.toUser + expected.toReservoir), expected.toReservoir]
    const label = `close ${ids.join(',')} of ${user.address}: user, pool, reservoir`
    let paid = want
    if (opts.now) {
      await expect(this.pool.connect(user).unstake(ids)).to.changeTokenBalances(this.f.token, parties, want)
    } else {
      await this.pool.connect(user).unstake(ids)
      const after = await this.balances(parties)
      paid = after.map((a, i) => a - before[i])
      this.checks.later(label, paid, want)
    }
    /** `expected` is the model's; `paid` what the user, the pool and the reservoir got (negative: gave). */
    return { ...expected, paid, time: t }
  }
}

/** A version 1 pool's config for the factory, with the system's token, reservoir and harvest. */
async function poolConfig(f: Fixture) {
  return {
    implementation: await f.implV1.getAddress(),
    name: 'n',
    symbol: 's',
    stakeToken: await f.token.getAddress(),
    reservoir: await f.reservoir.getAddress(),
    harvest: await f.harvest.getAddress(),
    params: V1_PARAMS,
    terms: DEFAULT_TERMS,
  }
}

/** Mints `amount` to `user` beyond the fixture's balance. */
async function fund(f: Fixture, user: string, amount: bigint) {
  await f.token.mint(user, amount)
}

describe('Audit regressions (issue 12)', () => {
  describe('finding 1: no close can be frozen by the rate, and an emptied pool leaves no windfall', () => {
    it('1 wei, then 1e11 wei for 1,095 days closed a second later: a 100,000-token stake still closes, paid what the model says', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [attacker, victim] = f.users
      await run.stake(attacker, 1n, DAY)
      const { id } = await run.stake(attacker, 100_000_000_000n, MAX_HOLD)
      await run.close(attacker, [id])
      const { id: v } = await run.stake(victim, T(100_000), 30n * DAY)
      await time.increase(30n * DAY)
      const t = await pinNextTimestamp()
      const shown = await f.lens.getUnstakeData(await f.poolV1.getAddress(), victim.address, v, { blockTag: 'pending' })
      const paid = await run.close(victim, [v], { at: t, now: true })
      expect(shown.amountOut - shown.fee).to.equal(paid.toUser)
      // The rate rose by less than the fee: the virtual shares took almost all of it away from the dust stake.
      const rate = await f.poolV1.getRate()
      expect(rate).to.equal(run.model.at(t).rate)
      expect(rate).to.be.lessThan(ONE + 100_000_000_000n)
      await run.close(attacker, [0n])
      run.checks.verify()
      // Nothing is owed any more; what the virtual shares got is swept back to the reservoir.
      expect((await f.poolV1.getPoolState()).obligations).to.equal(0n)
      await f.poolV1.sweep()
      expect(await f.token.balanceOf(await f.poolV1.getAddress())).to.equal(0n)
    })

    it('the fees left when a pool empties go back to the reservoir: 1 token for 1 day gets exactly its due', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [a, b, next] = f.users
      await run.stake(a, T(100_000), YEAR_HOLD)
      await run.stake(b, T(50_000), YEAR_HOLD)
      await time.increase(100n * DAY)
      await run.close(b, [0n])
      await time.increase(10n * DAY)
      const last = await run.close(a, [0n])
      const owedWhenEmpty = (await f.poolV1.getPoolState()).obligations
      const leftInPool = await f.token.balanceOf(await f.poolV1.getAddress())
      const { id } = await run.stake(next, T(1), DAY)
      await time.increase(DAY)
      const paid = await run.close(next, [id], { now: true })
      expect(paid.toUser).to.be.lessThan(T(2))
      // The fee still streaming went back with the last share; what is left belongs to nobody and is swept back.
      expect(last.toReservoir).to.be.greaterThan(0n)
      expect(owedWhenEmpty, 'owed by the emptied pool').to.equal(0n)
      await expect(f.poolV1.sweep()).to.changeTokenBalances(f.token, [f.poolV1, f.reservoir], [-leftInPool, leftInPool])
      run.checks.verify()
    })

    it('an emptied pool is not frozen by the next dust stake (nobody attacking)', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [a, dust, victim] = f.users
      await run.stake(a, T(100_000), YEAR_HOLD)
      await time.increase(10n * DAY)
      await run.close(a, [0n])
      await run.stake(dust, 1n, DAY)
      const { id } = await run.stake(victim, T(100_000), 30n * DAY)
      await time.increase(30n * DAY)
      await run.close(victim, [id], { now: true })
      await run.close(dust, [0n], { now: true })
      run.checks.verify()
    })
  })

  describe('finding 2: the length bonus cannot be farmed, nor the reservoir drained', () => {
    it('1M tokens staked for 1,095 days and closed at once, against a matured stake of ones own, gain nothing', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const attacker = f.users[0]
      await fund(f, attacker.address, T(1_000_000))
      const start = await f.token.balanceOf(attacker.address)
      const reservoirStart = await f.token.balanceOf(await f.reservoir.getAddress())
      const { preview: base } = await run.stake(attacker, T(1_000_000), DAY)
      await time.increase(DAY)
      const { id } = await run.stake(attacker, T(1_000_000), MAX_HOLD)
      const cycle = await run.close(attacker, [id])
      // The attacker's best case: the matured stake collects the whole fee stream before it closes.
      await time.increase(FEE_STREAM)
      await run.close(attacker, [0n], { now: true })
      const gain = (await f.token.balanceOf(attacker.address)) - start
      // What the matured stake earns, plus the cycle's reward for the one second it was held: the cycle loses.
      const due = base.bonus + base.reward + cycle.closes[0].rewardEarned
      expect(gain).to.be.lessThan(due)
      expect(await f.token.balanceOf(await f.reservoir.getAddress())).to.be.greaterThanOrEqual(reservoirStart - due)
      run.checks.verify()
    })

    it('five cycles from a contract in one transaction gain nothing and drain nothing', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const { attacker, token, reservoir } = f
      const addr = await attacker.getAddress()
      const pool = await f.poolV1.getAddress()
      const tokenAddr = await token.getAddress()
      const start = await token.balanceOf(addr)
      const reservoirStart = await token.balanceOf(await reservoir.getAddress())
      // The matured stake the fees would flow back to.
      let t = await pinNextTimestamp()
      const base = run.model.stake(addr, T(1_000_000), DAY, false, await run.available(), t).preview
      await attacker.stakeBase(pool, tokenAddr, T(1_000_000), DAY)
      await time.increase(DAY)
      t = await pinNextTimestamp()
      let toReservoir = 0n
      for (let i = 0; i < 5; i++) {
        const { stake, preview } = run.model.stake(addr, T(1_000_000), MAX_HOLD, false, await run.available(), t)
        const c = run.model.close(addr, [stake.id], t)
        toReservoir += c.toReservoir - preview.bonus - preview.reward
      }
      const tx = attacker.farm(pool, tokenAddr, T(1_000_000), MAX_HOLD, 5)
      // Each cycle gets back the principal less the fee: nothing, at a 100% fee.
      for (let i = 0; i < 5; i++) await expect(tx).to.emit(attacker, 'Cycle').withArgs(i, T(1_000_000), 0n)
      await expect(tx).to.changeTokenBalances(token, [attacker, reservoir], [-T(5_000_000), toReservoir])
      await time.increase(FEE_STREAM)
      t = await pinNextTimestamp()
      const c = run.model.close(addr, [0n], t)
      await expect(attacker.close(pool, [0n])).to.changeTokenBalances(token, [attacker, reservoir], [c.toUser, c.toReservoir])
      const gain = (await token.balanceOf(addr)) - start
      expect(gain).to.be.lessThan(base.bonus + base.reward)
      expect(await token.balanceOf(await reservoir.getAddress())).to.be.greaterThanOrEqual(
        reservoirStart - base.bonus - base.reward,
      )
    })

    it('with honest stakers holding 23% of the shares, the cycle still gains nothing and they get their due', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [attacker, honest] = f.users
      await fund(f, attacker.address, T(1_000_000))
      const start = await f.token.balanceOf(attacker.address)
      const { preview: base } = await run.stake(attacker, T(1_000_000), DAY)
      await run.stake(honest, T(300_000), DAY)
      expect((base.shares * 100n) / run.model.totalShares).to.equal(76n)
      await time.increase(DAY)
      const { id } = await run.stake(attacker, T(1_000_000), MAX_HOLD)
      const cycle = await run.close(attacker, [id])
      await time.increase(FEE_STREAM)
      await run.close(attacker, [0n], { now: true })
      const due = base.bonus + base.reward + cycle.closes[0].rewardEarned
      expect((await f.token.balanceOf(attacker.address)) - start).to.be.lessThan(due)
      await run.close(honest, [0n], { now: true })
      run.checks.verify()
    })

    for (const [fee, bonus] of [
      [10n, 30n],
      [0n, 30n],
      [1n, 500n],
    ]) {
      it(`a plain stake-then-close with a ${fee}% fee and a ${bonus}% bonus returns no more than was put in`, async () => {
        const f = await loadFixture(deployAuditFixture)
        const run = await Run.of(f, 1)
        const { attacker, token } = f
        await run.setParameters({ unHoldFee: fee * ONE, timeBonusPercent: bonus * ONE })
        const addr = await attacker.getAddress()
        const t = await pinNextTimestamp()
        const { stake } = run.model.stake(addr, T(1_000_000), MAX_HOLD, false, await run.available(), t)
        const back = run.model.close(addr, [stake.id], t).toUser
        expect(back).to.equal(T(1_000_000) - (T(1_000_000) * fee) / 100n)
        const tx = attacker.farm(await f.poolV1.getAddress(), await token.getAddress(), T(1_000_000), MAX_HOLD, 1)
        await expect(tx).to.emit(attacker, 'Cycle').withArgs(0n, T(1_000_000), back)
        await expect(tx).to.changeTokenBalance(token, attacker, back - T(1_000_000))
      })
    }
  })

  describe('finding 3: inflation is simple interest, however often the pool is touched', () => {
    it('100,000 tokens at 400% for a year: daily 100-wei pokes pay exactly what no poking pays', async () => {
      const paid: bigint[] = []
      const runs: Run[] = []
      for (const poke of [false, true]) {
        const f = await loadFixture(deployAuditFixture)
        const run = await Run.of(f, 1)
        const [victim, poker] = f.users
        const t0 = BigInt(await time.latest()) + 10n
        await run.stake(victim, T(100_000), YEAR_HOLD, undefined, t0)
        if (poke) for (let d = 1n; d < 365n; d++) await run.stake(poker, 100n, DAY, undefined, t0 + d * DAY)
        const c = await run.close(victim, [0n], { at: t0 + YEAR_HOLD })
        paid.push(c.paid[0])
        runs.push(run)
      }
      expect(paid[1], 'paid with daily pokes vs none').to.equal(paid[0])
      // Principal, 10% length bonus for a year of 1,095 days, 400% simple interest: 5.1 x, as the model says.
      expect(paid[0], 'paid without pokes').to.equal(T(510_000))
      for (const run of runs) run.checks.verify()
    })
  })

  describe('finding 4: the owner cannot cut existing stakes', () => {
    for (const version of [1, 2] as const) {
      it(`raising unHoldFee from 10% to 100% after staking leaves a 30-day early close at 90,821.9 (version ${version})`, async () => {
        const f = await loadFixture(deployAuditFixture)
        const run = await Run.of(f, version)
        const victim = f.users[0]
        await run.setParameters({ unHoldFee: 10n * ONE })
        const { time: t0, preview } = await run.stake(victim, T(100_000), YEAR_HOLD)
        await time.increase(29n * DAY)
        await run.setParameters({ unHoldFee: PERCENT })
        const c = await run.close(victim, [0n], { at: t0 + 30n * DAY, now: true })
        const fee = (T(100_000) * 335n) / 365n / 10n
        expect(c.closes[0].fee).to.equal(fee)
        expect(c.toUser).to.equal(T(100_000) - fee + (preview.reward * 30n) / 365n)
        if (version === 2) expect(c.toUser).to.equal(90_821_917_808_219_178_082_192n)
        run.checks.verify()
      })
    }

    it('lowering the bonus and inflation after staking does not cut a matured stake', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const victim = f.users[0]
      const { time: t0, preview } = await run.stake(victim, T(100_000), YEAR_HOLD)
      await run.setParameters({ inflationPercent: 0n, timeBonusPercent: 0n })
      const c = await run.close(victim, [0n], { at: t0 + YEAR_HOLD, now: true })
      expect(c.toUser).to.equal(preview.atMaturity)
      run.checks.verify()
    })
  })

  describe('finding 5: the inflation shown is the inflation paid', () => {
    it('a reservoir drained after staking changes neither what the Lens shows nor what the stake pays', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const { token, reservoir, owner, lens } = f
      const victim = f.users[0]
      const pool = await f.poolV1.getAddress()
      const { time: t0, preview } = await run.stake(victim, T(100_000), YEAR_HOLD)
      await time.increase(10n * DAY)
      const r = await reservoir.getAddress()
      await reservoir.withdraw(await token.getAddress(), owner.address, await token.balanceOf(r))
      expect(await token.balanceOf(r)).to.equal(0n)
      for (const day of [100n, 200n]) {
        await time.setNextBlockTimestamp(t0 + day * DAY)
        const shown = await lens.getUnstakeData(pool, victim.address, 0, { blockTag: 'pending' })
        const due = run.model.preview(run.model.stakesOf(victim.address)[0], t0 + day * DAY)
        expect([shown.amountOut, shown.fee], `shown on day ${day}`).to.deep.equal([due.amountOut, due.fee])
        await ethers.provider.send('evm_mine', [])
      }
      const c = await run.close(victim, [0n], { at: t0 + YEAR_HOLD, now: true })
      expect(c.toUser).to.equal(preview.atMaturity)
      expect(c.toUser).to.equal(T(510_000))
      run.checks.verify()
    })
  })

  describe('finding 6: claims land only in factory-made, listed pools; one bad pool cannot break the list', () => {
    async function claimFor(f: Fixture, user: HardhatEthersSigner, amount: bigint) {
      const setup = { harvest: f.harvest, rewardToken: await f.token.getAddress(), signer: f.signer }
      return (await signedClaim(setup, user.address, amount)).args
    }

    it('harvestStake refuses a listed pool that a whitelisted registry caller added but the factory did not make', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { owner, poolsInfo, harvest, users } = f
      const rogue = await new StakingPoolFactory__factory(owner).deploy(await poolsInfo.getAddress(), owner.address)
      await poolsInfo.setWhitelisted(await rogue.getAddress(), true)
      const config = await poolConfig(f)
      const [pool] = await rogue.createPool.staticCall(config)
      await rogue.createPool(config)
      await expect(harvest.connect(users[0]).harvestStake(...(await claimFor(f, users[0], T(10))), pool, 30n * DAY))
        .to.be.revertedWithCustomError(harvest, 'UnknownPool')
        .withArgs(pool)
    })

    it('a pool can be delisted, and harvestStake refuses it', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { poolsInfo, harvest, users, poolV1 } = f
      const pool = await poolV1.getAddress()
      await poolsInfo.setListed(1, false)
      expect(await poolsInfo.isListed(pool)).to.equal(false)
      await expect(harvest.connect(users[0]).harvestStake(...(await claimFor(f, users[0], T(10))), pool, 30n * DAY))
        .to.be.revertedWithCustomError(harvest, 'UnknownPool')
        .withArgs(pool)
    })

    it('the pool list skips delisted pools and survives a registered pool whose views revert', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { owner, poolsInfo, lens, users, token } = f
      const bad = await new BrokenPool__factory(owner).deploy(0, await token.getAddress())
      await (await jamFactory(owner, poolsInfo)).register(await bad.getAddress(), await token.getAddress())
      const all = await lens.getPoolsDataFromPoolInfo(await poolsInfo.getAddress(), users[0].address)
      expect(all.map((p) => p.pool)).to.deep.equal([await f.poolV2.getAddress(), await f.poolV1.getAddress()])
      await poolsInfo.setListed(0, false)
      const listed = await lens.getPoolsDataFromPoolInfo(await poolsInfo.getAddress(), users[0].address)
      expect(listed.map((p) => p.pool)).to.deep.equal([await f.poolV1.getAddress()])
    })
    it('the pool list survives a registered pool that burns all the gas it is given', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { owner, poolsInfo, lens, users, token } = f
      const bad = await new BrokenPool__factory(owner).deploy(3, await token.getAddress())
      await (await jamFactory(owner, poolsInfo)).register(await bad.getAddress(), await token.getAddress())
      // Three good pools after it, read within the gas a wallet or provider gives one call.
      for (let i = 0; i < 3; i++) await f.factory.createPool(await poolConfig(f))
      const all = await lens.getPoolsDataFromPoolInfo(await poolsInfo.getAddress(), users[0].address, { gasLimit: 3_000_000n })
      expect(all.map((p) => p.poolId)).to.deep.equal([0n, 1n, 3n, 4n, 5n])
    })
  })

  describe('finding 7: smaller ones', () => {
    it('7a: a referral to an address with no stake (0xdead) is refused', async () => {
      const f = await loadFixture(deployAuditFixture)
      const dead = '0x000000000000000000000000000000000000dEaD'
      await expect(f.poolV1.connect(f.users[0])['stake(uint256,uint256,address)'](T(1000), YEAR_HOLD, dead))
        .to.be.revertedWithCustomError(f.poolV1, 'RefererNotStaking')
        .withArgs(dead)
    })

    it('7b: a 2^96-1 stake with a length bonus is taken and closes', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const whale = f.users[0]
      const amount = 2n ** 96n - 1n
      await fund(f, whale.address, amount)
      await approveUnlimited(f.reservoir, f.token, await f.poolV1.getAddress(), 2n ** 100n)
      const { preview } = await run.stake(whale, amount, MAX_HOLD)
      run.checks.verify()
      expect(preview.bonus).to.equal((amount * 3n) / 10n)
      await run.close(whale, [0n], { now: true })
    })

    it('7c: a stake that grows past 79.2B tokens (2^96 base units) closes at maturity', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const whale = f.users[0]
      await fund(f, whale.address, T(10_000_000_000))
      await approveUnlimited(f.reservoir, f.token, await f.poolV1.getAddress(), T(200_000_000_000))
      const { time: t0, preview } = await run.stake(whale, T(10_000_000_000), MAX_HOLD)
      expect(preview.atMaturity).to.be.greaterThan(2n ** 96n)
      const c = await run.close(whale, [0n], { at: t0 + MAX_HOLD, now: true })
      expect(c.toUser).to.equal(preview.atMaturity)
      run.checks.verify()
    })

    it('7d: tokens sent to a pool are swept to the reservoir, not paid to a staker', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [staker, donor] = f.users
      await run.stake(staker, T(1000), 30n * DAY)
      await f.token.connect(donor).transfer(await f.poolV1.getAddress(), T(5000))
      await expect(f.poolV1.connect(donor).sweep()).to.changeTokenBalances(
        f.token,
        [f.poolV1, f.reservoir, donor],
        [-T(5000), T(5000), 0n],
      )
      await time.increase(30n * DAY)
      await run.close(staker, [0n], { now: true })
      run.checks.verify()
      expect(await f.token.balanceOf(await f.poolV1.getAddress())).to.equal(0n)
    })

    it('7e: getUnstakeDataPage(1, 2^256-1) returns the rest of the list', async () => {
      const f = await loadFixture(deployAuditFixture)
      const u = f.users[0]
      for (let i = 0; i < 3; i++) await f.poolV1.connect(u)['stake(uint256,uint256)'](T(1 + i), DAY)
      const [rows, next] = await f.lens.getUnstakeDataPage(await f.poolV1.getAddress(), u.address, 1, MAX)
      expect(rows.length).to.equal(2)
      expect(next).to.equal(MAX)
      const [none] = await f.lens.getUnstakeDataPage(await f.poolV1.getAddress(), u.address, MAX, MAX)
      expect(none.length).to.equal(0)
    })

    it('7f: a stake the reservoir cannot fully fund is refused, or says so in an event when the staker accepts less', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const { token, reservoir, owner } = f
      const r = await reservoir.getAddress()
      await reservoir.withdraw(await token.getAddress(), owner.address, (await token.balanceOf(r)) - T(10))
      const user = f.users[0]
      const t = await pinNextTimestamp()
      const { preview } = run.model.stake(user.address, T(1000), YEAR_HOLD, false, T(10), t)
      expect([preview.bonusWanted, preview.rewardWanted]).to.deep.equal([T(100), T(4000)])
      // Asked for the full terms: refused, saying what could be funded (the bonus first).
      await expect(f.poolV1.connect(user)['stake(uint256,uint256)'](T(1000), YEAR_HOLD))
        .to.be.revertedWithCustomError(f.poolV1, 'RewardsUnavailable')
        .withArgs(T(10), 0n)
      // Lower terms accepted explicitly: taken, with an event that says what was wanted.
      const tx = f.poolV1
        .connect(user)
        ['stake(uint256,uint256,address,uint256,uint256)'](T(1000), YEAR_HOLD, ethers.ZeroAddress, 0n, 0n)
      await expect(tx).to.emit(f.poolV1, 'RewardsShort').withArgs(user.address, 0n, T(100), T(4000))
      await expect(tx).to.changeTokenBalances(token, [user, f.poolV1, reservoir], [-T(1000), T(1010), -T(10)])
    })
  })

  describe('finding 8: a heavy staker still loads', () => {
    /** `staker` ends with `closed` stakes closed over six months ago, then `active` active ones. */
    async function heavyStaker(f: Fixture, closed: number, active: number) {
      const { heavy, token } = f
      const pool = await f.poolV1.getAddress()
      const tokenAddr = await token.getAddress()
      for (let done = 0; done < closed; done += 100) {
        await heavy.stakeMany(pool, tokenAddr, ONE, DAY, Math.min(100, closed - done))
      }
      await time.increase(DAY)
      for (let done = 0; done < closed; done += 250) await heavy.closeRange(pool, done, Math.min(done + 250, closed))
      await time.increase(181n * DAY)
      await heavy.stakeMany(pool, tokenAddr, ONE, DAY, active)
      return heavy.getAddress()
    }

    // Under coverage, 200 stakes make the same point at a tenth of the (instrumented) cost.
    const MANY = COVERAGE ? 200 : 2_000
    const many = MANY.toLocaleString('en-US')
    it(`one Lens page of a user with ${many} stakes costs the gas it costs at 20, and shows the 20 active ones`, async function () {
      this.timeout(COVERAGE ? 300_000 : 120_000)
      /** The gas estimate of a read, or why it could not be made. */
      const estimate = async (read: () => Promise<bigint>) => read().catch((e: Error) => e.message.split('\n')[0])
      const seen: { rows: bigint[]; next: bigint; page: bigint | string; full: bigint | string }[] = []
      for (const closed of [0, MANY - 20]) {
        const f = await loadFixture(deployAuditFixture)
        const staker = await heavyStaker(f, closed, 20)
        const pool = await f.poolV1.getAddress()
        const [rows, next] = await f.lens.getUnstakeDataPage(pool, staker, 0, 20)
        seen.push({
          rows: rows.map((r) => r.stakeId).sort((a, b) => Number(a - b)),
          next,
          page: await estimate(() => f.lens.getUnstakeDataPage.estimateGas(pool, staker, 0, 20)),
          full: await estimate(() => f.lens.getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth.estimateGas(pool, staker)),
        })
      }
      const [few, lots] = seen
      // The same rows read the same storage; the full read looks at one more stake (the first closed too long ago).
      // Measured: full read 318,643 / 321,476 gas, page 319,075 / 319,063 at 20 / 2,000 stakes.
      const near = (a: bigint | string, b: bigint | string) =>
        typeof a === 'bigint' && typeof b === 'bigint' && (a > b ? a - b : b - a) <= 10_000n
      expect(near(lots.full, few.full), `full read: ${few.full} gas at 20 stakes, ${lots.full} at ${many}`).to.equal(true)
      expect(near(lots.page, few.page), `page: ${few.page} gas at 20 stakes, ${lots.page} at ${many}`).to.equal(true)
      const ids = (from: number) => Array.from({ length: 20 }, (_, i) => BigInt(from + i))
      expect(lots.rows, `first page at ${many} stakes`).to.deep.equal(ids(MANY - 20))
      expect(few.rows, 'first page at 20 stakes').to.deep.equal(ids(0))
      // Either way the page is the whole visible list: nothing follows it.
      expect([few.next, lots.next]).to.deep.equal([MAX, MAX])
    })
  })
})

/**
 * Regression tests for the attack review after the pool redesign ("Pools that keep their word"), findings 1-4, with
 * the review's figures. Each fails on the contracts before that issue (the guarded forms, fee shares by principal,
 * the referer rule, the registry and Lens pages, backed reservoir allowances did not exist): the failure message
 * carries the figure measured there.
 */
describe('Audit regressions (pools that keep their word)', () => {
  const fmt = (x: bigint) => ethers.formatUnits(x, 18)
  const ZERO = ethers.ZeroAddress

  describe('finding 1: a stake lands on the terms its holder saw, or not at all', () => {
    /** The dialog's figures for 100,000 PLT over 1,095 days at a 10% fee: fee 10%, bonus 30,000, reward 1,200,000. */
    async function shown(f: Fixture) {
      const run = await Run.of(f, 1)
      await run.setParameters({ unHoldFee: 10n * ONE })
      const preview = previewStake(await mathState(f.poolV1), T(100_000), MAX_HOLD, false)
      const bounds = boundsOf(preview)
      expect([bounds.maxFee, bounds.minBonus, bounds.minReward]).to.deep.equal([10n * ONE, T(30_000), T(1_200_000)])
      return { run, bounds }
    }
    const guarded = (f: Fixture, u: HardhatEthersSigner, b: StakeBounds, ov: object = {}) =>
      f.poolV1
        .connect(u)
        ['stake(uint256,uint256,address,uint256,uint256,uint256)'](
          T(100_000),
          MAX_HOLD,
          ZERO,
          b.maxFee,
          b.minBonus,
          b.minReward,
          ov,
        )

    it('setParameters(fee 100%, bonus 0, inflation 0) run just before the stake: refused FeeAboveMax; the shown terms cost 9,990.87 a day later', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { run, bounds } = await shown(f)
      const victim = f.users[0]
      const before = await f.token.balanceOf(victim.address)
      // Anyone may execute a ready timelock operation: a bot runs it in the same block, just before the stake.
      const [bot, stake] = await inOneBlock([
        (ov) =>
          f.poolV1.setParameters({ ...run.model.params, unHoldFee: PERCENT, timeBonusPercent: 0n, inflationPercent: 0n }, ov),
        (ov) => guarded(f, victim, bounds, { ...ov, gasLimit: 1_000_000n }),
      ])
      expect(bot.status).to.equal(1)
      expect(stake.status, 'the stake on worse terms than shown').to.equal(0)
      await expect(guarded(f, victim, bounds))
        .to.be.revertedWithCustomError(f.poolV1, 'FeeAboveMax')
        .withArgs(PERCENT, 10n * ONE)
      expect(await f.token.balanceOf(victim.address), 'nothing staked').to.equal(before)
      // The terms it was shown: closing a day later costs a fee of 9,990.87 (99,908.68 at the 100% fee it would have
      // landed on).
      await f.poolV1.setParameters(run.model.params)
      const t = await pinNextTimestamp()
      await guarded(f, victim, bounds)
      await time.setNextBlockTimestamp(t + DAY)
      await f.poolV1.connect(victim).unstake([0])
      expect(fmt((await f.poolV1.getStakeInfo(victim.address, 0)).fee)).to.equal('9990.867579908675799086')
      expect(fmt((T(100_000) * (MAX_HOLD - DAY)) / MAX_HOLD)).to.equal('99908.675799086757990867')
    })

    it('the five-argument form with the previewed minimums lands at a 100% fee; the guarded form names the fee', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { run, bounds } = await shown(f)
      const [victim, other] = f.users
      await f.poolV1.setParameters({ ...run.model.params, unHoldFee: PERCENT })
      await expect(guarded(f, victim, bounds))
        .to.be.revertedWithCustomError(f.poolV1, 'FeeAboveMax')
        .withArgs(PERCENT, 10n * ONE)
      // The older form bounds only the bonus and reward: it is still the spec's, and still lands at 100%.
      await f.poolV1
        .connect(other)
        ['stake(uint256,uint256,address,uint256,uint256)'](T(100_000), MAX_HOLD, ZERO, bounds.minBonus, bounds.minReward)
      expect((await f.poolV1.getStake(other.address, 0)).unHoldFee).to.equal(PERCENT)
      // Bonus and reward are named as well.
      await f.poolV1.setParameters({ ...run.model.params, timeBonusPercent: 0n })
      await expect(guarded(f, victim, bounds))
        .to.be.revertedWithCustomError(f.poolV1, 'BonusBelowMin')
        .withArgs(0n, T(30_000))
      await f.poolV1.setParameters({ ...run.model.params, inflationPercent: 0n })
      await expect(guarded(f, victim, bounds))
        .to.be.revertedWithCustomError(f.poolV1, 'RewardBelowMin')
        .withArgs(0n, T(1_200_000))
    })

    it('harvestStake behind a cut to the harvest terms (bonus 0, 4,000 shown) and a 100% fee: refused, nothing claimed', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      await run.setParameters({ unHoldFee: 10n * ONE })
      const u = f.users[0]
      const pool = await f.poolV1.getAddress()
      const term = DEFAULT_TERMS[2]
      const shownTerms = boundsOf(previewStake(await mathState(f.poolV1), T(10_000), 180n * DAY, false, BigInt(term.bonus)))
      expect(shownTerms.minBonus).to.equal(T(4_000))
      const setup = { harvest: f.harvest, rewardToken: await f.token.getAddress(), signer: f.signer }
      const claim = async () => (await signedClaim(setup, u.address, T(10_000))).args
      await f.poolV1.setHarvestTerms(DEFAULT_TERMS.map((t) => (t.hold === term.hold ? { hold: t.hold, bonus: 0n } : t)))
      await expect(f.harvest.connect(u).harvestStakeGuarded(...(await claim()), pool, 180n * DAY, shownTerms))
        .to.be.revertedWithCustomError(f.poolV1, 'BonusBelowMin')
        .withArgs(0n, T(4_000))
      await f.poolV1.setParameters({ ...run.model.params, unHoldFee: PERCENT })
      await expect(f.harvest.connect(u).harvestStakeGuarded(...(await claim()), pool, 180n * DAY, shownTerms))
        .to.be.revertedWithCustomError(f.poolV1, 'FeeAboveMax')
        .withArgs(PERCENT, 10n * ONE)
      expect(await f.harvest.claimed(u.address, await f.token.getAddress()), 'nothing claimed').to.equal(0n)
      // On the terms shown it lands, exactly those.
      await f.poolV1.setParameters(run.model.params)
      await f.poolV1.setHarvestTerms(DEFAULT_TERMS)
      await f.harvest.connect(u).harvestStakeGuarded(...(await claim()), pool, 180n * DAY, shownTerms)
      const s = await f.poolV1.getStake(u.address, 0)
      expect([s.unHoldFee, s.bonus, s.reward]).to.deep.equal([shownTerms.maxFee, shownTerms.minBonus, shownTerms.minReward])
    })

    it('the permit stake is bounded too, and a permit a griefer submitted first does not block it', async () => {
      const f = await loadFixture(deployAuditFixture)
      const { run, bounds } = await shown(f)
      const [victim, griefer] = f.users
      const pool = await f.poolV1.getAddress()
      await f.token.connect(victim).approve(pool, 0n)
      const domain = permitDomain(await f.token.name(), (await ethers.provider.getNetwork()).chainId, await f.token.getAddress())
      const sign = async () => {
        const deadline = BigInt(await time.latest()) + 3600n
        const nonce = await f.token.nonces(victim.address)
        const sig = await signPermit(victim, domain, { owner: victim.address, spender: pool, value: T(100_000), nonce, deadline })
        return [deadline, sig.v, sig.r, sig.s] as const
      }
      const withPermit = async (b: StakeBounds, p: Awaited<ReturnType<typeof sign>>) =>
        f.poolV1.connect(victim).stakeWithPermit(T(100_000), MAX_HOLD, ZERO, b.maxFee, b.minBonus, b.minReward, ...p)
      await f.poolV1.setParameters({ ...run.model.params, unHoldFee: PERCENT })
      await expect(withPermit(bounds, await sign())).to.be.revertedWithCustomError(f.poolV1, 'FeeAboveMax')
      expect(await f.token.allowance(victim.address, pool)).to.equal(0n)
      await f.poolV1.setParameters(run.model.params)
      // The griefer submits the signed permit first; the stake still goes through, and leaves no allowance.
      const p = await sign()
      await f.token.connect(griefer).permit(victim.address, pool, T(100_000), ...p)
      await expect(withPermit(bounds, p)).to.emit(f.poolV1, 'Staked')
      expect(await f.token.allowance(victim.address, pool)).to.equal(0n)
      // A permit that gives too little (not the staker's, or expired) is refused by name.
      await expect(withPermit(bounds, [0n, 27, ethers.ZeroHash, ethers.ZeroHash]))
        .to.be.revertedWithCustomError(f.poolV1, 'PermitAllowanceShort')
        .withArgs(0n, T(100_000))
    })
  })

  describe('finding 2: fees are shared by what was risked, not by an unearned bonus', () => {
    // C (365 days at the defaults) and W (the whale, 1,095 days at a 100% fee) stake; the owner sets the fee and the
    // bonus for new stakes (inflation 0); A stakes 1,000,000 for 1,095 days, B 1,000,000 for 30 days; W closes 10 days
    // in (fee 990,867.58), which streams to A, B and C over 30 days; B closes matured, A early, at the stream's end.
    for (const [fee, bonus, aBefore, bBefore] of [
      [0n, 500n, '721,769', '273,760'],
      [5n, 500n, '673,139', '273,760'],
      [5n, 30n, '329,317', '301,337'],
    ] as const) {
      it(`fee ${fee}%, bonus ${bonus}%: the early closer gets no more than its principal-time-weighted part (before: nets ${aBefore} against ${bBefore} held to maturity)`, async () => {
        const f = await loadFixture(deployAuditFixture)
        const run = await Run.of(f, 1)
        const [C, W, A, B] = f.users
        // At 10:00 UTC, so B's release day begins ten hours before its release whenever the test runs.
        const t0 = (BigInt(await time.latest()) / DAY + 1n) * DAY + 36_000n
        await run.stake(C, T(1_000_000), YEAR_HOLD, undefined, t0)
        await run.stake(W, T(1_000_000), MAX_HOLD, undefined, t0 + 1n)
        await run.setParameters({ unHoldFee: fee * ONE, timeBonusPercent: bonus * ONE, inflationPercent: 0n })
        await run.stake(A, T(1_000_000), MAX_HOLD, undefined, t0 + 10n * DAY - 10n)
        await run.stake(B, T(1_000_000), 30n * DAY, undefined, t0 + 10n * DAY - 5n)
        const whale = await run.close(W, [0n], { at: t0 + 1n + 10n * DAY })
        const whaleFee = whale.closes[0].fee
        expect(fmt(whaleFee).slice(0, 10)).to.equal('990867.579')
        const end = t0 + 1n + 10n * DAY + FEE_STREAM
        const b = await run.close(B, [0n], { at: end + 1n })
        const a = await run.close(A, [0n], { at: end + 2n })
        // From the chain: what each received; A's part of the fees = received + its own fee - principal.
        const aNet = a.paid[0] - T(1_000_000)
        const bNet = b.paid[0] - T(1_000_000)
        const aGains = a.paid[0] + a.closes[0].fee - T(1_000_000)
        // A, B and C held 1,000,000 each while B was at risk; from B's release day (00:00 UTC) A and C shared the rest
        // by halves: A's principal-time-weighted part, from the model, is what it may collect at most.
        const aStake = run.model.stakesOf(A.address)[0]
        const fair = aStake.fairNum / aStake.fairDen
        expect(fair > whaleFee / 3n && fair < whaleFee / 2n, 'more than a third, less than a half').to.equal(true)
        const whole = (x: bigint) => (x / ONE).toLocaleString('en-US')
        expect(
          aGains <= fair,
          `A collected ${whole(aGains)} of the fee, its principal-time-weighted part is ${whole(fair)}`,
        ).to.equal(true)
        expect(aNet < bNet, `A nets ${whole(aNet)}, B (held to maturity) ${whole(bNet)}`).to.equal(true)
        expect(whole(aGains)).to.equal('332,582')
        run.checks.verify()
      })
    }
  })

  describe('finding 3: a referral needs a referer with real skin in the game', () => {
    it('a 1-wei referer of a day cannot refer (three 30-day stakes of 100,000 got +15,000 for 0 wei before)', async () => {
      const f = await loadFixture(deployAuditFixture)
      const [S, X, Y, Z] = f.users
      await f.poolV1.connect(S)['stake(uint256,uint256)'](1n, DAY)
      for (const u of [X, Y, Z])
        await expect(f.poolV1.connect(u)['stake(uint256,uint256,address)'](T(100_000), 30n * DAY, S.address))
          .to.be.revertedWithCustomError(f.poolV1, 'RefererStakeTooSmall')
          .withArgs(1n, T(100))
    })

    it('a throwaway referer (made, named and closed within the referred hold) nets its owner nothing at the defaults', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [S, X, Y, Z] = f.users
      const parties = [S, X, Y, Z].map((u) => u.address)
      const start = await run.balances(parties)
      // A 30-day referral bonus is 5% x 30 / 1,095 (136.99 of 100,000): 500 for 1,095 days backs three, not four.
      const { time: ts } = await run.stake(S, T(500), MAX_HOLD)
      const referred = []
      for (const u of [X, Y, Z]) referred.push(await run.stake(u, T(100_000), 30n * DAY, S.address))
      // What the same stakes get without a referer.
      const plain = previewStake(await mathState(f.poolV1), T(100_000), 30n * DAY, false)
      const gained = referred.reduce((sum, r) => sum + r.preview.bonus - plain.bonus, 0n)
      expect(gained).to.equal(3n * referralBonus(T(100_000), BigInt(V1_PARAMS.refererBonusPercent), 30n * DAY, MAX_HOLD))
      // A fourth is more than S's stake keeps at stake for the referred period.
      await expect(
        f.poolV1.connect(f.users[4])['stake(uint256,uint256,address)'](T(100_000), 30n * DAY, S.address),
      ).to.be.revertedWithCustomError(f.poolV1, 'ReferralNotBacked')
      // S leaves a second later: its fee pays back every bonus it backed to the reservoir that funded them; only the
      // rest streams to the holders, here the referred stakes themselves.
      const s = await run.close(S, [0n], { at: ts + 4n * 1n + 1n })
      expect(s.closes[0].fee).to.be.greaterThan(gained)
      // Each debt is its bonus rounded down to BACKING_UNITs: never more than the bonuses, less by under a unit each.
      expect(s.paidBack, 'no more than the bonuses').to.be.lessThanOrEqual(gained)
      expect(gained - s.paidBack < 3n * 2n ** 24n, 'every bonus paid back, to the unit').to.equal(true)
      expect(s.otherFees).to.equal(s.closes[0].fee - s.paidBack)
      await time.increase(30n * DAY)
      for (const [i, u] of [X, Y, Z].entries()) await run.close(u, [referred[i].id])
      const end = await run.balances(parties)
      const plainEach = plain.atMaturity - T(100_000)
      // The referral nets nothing: over three plain stakes the owner is left with at most the inflation S's 16,000 earned
      // for its 5 seconds (0.0101, what any stake of it earns), less what of its own streamed fee the virtual shares
      // kept (0.0033): the bonuses went back, and the owner's own fee came back only through its own shares.
      const net = end.reduce((sum, b, i) => sum + b - start[i], 0n) - 3n * plainEach
      const earned = s.closes[0].rewardEarned
      expect(net - earned <= 0n, `the sybil's owner nets ${fmt(net)} over three plain stakes, S earned ${fmt(earned)}`).to.equal(
        true,
      )
      run.checks.verify()
    })

    it('whatever the owner sets, a referer backs no more than it keeps at stake for the referred period', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [S, X] = f.users
      await run.stake(S, T(1_000), 100n * DAY)
      // Released before the referred stake, or made in the same second: refused.
      await expect(
        f.poolV1.connect(X)['stake(uint256,uint256,address)'](T(100), 120n * DAY, S.address),
      ).to.be.revertedWithCustomError(f.poolV1, 'RefererReleasedFirst')
      // At a 0% fee nothing is kept at stake: no referral bonus at all.
      await run.setParameters({ unHoldFee: 0n, refererBonusPercent: 500n * ONE })
      await run.stake(S, T(1_000), MAX_HOLD)
      await expect(f.poolV1.connect(X)['stake(uint256,uint256,address)'](T(100), 30n * DAY, S.address))
        .to.be.revertedWithCustomError(f.poolV1, 'ReferralNotBacked')
        .withArgs(referralBonus(T(100), 500n * ONE, 30n * DAY, MAX_HOLD), 0n)
      // The minimum is the owner's, within bounds.
      await expect(f.poolV1.setRefererMinStake(0n)).to.be.revertedWithCustomError(f.poolV1, 'ParameterOutOfBounds')
      await expect(f.poolV1.connect(X).setRefererMinStake(T(5))).to.be.revertedWithCustomError(
        f.poolV1,
        'OwnableUnauthorizedAccount',
      )
      await expect(f.poolV1.setRefererMinStake(T(2_000)))
        .to.emit(f.poolV1, 'RefererMinStakeChanged')
        .withArgs(T(2_000))
      await run.setParameters({ unHoldFee: PERCENT })
      await run.stake(S, T(1_000), MAX_HOLD)
      await expect(f.poolV1.connect(X)['stake(uint256,uint256,address)'](T(100), 30n * DAY, S.address))
        .to.be.revertedWithCustomError(f.poolV1, 'RefererStakeTooSmall')
        .withArgs(T(1_000), T(2_000))
      run.checks.verify()
    })
  })

  describe('finding 4: a registry nobody can jam, a pool list nobody can blow up, a reservoir no pool can drain', () => {
    it("a whitelisted caller registering the factory's next clone address first does not stop createPool", async () => {
      const f = await loadFixture(deployAuditFixture)
      const { owner, poolsInfo, factory, users, token } = f
      const config = await poolConfig(f)
      const tokenAddr = await token.getAddress()
      const factoryAddr = await factory.getAddress()
      const next = [ethers.getCreateAddress({ from: factoryAddr, nonce: await ethers.provider.getTransactionCount(factoryAddr) })]
      try {
        next.push(await factory.poolAddress(config.implementation, await factory.poolsCreated()))
      } catch {
        // a factory without CREATE2 addresses
      }
      await poolsInfo.setWhitelisted(users[4].address, true)
      const jam = await jamFactory(owner, poolsInfo)
      for (const addr of next) {
        await poolsInfo
          .connect(users[4])
          .addPool(users[4].address, addr, tokenAddr, addr)
          .catch(() => null)
        await jam.register(addr, tokenAddr).catch(() => null)
      }
      const [pool] = await factory.createPool.staticCall(config)
      await factory.createPool(config)
      expect(next).to.include(pool)
      expect(await poolsInfo.isListed(pool)).to.equal(true)
      expect((await poolsInfo.getPools((await poolsInfo.getPoolsLength()) - 1n)).factory).to.equal(factoryAddr)
    })

    it("claim-and-stake reaches the pools of the owner's current factory", async () => {
      const f = await loadFixture(deployAuditFixture)
      const { owner, poolsInfo, harvest, users, signer, token } = f
      const f2 = await new StakingPoolFactory__factory(owner).deploy(await poolsInfo.getAddress(), owner.address)
      await poolsInfo.setWhitelisted(await f2.getAddress(), true)
      const config = await poolConfig(f)
      const [pool] = await f2.createPool.staticCall(config)
      await f2.createPool(config)
      await f.reservoir.approvePool(await token.getAddress(), pool, 0n)
      await approveUnlimited(f.reservoir, token, pool, T(1_000_000))
      const claim = async () =>
        (await signedClaim({ harvest, rewardToken: await token.getAddress(), signer }, users[0].address, T(10))).args
      await expect(harvest.connect(users[0]).harvestStake(...(await claim()), pool, 30n * DAY)).to.be.revertedWithCustomError(
        harvest,
        'UnknownPool',
      )
      await expect(harvest.setFactory(await f2.getAddress())).to.emit(harvest, 'FactoryChanged')
      await expect(harvest.connect(users[0]).harvestStake(...(await claim()), pool, 30n * DAY)).to.emit(harvest, 'HarvestStaked')
    })

    /** The gas of the first page of the pool list (getPoolsDataFromPoolInfo), or why it could not be read. */
    async function listGas(f: Fixture, gasLimit = 16_000_000n) {
      const data = f.lens.interface.encodeFunctionData('getPoolsDataFromPoolInfo', [
        await f.poolsInfo.getAddress(),
        f.users[0].address,
      ])
      return ethers.provider
        .estimateGas({ to: await f.lens.getAddress(), data, gasLimit })
        .catch((e: Error) => e.message.split('\n')[0])
    }
    const within = (g: bigint | string) => typeof g === 'bigint' && g <= 2_000_000n

    for (const count of [3, 4]) {
      it(`${count} pools of a token with a 208,896-byte name: the list stays under 2,000,000 gas (before: 10,519,491 with three, over 16,777,216 with four)`, async () => {
        const f = await loadFixture(deployAuditFixture)
        const huge = await new HugeNameToken__factory(f.owner).deploy(208_896)
        for (let i = 0; i < count; i++)
          await f.factory.createPool({ ...(await poolConfig(f)), stakeToken: await huge.getAddress() })
        const gas = await listGas(f)
        expect(within(gas), `the pool list took ${gas} gas`).to.equal(true)
        const list = await f.lens.getPoolsDataFromPoolInfo(await f.poolsInfo.getAddress(), f.users[0].address)
        // Listed, with a name cut short (this one costs more than a name read may use: empty).
        expect(list.length).to.equal(2 + count)
        for (const p of list.slice(2)) expect(ethers.toUtf8Bytes(p.tokenName).length).to.be.lessThanOrEqual(64)
      })
    }

    it('no set of listed pools takes a page past 2,000,000 gas: gas burners, huge names, reverts', async () => {
      const f = await loadFixture(deployAuditFixture)
      const jam = await jamFactory(f.owner, f.poolsInfo)
      const huge = await new HugeNameToken__factory(f.owner).deploy(208_896)
      const long = await new HugeNameToken__factory(f.owner).deploy(100)
      const tokenAddr = await f.token.getAddress()
      for (let i = 0; i < 5; i++) await f.factory.createPool({ ...(await poolConfig(f)), stakeToken: await huge.getAddress() })
      await f.factory.createPool({ ...(await poolConfig(f)), stakeToken: await long.getAddress() })
      for (const mode of [3, 3, 3, 3, 0, 1, 2, 3])
        await jam.register(await (await new BrokenPool__factory(f.owner).deploy(mode, tokenAddr)).getAddress(), tokenAddr)
      const info = await f.poolsInfo.getAddress()
      let offset = 0n
      const seen: bigint[] = []
      while (offset !== MAX) {
        const data = f.lens.interface.encodeFunctionData('getPoolsPage', [info, f.users[0].address, offset, 100n])
        const gas = await ethers.provider.estimateGas({ to: await f.lens.getAddress(), data })
        expect(gas, `page from ${offset}`).to.be.lessThanOrEqual(2_000_000n)
        const [page, next] = await f.lens.getPoolsPage(info, f.users[0].address, offset, 100n)
        seen.push(...page.map((p) => p.poolId))
        offset = next
      }
      expect(seen.sort((a, b) => Number(a - b))).to.deep.equal([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n])
      // A 100-byte name is cut to 64 bytes.
      const named = await f.lens.getPoolDataById(info, 7n, ZERO)
      expect(named.tokenName).to.equal('\0'.repeat(64))
    })

    const JUNK = COVERAGE ? 150 : 1_250
    it(`${JUNK.toLocaleString('en-US')} delisted junk entries do not reach the pool list`, async function () {
      this.timeout(600_000)
      const f = await loadFixture(deployAuditFixture)
      const jam = await jamFactory(f.owner, f.poolsInfo)
      const tokenAddr = await f.token.getAddress()
      for (let done = 0; done < JUNK; done += 50) await (await jam.spam(50, tokenAddr, { gasLimit: 16_000_000n })).wait()
      for (let id = 2; id < JUNK + 2; id++) await f.poolsInfo.setListed(id, false)
      const gas = await listGas(f)
      expect(within(gas), `the pool list took ${gas} gas`).to.equal(true)
      const list = await f.lens.getPoolsDataFromPoolInfo(await f.poolsInfo.getAddress(), f.users[0].address)
      expect(list.map((p) => p.poolId)).to.deep.equal([0n, 1n])
    })

    it('at a 0% fee, a one-block burst in one pool cannot deny stakes and claim-and-stakes in another (8,200,000 PLT at the default fee)', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const { token, reservoir, poolV1, poolV2, harvest, signer } = f
      const [attacker, victim, claimer] = f.users
      const tokenAddr = await token.getAddress()
      // Allowances are backed: no pool may be promised what the others may already draw (before, the deployment let
      // every pool draw the whole reservoir).
      const all = await token.balanceOf(await reservoir.getAddress())
      await expect(reservoir.approvePool(tokenAddr, await poolV1.getAddress(), all)).to.be.revertedWithCustomError(
        reservoir,
        'AllowanceNotBacked',
      )
      await run.setParameters({ unHoldFee: 0n })
      // Enough to use up all that pool 1 may draw: bonus and reward of 1,230% over 1,095 days.
      const avail = (await poolV1.getPoolState()).reservoirAvailable
      const burst = (avail * 100n) / 1230n
      await fund(f, attacker.address, burst)
      const claim = (await signedClaim({ harvest, rewardToken: tokenAddr, signer }, claimer.address, T(1_000))).args
      const receipts = await inOneBlock([
        (ov) => poolV1.connect(attacker)['stake(uint256,uint256)'](burst, MAX_HOLD, ov),
        (ov) => poolV2.connect(victim)['stake(uint256,uint256)'](T(100_000), MAX_HOLD, ov),
        (ov) => harvest.connect(claimer).harvestStake(...claim, poolV2.getAddress(), 90n * DAY, ov),
        (ov) => poolV1.connect(attacker).unstake([0], ov),
      ])
      expect(
        receipts.map((r) => r.status),
        'burst, stake in pool 0, claim-and-stake in pool 0, close',
      ).to.deep.equal([1, 1, 1, 1])
      expect(fmt(burst).slice(0, 2)).to.equal('81')
    })
  })
})

/**
 * Regression tests for the independent attack review (test/contracts/AttackReview.test.ts), with its figures. Each
 * fails on the contracts before the fix (commit b9bce9c): there every early-close fee of an account named as referer
 * went back to the reservoir until the referred stake's release, whatever the referral's size, and setHarvestTerms
 * took two terms of one hold.
 */
describe('Audit regressions (attack review)', () => {
  const fmt = (x: bigint) => ethers.formatUnits(x, 18)

  describe('finding 1: a referral takes back from its referer no more of an early-close fee than the bonuses it backs', () => {
    it('a 1-wei stake naming a stranger diverts nothing of its 990,867.56 fee; all of it streams to the holders (before issue 40: one BACKING_UNIT; before b9bce9c: all of it to the reservoir)', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [H, W, G] = f.users
      await run.stake(H, T(1_000_000), MAX_HOLD)
      await run.stake(W, T(1_000_000), MAX_HOLD)
      // G, with no other stake, names W (who never agreed) for 1 wei over 1,094 days: a bonus below one unit, no debt.
      await run.stake(G, 1n, 1094n * DAY, W.address)
      // No debt, no record: W's stake owes nothing for it.
      expect([...(await f.poolV1.getReferral(G.address, 0))], 'the 1-wei referral owes nothing').to.deep.equal([
        ethers.ZeroAddress,
        0n,
        0n,
      ])
      expect([...(await f.poolV1.getReferralBacking(W.address, 0))]).to.deep.equal([0n, 0n, 0n])
      await time.increase(10n * DAY)
      const w = await run.close(W, [0n])
      const { fee, forfeited } = w.closes[0]
      expect(Number(fmt(fee)).toFixed(2)).to.equal('990867.56')
      const [, , toReservoir] = w.paid
      const [pending] = await f.poolV1.getFeeStream()
      expect(
        [toReservoir - forfeited, pending],
        `W's fee to the reservoir ${fmt(toReservoir - forfeited)}, streaming to the holders ${fmt(pending)}`,
      ).to.deep.equal([0n, fee])
      // H holds 1,000,000 of the 1,000,000 + 1 wei of shares at risk (and 1 virtual token) through the whole stream.
      await time.increase(FEE_STREAM + 1n)
      const hGains = (await f.poolV1.getStakeInfo(H.address, 0)).stake.gains
      const { rate } = shareFee(fee, ONE, T(1_000_000) + 1n)
      expect(hGains, `H gets ${fmt(hGains)}`).to.equal((T(1_000_000) * (rate - ONE)) / ONE)
      expect(fmt(hGains).slice(0, 7)).to.equal('990866.')
      run.checks.verify()
    })

    it('what a referer owes stays on the stake that backed each referral: each early close pays back its own referrals, no more (before: one debt across the account)', async () => {
      const f = await loadFixture(deployAuditFixture)
      const run = await Run.of(f, 1)
      const [R, X, Y, Z, H] = f.users
      await run.stake(H, T(500_000), MAX_HOLD)
      await run.stake(R, T(16_000), MAX_HOLD)
      await run.stake(X, T(100_000), 30n * DAY, R.address)
      // R's next stake is its latest: it backs the next referrals; X's debt stays on R's first stake.
      await run.stake(R, T(16_000), MAX_HOLD)
      await run.stake(Y, T(100_000), 30n * DAY, R.address)
      await run.stake(Z, T(100_000), 30n * DAY, R.address)
      const debt =
        (referralBonus(T(100_000), BigInt(V1_PARAMS.refererBonusPercent), 30n * DAY, MAX_HOLD) / BACKING_UNIT) * BACKING_UNIT
      expect((await f.poolV1.getReferralBacking(R.address, 0))[0]).to.equal(debt)
      expect((await f.poolV1.getReferralBacking(R.address, 1))[0]).to.equal(2n * debt)
      // A 1,000-day referral of 100,000 (4,566 of bonus) is past what R's latest stake keeps at stake until then.
      await expect(
        f.poolV1.connect(X)['stake(uint256,uint256,address)'](T(100_000), 1000n * DAY, R.address),
      ).to.be.revertedWithCustomError(f.poolV1, 'ReferralNotBacked')
      // R closes its first stake early: X's debt goes back to the reservoir, the rest of its fee streams.
      const first = await run.close(R, [0n], { now: true })
      expect(first.toReservoir - first.closes[0].forfeited, "first fee: X's debt to the reservoir").to.equal(debt)
      expect([...(await f.poolV1.getReferralBacking(R.address, 0))]).to.deep.equal([0n, debt, debt])
      // Its second stake pays back Y's and Z's, and no more.
      const second = await run.close(R, [1n], { now: true })
      expect(second.toReservoir - second.closes[0].forfeited, "second fee: Y's and Z's debts").to.equal(2n * debt)
      run.checks.verify()
    })
  })

  describe('finding 2: one term per hold', () => {
    it('setHarvestTerms([30 d at 5%, 30 d at 50%]) is refused, DuplicateTerm(30 days) (before: accepted; the Lens showed 50%, a 10,000 claim-and-stake got 500 of the 5,000 shown)', async () => {
      const f = await loadFixture(deployAuditFixture)
      const pool = f.poolV1
      const terms = [
        { hold: 30n * DAY, bonus: 5n * ONE },
        { hold: 30n * DAY, bonus: 50n * ONE },
      ]
      await expect(pool.setHarvestTerms(terms))
        .to.be.revertedWithCustomError(pool, 'DuplicateTerm')
        .withArgs(30n * DAY)
      await expect(
        pool.setHarvestTerms([terms[0], { hold: 90n * DAY, bonus: ONE }, { ...terms[1], hold: 90n * DAY }]),
      ).to.be.revertedWithCustomError(pool, 'DuplicateTerm')
      // The terms stay as they were; a pool cannot be created with two terms of one hold either.
      const shown = (await f.lens.getPoolData(await pool.getAddress(), f.users[0].address)).harvestTerms
      expect(shown.map((t) => [t.hold, t.bonus])).to.deep.equal(DEFAULT_TERMS.map((t) => [BigInt(t.hold), BigInt(t.bonus)]))
      await expect(f.factory.createPool({ ...(await poolConfig(f)), terms })).to.be.revertedWithCustomError(pool, 'DuplicateTerm')
      await expect(pool.setHarvestTerms([terms[1]])).to.emit(pool, 'HarvestTermsChanged')
    })
  })
})
