/**
 * Adversarial tests of the staking pools, the Lens, the registry and harvestStake (independent audit, round 2).
 *
 * Every test states an attack and asserts the property the system promises (docs/contracts.md, the NatSpec of
 * StakingPoolBase.sol, src/domain/math.ts) under the current design: version-1 early-close fees stream over
 * FEE_STREAM to the stakes still at risk (a fee joining a running stream moves its end to the amount-weighted average,
 * math.ts extendedStreamEnd; a stake stops sharing at 00:00 UTC of its release day, its gains frozen there), the
 * referral bonus grows with the hold and what a referer owes for it is booked per referred stake on its latest stake,
 * stake(amount, hold[, referer]) and stakeFor refuse terms the reservoir cannot fund in full, the five-argument stake
 * accepts capped terms but never below its stated minimums (a floor even when the reservoir funds everything), restake
 * closes matured stakes only into one guarded stake, and times are kept relative to a per-pool (uint40) epoch.
 * A test PASSES when the contracts resist and FAILS when the attack worked; the failure message carries the measured
 * gain or the revert. Bounds on what an attacker may earn come from the model (src/domain/math.ts releaseFees /
 * shareFee, test/contracts/poolModel.ts), never from the pool's own views.
 *
 * ADV_OPS (default 200) sets the length of the random hostile sequences.
 */
import { expect } from 'chai'
import { ethers, network } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/signers'
import type { ContractTransactionResponse, ContractTransactionReceipt, TransactionReceipt } from 'ethers'
import { deploySystemWith } from './fixtures'
import {
  COVERAGE,
  PENDING,
  pinNextTimestamp,
  stakeExactly,
  stakeMath,
  unstakeExactly,
  checkStaked,
  expectedUnstake,
  inOneBlock,
  poolEvents,
  approveUnlimited,
  backedAmount,
  referralRefusal,
  jamFactory,
  poolLogs,
  type Pool,
} from './helpers'
import { mathState } from '../../scripts/lib/poolState'
import { PoolModel, minimumsBounds, type ModelParams } from './poolModel'
import {
  DAY,
  FEE_STREAM,
  MAX_ACCOUNT_TOTAL,
  MAX_RATE,
  MAX_STAKE_AMOUNT,
  ONE,
  VIRTUAL_SHARES,
  boundsOf,
  expiryDay,
  extendedStreamEnd,
  landedFee,
  poolParams,
  previewStake,
  releaseFees,
  unstakePreview,
  type FeeStream,
  type PoolMathState,
  type StakeBounds,
  type StakePreview,
  type PoolVersion,
} from '../../src/domain/math'
import { signedClaim } from '../../scripts/lib/claims'
import { V1_PARAMS, V2_PARAMS, DEFAULT_TERMS } from '../../scripts/lib/system'
import {
  AdvHookToken__factory,
  AdvRateInflater__factory,
  AdvReentrantStaker__factory,
  AdvSameTxCycler__factory,
  AdvViewVsClose__factory,
  ImplAndTermsV1__factory,
  ImplAndTermsV2__factory,
  StakingPoolFactory__factory,
  type ImplAndTermsV1,
} from '../../src/chain/types'
import { seededRandom } from '../../scripts/lib/seededRandom'

/** Figures of each attack, printed with ADV_VERBOSE=1; a green run stays quiet. */
const log = (...args: unknown[]) => process.env.ADV_VERBOSE && console.log(...args)

const T = (n: number | bigint) => BigInt(n) * ONE
const MAX = ethers.MaxUint256
const ZERO = ethers.ZeroAddress
const fmt = (x: bigint) => ethers.formatUnits(x, 18)
// Under coverage, shorter sequences reach the same lines (coverage measures lines; the plain run keeps 200).
const OPS = Number(process.env.ADV_OPS ?? (COVERAGE ? 50 : 200))
const PAGE_STEPS = COVERAGE ? 10 : 32

type Params = ModelParams

async function advFixture() {
  const sys = await deploySystemWith()
  // Whales: every user can stake the largest amount several times.
  for (const u of sys.users) await sys.token.mint(u.address, 2n ** 100n)
  return sys
}
type Sys = Awaited<ReturnType<typeof advFixture>>

async function fresh(): Promise<Sys> {
  return loadFixture(advFixture)
}

function poolConfig(sys: Sys, implementation: string, params: Params, terms = DEFAULT_TERMS, token?: string) {
  return (async () => ({
    implementation,
    name: 'adv',
    symbol: 'ADV',
    stakeToken: token ?? (await sys.token.getAddress()),
    reservoir: await sys.reservoir.getAddress(),
    harvest: await sys.harvest.getAddress(),
    params,
    terms,
  }))()
}

/** A new pool made by the system's factory (so harvestStake accepts it), approved by the reservoir and the users. */
async function newPool(sys: Sys, version: 1 | 2, params: Params, terms = DEFAULT_TERMS, token?: string): Promise<Pool> {
  const impl = version === 1 ? await sys.implV1.getAddress() : await sys.implV2.getAddress()
  const config = await poolConfig(sys, impl, params, terms, token)
  const [addr] = await sys.factory.createPool.staticCall(config)
  await (await sys.factory.createPool(config)).wait()
  if (!token) {
    await approveUnlimited(sys.reservoir, sys.token, addr)
    for (const u of sys.users) await sys.token.connect(u).approve(addr, MAX)
  }
  return version === 1 ? ImplAndTermsV1__factory.connect(addr, sys.owner) : ImplAndTermsV2__factory.connect(addr, sys.owner)
}

/** The strict forms: full terms or RewardsUnavailable. */
const stake2 = (pool: Pool, u: HardhatEthersSigner, amount: bigint, hold: bigint, referer?: string, ov = {}) =>
  referer
    ? pool.connect(u)['stake(uint256,uint256,address)'](amount, hold, referer, ov)
    : pool.connect(u)['stake(uint256,uint256)'](amount, hold, ov)

/** The minimum-terms form (minimums 0 unless given: whatever the reservoir can fund). */
const stake5 = (
  pool: Pool,
  u: HardhatEthersSigner,
  amount: bigint,
  hold: bigint,
  referer = ZERO,
  minBonus = 0n,
  minReward = 0n,
  ov = {},
) => pool.connect(u)['stake(uint256,uint256,address,uint256,uint256)'](amount, hold, referer, minBonus, minReward, ov)

type Send = (ov: object) => Promise<ContractTransactionResponse>

/**
 * Sends the transactions in order into ONE block (automine off, falling priority fees so the block keeps the order)
 * and mines it. Returns what was sent and the receipts, whatever their status, checked to be in one block in order.
 */
async function mineInOneBlock(sends: Send[]): Promise<{ sent: ContractTransactionResponse[]; receipts: TransactionReceipt[] }> {
  await network.provider.send('evm_setAutomine', [false])
  const sent: ContractTransactionResponse[] = []
  try {
    for (const [i, send] of sends.entries()) {
      const prio = ethers.parseUnits(String(100 - i * 10), 'gwei')
      sent.push(await send({ gasLimit: 3_000_000n, maxPriorityFeePerGas: prio, maxFeePerGas: ethers.parseUnits('2000', 'gwei') }))
    }
    await network.provider.send('evm_mine', [])
  } finally {
    await network.provider.send('evm_setAutomine', [true])
  }
  const receipts = await Promise.all(sent.map(async (t) => (await ethers.provider.getTransactionReceipt(t.hash))!))
  expect(new Set(receipts.map((r) => r.blockNumber)).size, 'all in one block').to.equal(1)
  expect(receipts.map((r) => r.index)).to.deep.equal(receipts.map((_, i) => i))
  return { sent, receipts }
}

/** mineInOneBlock for transactions that must all succeed: their receipts, in order. */
async function oneBlock(sends: Send[]): Promise<ContractTransactionReceipt[]> {
  const { sent } = await mineInOneBlock(sends)
  // wait() throws for a reverted transaction and gives the receipt with the contract's events decoded.
  return (await Promise.all(sent.map((t) => t.wait()))) as ContractTransactionReceipt[]
}

/** oneBlock for transactions that may revert: their receipts' status and hashes, in order. */
async function oneBlockWithReverts(sends: Send[]) {
  const { receipts } = await mineInOneBlock(sends)
  return receipts.map((r) => ({ status: r.status, hash: r.hash }))
}

/** The whales: H stakes 500,000 for a year and V `victim` (1,000,000) for 1095 days in `pool`; then 10 days pass. */
async function whalesStaked(pool: Pool, [V, H]: HardhatEthersSigner[], victim = T(1_000_000)) {
  await (await stake2(pool, H, T(500_000), 365n * DAY)).wait()
  await (await stake2(pool, V, victim, 1095n * DAY)).wait()
  await time.increase(10n * DAY)
}

/** What staking 1,000 tokens for 1095 days and closing them in the same transaction gains now (AdvSameTxCycler). */
async function sameTxGain(sys: Sys, pool: Pool): Promise<bigint> {
  const cycler = await new AdvSameTxCycler__factory(sys.owner).deploy()
  await sys.token.mint(await cycler.getAddress(), T(1000))
  return cycler.run.staticCall(await pool.getAddress(), await sys.token.getAddress(), [T(1000)], [1095n * DAY], ZERO, false)
}

/** A claim of `amount` for `user`, signed by the system's trusted signer for the user's state now: harvest's arguments. */
async function claimArgs(sys: Sys, user: string, amount: bigint) {
  return (
    await signedClaim({ harvest: sys.harvest, rewardToken: await sys.token.getAddress(), signer: sys.signer }, user, amount)
  ).args
}

/** The custom error a mined transaction reverted with, as `Name(arg, ...)` (from its trace), or null. */
async function revertOf(pool: Pool, hash: string): Promise<string | null> {
  const trace = await network.provider.send('debug_traceTransaction', [
    hash,
    { disableStorage: true, disableMemory: true, disableStack: true },
  ])
  if (!trace.failed) return null
  const e = pool.interface.parseError('0x' + String(trace.returnValue).replace(/^0x/, ''))
  return e ? `${e.name}(${e.args.join(', ')})` : `unknown revert 0x${trace.returnValue}`
}

async function blockTime(r: { blockNumber: number }): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock(r.blockNumber))!.timestamp)
}

async function balanceOf(sys: Sys, who: string | { getAddress(): Promise<string> }) {
  return sys.token.balanceOf(typeof who === 'string' ? who : await who.getAddress())
}

/** The args of every `name` event `pool` emitted in `r`. */
const eventsOf = (pool: Pool, r: ContractTransactionReceipt, name: string) => poolLogs(pool, r, [name]).map(([, args]) => args)

/** Runs `fn` and rolls the chain back afterwards (to compare two futures of the same state). */
async function branch<R>(fn: () => Promise<R>): Promise<R> {
  const id = await network.provider.send('evm_snapshot', [])
  try {
    return await fn()
  } finally {
    await network.provider.send('evm_revert', [id])
  }
}

/** Balance covers obligations, and obligations cover every active stake's committed figures and its gains. */
async function expectFullySolvent(sys: Sys, pool: Pool, holders: string[]) {
  const st = await pool.getPoolState()
  const bal = await balanceOf(sys, pool)
  expect(bal, 'balance >= obligations').to.be.greaterThanOrEqual(st.obligations)
  let committed = 0n
  let gains = 0n
  for (const h of holders) {
    const n = await pool.getUserStakesCount(h)
    for (let i = 0n; i < n; i++) {
      const s = await pool.getStake(h, i)
      if (!s.active) continue
      committed += s.stakeAmount + s.bonus + s.reward
      gains += s.gains
    }
  }
  expect(st.obligations - committed, 'shared fees cover the gains of every active stake').to.be.greaterThanOrEqual(gains)
}

/**
 * A pool driven step by step together with the model (test/contracts/poolModel.ts, built on src/domain/math.ts): every
 * stake and close is checked against the model's figures to the wei, and check() compares the pool's views (rate,
 * fee stream, obligations, shares) with the model's at the latest block.
 */
class Modeled {
  readonly model: PoolModel
  constructor(
    readonly sys: Sys,
    readonly pool: Pool,
    version: PoolVersion,
    params: Params,
  ) {
    this.model = new PoolModel(version, { ...params })
  }

  async stake(u: HardhatEthersSigner, amount: bigint, hold: bigint, referer?: string, minimums?: [bigint, bigint]) {
    const t = await pinNextTimestamp()
    const avail = (await this.pool.getPoolState()).reservoirAvailable
    const refusal = this.model.stakeRefusal(u.address, amount, hold, referer ?? null, avail, t, minimumsBounds(minimums))
    const tx = minimums
      ? stake5(this.pool, u, amount, hold, referer ?? ZERO, ...minimums)
      : stake2(this.pool, u, amount, hold, referer)
    if (refusal) {
      await expect(tx).to.be.revertedWithCustomError(this.pool, refusal)
      return -1n
    }
    const { stake, preview } = this.model.stake(u.address, amount, hold, referer ?? null, avail, t)
    await expect(tx)
      .to.emit(this.pool, 'Staked')
      .withArgs(u.address, stake.id, amount, preview.bonus, preview.reward, preview.shares, preview.holdTime, referer ?? ZERO)
    return stake.id
  }

  async close(u: HardhatEthersSigner, ids: bigint[], after = 1n) {
    const t = await pinNextTimestamp(after)
    const r = this.model.close(u.address, ids, t)
    await expect(this.pool.connect(u).unstake(ids)).to.changeTokenBalances(
      this.sys.token,
      [u, this.sys.reservoir],
      [r.toUser, r.toReservoir],
    )
    return { ...r, time: t }
  }

  activeIds(u: HardhatEthersSigner) {
    return this.model.activeOf(u.address).map((s) => s.id)
  }

  async check(label = '') {
    const t = BigInt(await time.latest())
    const st = this.model.at(t)
    expect(await this.pool.getRate(), `${label} rate`).to.equal(st.rate)
    const [pending, end] = await this.pool.getFeeStream()
    expect([pending, end], `${label} fee stream`).to.deep.equal([
      st.pending,
      st.pending === 0n ? 0n : this.model.stream.streamEnd,
    ])
    const ps = await this.pool.getPoolState()
    expect(ps.obligations, `${label} obligations`).to.equal(this.model.obligationsAt(t))
    // The shares fees go to are the principal still at risk now (a view walks past the release days begun since the
    // last transaction); the share supply is all active principal.
    expect(ps.totalShares, `${label} shares at risk`).to.equal(st.atRisk)
    expect(await this.pool.totalSupply(), `${label} share supply`).to.equal(this.model.totalStaked)
    expect(await balanceOf(this.sys, this.pool), `${label} solvent`).to.be.greaterThanOrEqual(ps.obligations)
  }
}

/**
 * Why stake()/stakeFor must revert in the pool as `state` shows it (mathState(pool, PENDING)), by the model's rules
 * (poolModel.ts commonRefusal: paused, zero, too large, the terms' floor, shares), or null: a PoolModel holding only
 * the pool's rate, shares, parameters and pause flag. `minimums` as stake(amount, hold, referer, minBonus, minReward)
 * states them; undefined for the full terms (2/3-argument stake, stakeFor with `term`). Account limits depend on the
 * user's stakes, which the snapshot does not hold: the caller checks them.
 */
function modelRefusal(
  state: PoolMathState,
  paused: boolean,
  user: string,
  amount: bigint,
  hold: bigint,
  hasReferer: boolean,
  minimums?: [bigint, bigint],
  term?: bigint,
) {
  const { version, rate, totalShares, reservoirAvailable, ...params } = state
  const m = new PoolModel(version, params)
  m.stream = { ...m.stream, rate }
  // The snapshot's shares are those still at risk (what previewStake counts a new stake's part of the pool against).
  m.atRisk = totalShares
  m.paused = paused
  return m.commonRefusal(user, amount, hold, hasReferer, reservoirAvailable, 0n, term, minimumsBounds(minimums))
}

/** The stream as stored right after an unstake at `t` (unstake always writes the release time). */
async function streamAfterClose(pool: Pool, t: bigint): Promise<FeeStream> {
  const [pending, streamEnd] = await pool.getFeeStream()
  return { rate: await pool.getRate(), sharedFees: 0n, pending, lastRelease: t, streamEnd }
}

// ====================================================================================================== attacks

describe('Adversary: fee farming around an early close (version 1, fee stream)', () => {
  /**
   * Victim V (a whale, 1,000,000 tokens for 1095 days) closes early at day 10 and pays a fee of ~990,868 tokens.
   * Another holder H has 500,000 tokens for 365 days. Attacker A sees V's close in the mempool and, in the SAME
   * block, stakes X right before it (300-day hold with H as referer: H's stake backs it), then closes right after it.
   * Property: the fee starts a stream that nothing in that block releases, so A ends with no more than it put in, the
   * rate has not moved, and the whole fee is pending until tc + FEE_STREAM.
   */
  it('a same-block stake-then-close around a whale early close gains nothing; the fee is all pending', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, H, A] = sys.users
    await whalesStaked(pool, sys.users)
    const X = T(228_000)
    const before = await balanceOf(sys, A.address)
    const receipts = await oneBlock([
      (ov) => stake2(pool, A, X, 300n * DAY, H.address, ov),
      (ov) => pool.connect(V).unstake([0], ov),
      (ov) => pool.connect(A).unstake([0], ov),
    ])
    const gain = (await balanceOf(sys, A.address)) - before
    const fee = eventsOf(pool, receipts[1], 'Unstaked')[0].fee as bigint
    const afee = eventsOf(pool, receipts[2], 'Unstaked')[0].fee as bigint
    const tc = await blockTime(receipts[1])
    log(`      victim fee ${fmt(fee)}; attacker put ${fmt(X)}, got back ${fmt(X + gain)}: gain ${fmt(gain)} in one block`)
    expect(gain, `attacker gained ${fmt(gain)} tokens in one block`).to.be.lessThanOrEqual(0n)
    expect(await pool.getRate(), 'no fee reached anybody in the block').to.equal(ONE)
    expect(await pool.getFeeStream()).to.deep.equal([fee + afee, tc + FEE_STREAM])
    await expectFullySolvent(sys, pool, [V.address, H.address, A.address])
  })

  it('a 1-token stake cannot catch a lone whale early-close fee (VIRTUAL_SHARES, stream)', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, , A] = sys.users
    await (await stake2(pool, V, T(1_000_000), 1095n * DAY)).wait()
    await time.increase(10n * DAY)
    const before = await balanceOf(sys, A.address)
    await oneBlock([
      (ov) => stake2(pool, A, T(1), 1095n * DAY, undefined, ov),
      (ov) => pool.connect(V).unstake([0], ov),
      (ov) => pool.connect(A).unstake([0], ov),
    ])
    const gain = (await balanceOf(sys, A.address)) - before
    log(`      attacker put 1 token, gained ${fmt(gain)} tokens in one block`)
    expect(gain, `1-token attacker gained ${fmt(gain)} tokens`).to.be.lessThanOrEqual(0n)
    // The victim was the last real share: its fee went back to the reservoir, nothing streams.
    expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
  })

  /**
   * The economic variant with no fee risk: the attacker stakes X (1,000,000 tokens) for d days just before the whale's
   * close, and closes at maturity. It may earn its own bonus and reward, plus its shares' part of what the stream
   * released WHILE IT WAS AT RISK (linear over FEE_STREAM): a stake stops sharing fees at 00:00 UTC of its release day,
   * so the fees released from then until its close go only to the stakes still locked. Bounded here from the model
   * (releaseFees over [tc, start of its release day] with the shares at risk then), never the whole fee at once as in
   * round 1 (the 1-day sniper then took 21,311 tokens), nor what sharing until its close would have given.
   */
  for (const days of [1n, 3n, 30n]) {
    it(`a ${days}-day stake placed just before a whale close earns its own terms plus only its time-weighted part of the fee until its release day begins`, async () => {
      const sys = await fresh()
      const pool = sys.poolV1
      const [V, , A] = sys.users
      await whalesStaked(pool, sys.users)
      const X = T(1_000_000)
      const before = await balanceOf(sys, A.address)
      const receipts = await oneBlock([
        (ov) => stake2(pool, A, X, days * DAY, undefined, ov),
        (ov) => pool.connect(V).unstake([0], ov),
      ])
      const tc = await blockTime(receipts[1])
      const fee = eventsOf(pool, receipts[1], 'Unstaked')[0].fee as bigint
      const stream = await streamAfterClose(pool, tc)
      expect(stream.pending, 'the whole fee streams').to.equal(fee)
      expect(stream.streamEnd).to.equal(tc + FEE_STREAM)
      const s = await pool.getStake(A.address, 0)
      expect(s.entryRate).to.equal(ONE)
      // A and H, both at risk: the only release day before A's close is A's own.
      const shares = s.lpAmount + (await pool.getStake(sys.users[1].address, 0)).lpAmount
      expect((await pool.getPoolState()).totalShares, 'shares at risk').to.equal(shares)
      const tA = tc + days * DAY
      const dayStart = expiryDay(tc, days * DAY) * DAY
      expect(dayStart > tc && dayStart <= tA, "A's release day begins during its hold").to.equal(true)
      await time.setNextBlockTimestamp(tA)
      await (await pool.connect(A).unstake([0])).wait()
      const gain = (await balanceOf(sys, A.address)) - before
      const due = releaseFees(stream, shares, dayStart)
      const feePart = (s.lpAmount * (due.rate - s.entryRate)) / ONE
      const bound = s.bonus + s.reward + feePart
      const fair = (due.released * s.lpAmount) / (shares + VIRTUAL_SHARES)
      const instant = (fee * s.lpAmount) / (shares + VIRTUAL_SHARES)
      // Had it kept sharing until its close (the old rule), it would have been paid this.
      const untilClose = (s.lpAmount * (releaseFees(stream, shares, tA).rate - s.entryRate)) / ONE
      log(
        `      ${days}-day sniper: own bonus+reward ${fmt(s.bonus + s.reward)}, fee part ${fmt(gain - s.bonus - s.reward)} ` +
          `(stream released ${fmt(due.released)} of ${fmt(fee)} while it was at risk; time-weighted share ${fmt(fair)}; ` +
          `sharing until its close would give ${fmt(untilClose)}; instant sharing ${fmt(instant)})`,
      )
      expect(gain, `sniper gained ${fmt(gain - bound)} above its time-weighted part`).to.be.lessThanOrEqual(bound)
      expect(feePart, 'fee part within the shares part of the release').to.be.lessThanOrEqual(fair + 1n)
      // The stream released more between the start of A's release day and its close (unless the two coincide).
      if (dayStart < tA) expect(feePart, 'nothing released after its release day began').to.be.lessThan(untilClose)
      else expect(feePart).to.equal(untilClose)
      expect(gain, 'paid exactly what the model says').to.equal(bound)
    })
  }

  /**
   * The fee-free variant across blocks: the owner set unHoldFee 0 for new stakes; the attacker stakes 1,000,000 tokens
   * for 1095 days (H as referer) before the whale's close and closes it in the NEXT block (one second later). It may
   * keep one second of its reward and one second of the stream times its share, nothing more.
   */
  it('with unHoldFee 0, a sandwich closed one block after the victim gets one second of the stream at most', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, H, A] = sys.users
    await whalesStaked(pool, sys.users)
    await (await pool.setParameters({ ...poolParams(V1_PARAMS), unHoldFee: 0n })).wait()
    const before = await balanceOf(sys, A.address)
    const receipts = await oneBlock([
      (ov) => stake2(pool, A, T(1_000_000), 300n * DAY, H.address, ov),
      (ov) => pool.connect(V).unstake([0], ov),
    ])
    const tc = await blockTime(receipts[1])
    const stream = await streamAfterClose(pool, tc)
    const shares = (await pool.getPoolState()).totalShares
    const m = await stakeMath(pool, A.address, 0)
    await time.setNextBlockTimestamp(tc + 1n)
    await (await pool.connect(A).unstake([0])).wait()
    const gain = (await balanceOf(sys, A.address)) - before
    const due = releaseFees(stream, shares, tc + 1n)
    const want = unstakePreview(m, due.rate, tc + 1n)
    log(
      `      fee-free sandwich over one second: gain ${fmt(gain)} (reward ${fmt(want.rewardEarned)}, fee part ${fmt(want.gains)})`,
    )
    expect(gain).to.equal(want.received - m.stakeAmount)
    expect(want.gains).to.be.lessThanOrEqual((due.released * m.lpAmount) / (shares + VIRTUAL_SHARES) + 1n)
  })

  it('with unHoldFee 0 for new stakes, a same-block stake-then-close still returns at most the principal', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, H, A] = sys.users
    await whalesStaked(pool, sys.users, T(100_000))
    await (await pool.setParameters({ ...poolParams(V1_PARAMS), unHoldFee: 0n })).wait()
    const X = T(1_000_000)
    const before = await balanceOf(sys, A.address)
    await oneBlock([
      (ov) => stake2(pool, A, X, 300n * DAY, H.address, ov),
      (ov) => pool.connect(V).unstake([0], ov),
      (ov) => pool.connect(A).unstake([0], ov),
    ])
    const gain = (await balanceOf(sys, A.address)) - before
    log(`      fee-free attacker gained ${fmt(gain)} tokens in one block (victim 100,000 at 100% fee)`)
    expect(gain, `gain ${fmt(gain)}`).to.be.lessThanOrEqual(0n)
  })

  it('version 2 returns the fee to the reservoir: the same sandwich gains nothing', async () => {
    const sys = await fresh()
    const pool = sys.poolV2
    const [V, , A] = sys.users
    await whalesStaked(pool, sys.users)
    const before = await balanceOf(sys, A.address)
    await oneBlock([
      (ov) => stake2(pool, A, T(228_000), 1095n * DAY, undefined, ov),
      (ov) => pool.connect(V).unstake([0], ov),
      (ov) => pool.connect(A).unstake([0], ov),
    ])
    expect((await balanceOf(sys, A.address)) - before).to.be.lessThanOrEqual(0n)
    expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
  })
})

describe('Adversary: stake-then-close in one transaction, for any owner parameters', () => {
  const extremes: [string, Partial<Params>][] = [
    ['defaults', {}],
    [
      'fee 0, max bonuses, max inflation',
      { unHoldFee: 0n, timeBonusPercent: T(500), refererBonusPercent: T(500), inflationPercent: T(1000) },
    ],
    ['fee 0, holdTimeMax 1 day, max bonus', { unHoldFee: 0n, timeBonusPercent: T(500), holdTimeMax: DAY, holdTimeRefMin: 0n }],
    ['fee 1 wei-percent', { unHoldFee: 1n }],
  ]
  for (const version of [1, 2] as const) {
    for (const [name, over] of extremes) {
      it(`v${version}, ${name}: dust, odd and whale stakes (capped and strict) closed in the same transaction never gain`, async () => {
        const sys = await fresh()
        const base = poolParams(version === 1 ? V1_PARAMS : V2_PARAMS)
        const params = { ...base, ...over }
        if (version === 2) {
          params.inflationPercent = 0n
          params.refererBonusPercent = 0n
        }
        const pool = await newPool(sys, version, params)
        // Honest holders so that fees have somewhere to go, and a stream already running.
        // users[0] also backs the referrals below: large and as long as the pool allows.
        await (await stake2(pool, sys.users[0], MAX_STAKE_AMOUNT, params.holdTimeMax)).wait()
        await (await stake2(pool, sys.users[1], 3n, DAY)).wait()
        await (await stake2(pool, sys.users[2], T(50), DAY)).wait()
        await (await pool.connect(sys.users[2]).unstake([0])).wait()
        await time.increase(3600n)
        const cycler = await new AdvSameTxCycler__factory(sys.owner).deploy()
        const c = await cycler.getAddress()
        await sys.token.mint(c, 2n ** 100n)
        // A fee already streams, so the rate is above 1e18 (a stake's shares are its principal whatever the rate).
        const rate = await pool.getRate()
        const amounts = [1n, 2n, 3n, 7n, 99n, 10n ** 6n + 1n, ONE - 1n, ONE, T(12345) + 7n, MAX_STAKE_AMOUNT].filter(
          (a) => (a * ONE) / (rate + rate / 10n) > 0n,
        )
        if (version === 1 && params.unHoldFee / 100n > 0n) expect(rate, 'a stream is running').to.be.greaterThan(ONE)
        const maxH = params.holdTimeMax
        const week = DAY * 7n + 5n <= maxH ? DAY * 7n + 5n : maxH
        const holds = amounts.map((_, i) => [DAY, maxH, week][i % 3])
        const p = await pool.getAddress()
        const t = await sys.token.getAddress()
        const n = amounts.length - 1
        const fit = amounts.slice(0, n)
        const results: bigint[] = []
        // The whale needs capped terms (the reservoir holds 1e8 tokens): the minimum-terms form with minimums 0.
        results.push(await cycler.run.staticCall(p, t, amounts, holds, ZERO, true))
        results.push(await cycler.runEach.staticCall(p, t, amounts, holds, true))
        results.push(await cycler.run.staticCall(p, t, fit, holds.slice(0, n), ZERO, false))
        results.push(await cycler.runEach.staticCall(p, t, fit, holds.slice(0, n), false))
        if (params.holdTimeRefMin <= maxH) {
          // Referrals released well before the referer's stake, which backs them only while its fee keeps something
          // at stake: at a 0% fee a referral bonus is refused.
          const refHold = params.holdTimeRefMin > DAY ? params.holdTimeRefMin : DAY
          const refHolds = amounts.map(() => refHold)
          // A referral the referer's stake cannot back (released first: the pool's hold is that short) is refused.
          const referrals = [
            () => cycler.run.staticCall(p, t, amounts, refHolds, sys.users[0].address, true),
            () => cycler.run.staticCall(p, t, fit, refHolds.slice(0, n), sys.users[0].address, false),
          ]
          if (version === 2 || params.unHoldFee / 100n > 0n) {
            for (const run of referrals)
              results.push(
                await run().catch((e: Error) => {
                  expect(e.message).to.match(/RefererReleasedFirst/)
                  return 0n
                }),
              )
          } else {
            await expect(referrals[0]()).to.be.reverted
          }
        }
        for (const r of results) expect(r, `gained ${r}`).to.be.lessThanOrEqual(0n)
        // The strict forms refuse what the reservoir cannot fund in full (here: the whale's terms).
        const whale = previewStake(await mathState(pool), MAX_STAKE_AMOUNT, maxH, false)
        const strict = cycler.run.staticCall(p, t, [MAX_STAKE_AMOUNT], [maxH], ZERO, false)
        if (whale.bonus + whale.reward < whale.bonusWanted + whale.rewardWanted) {
          await expect(strict).to.be.revertedWithCustomError(pool, 'RewardsUnavailable').withArgs(whale.bonus, whale.reward)
        } else {
          expect(await strict).to.be.lessThanOrEqual(0n)
        }
      })
    }
  }
})

describe('Adversary: view figures against what unstake pays', () => {
  /** A staker contract reads getStakeInfo for each stake and closes them in the same transaction (same time, rate). */
  async function viewer(sys: Sys, pool: Pool) {
    const v = await new AdvViewVsClose__factory(sys.owner).deploy()
    await sys.token.mint(await v.getAddress(), T(10_000_000))
    await (await v.setup(await pool.getAddress(), await sys.token.getAddress())).wait()
    return v
  }

  for (const version of [1, 2] as const) {
    it(`v${version}: a single close pays exactly getStakeInfo's amountOut - fee, in every phase of a stake`, async () => {
      const sys = await fresh()
      const pool = version === 1 ? sys.poolV1 : sys.poolV2
      const v = await viewer(sys, pool)
      const p = await pool.getAddress()
      const t = await sys.token.getAddress()
      await (await stake2(pool, sys.users[0], T(5000), 400n * DAY)).wait()
      for (let i = 0; i < 6; i++) await (await v.doStake(p, T(100 + i) + 7n, BigInt(1 + i * 50) * DAY)).wait()
      // Fees from other closes first, so that a stream runs and gains are nonzero.
      await time.increase(3n * DAY)
      await (await stake2(pool, sys.users[1], T(700), 300n * DAY)).wait()
      await (await pool.connect(sys.users[1]).unstake([0])).wait()
      for (const [id, wait] of [
        [0n, 1n],
        [1n, 10n * DAY],
        [2n, 1n],
        [3n, 150n * DAY],
        [4n, 400n * DAY],
        [5n, 1n],
      ] as const) {
        await time.increase(wait)
        const [shown, , paid] = await v.closeAndCompare.staticCall(p, t, [id])
        expect(paid, `stake ${id}: shown ${shown}, paid ${paid}`).to.equal(shown)
        await (await v.closeAndCompare(p, t, [id])).wait()
      }
    })
  }

  /**
   * The same staker holds an early stake A (fee) and a matured stake B and closes them in one call unstake([A, B]):
   * every view must show what the batch pays (round 1: B took a share of A's fee at once).
   */
  it('v1: closing several stakes in one call pays what the views (getStakeInfo, getAllCurrentStakeAmount) show', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const v = await viewer(sys, pool)
    const p = await pool.getAddress()
    const t = await sys.token.getAddress()
    await (await stake2(pool, sys.users[0], T(1000), 1095n * DAY)).wait()
    await (await v.doStake(p, T(100_000), 1095n * DAY)).wait()
    await (await v.doStake(p, T(100_000), DAY)).wait()
    await time.increase(2n * DAY)
    const a = await pool.getStakeInfo(await v.getAddress(), 0, PENDING)
    const [shownSum, shownAll, paid] = await v.closeAndCompare.staticCall(p, t, [0, 1])
    const [, , paidReversed] = await v.closeAndCompare.staticCall(p, t, [1, 0])
    log(
      `      stake A fee ${fmt(a.fee)}; shown (rows) ${fmt(shownSum)}, getAllCurrentStakeAmount ${fmt(shownAll)}; ` +
        `unstake([A,B]) paid ${fmt(paid)}, unstake([B,A]) paid ${fmt(paidReversed)}`,
    )
    expect(shownAll).to.equal(shownSum)
    expect(paid, `batch paid ${fmt(paid - shownSum)} more than every view showed`).to.equal(shownSum)
    expect(paidReversed).to.equal(shownSum)
  })

  /**
   * Pool-level views read inside the closing transaction, before and after unstake(ids), at the same timestamp:
   * the drop in getPoolState().obligations is exactly the tokens that left the pool, the rate does not move (a
   * batch's own fees reach nobody in that transaction), and getFeeStream() gains exactly the batch's fees, with the
   * end the model gives (math.ts extendedStreamEnd: t + FEE_STREAM on an empty stream, else the amount-weighted
   * average of the old end and t + FEE_STREAM) or the old end when the batch charged no fee, or empties when the last
   * active stake closes (version 2: never anything pending).
   */
  for (const version of [1, 2] as const) {
    it(`v${version}: obligations, getFeeStream and getRate around each close account for every token, at the close's timestamp`, async () => {
      const sys = await fresh()
      const pool = version === 1 ? sys.poolV1 : sys.poolV2
      const v = await viewer(sys, pool)
      const p = await pool.getAddress()
      const t = await sys.token.getAddress()
      const H = sys.users[0]
      await (await stake2(pool, H, T(3000), 200n * DAY)).wait()
      for (let i = 0; i < 7; i++) await (await v.doStake(p, T(1000 + 37 * i) + 11n, BigInt(1 + i * 30) * DAY)).wait()
      const phases: [bigint[], bigint][] = [
        [[0n], 3600n],
        [[1n, 2n], 5n * DAY],
        [[3n], 1n],
        [[4n], 40n * DAY],
        [[5n], 1n],
      ]
      let feesJoined = 0
      const account = async (ids: bigint[], wait: bigint, last: boolean) => {
        await time.increase(wait)
        const active = await pool.getUserActiveStakesCount(await v.getAddress())
        const r = (await (await v.closeAndAccount(p, t, ids)).wait())!
        const ts = await blockTime(r)
        const b = v.interface.parseLog(r.logs.find((l) => v.interface.parseLog(l)?.name === 'Accounted')!)!.args.books
        const tag = `close ${ids.join(',')} at +${wait}s`
        expect(b.paid, `${tag}: paid vs getStakeInfo`).to.equal(b.shownSum)
        if (BigInt(ids.length) === active) expect(b.shownAll, `${tag}: getAllCurrentStakeAmount`).to.equal(b.shownSum)
        expect(b.obligationsBefore - b.obligationsAfter, `${tag}: obligations fell by what left the pool`).to.equal(
          b.poolBefore - b.poolAfter,
        )
        expect(b.rateAfter, `${tag}: rate moved inside the close`).to.equal(b.rateBefore)
        expect(b.sharesAfter, `${tag}: shares at risk within the active principal`).to.be.lessThanOrEqual(b.stakedAfter)
        if (version === 2) {
          expect([b.pendingBefore, b.pendingAfter, b.streamEndAfter]).to.deep.equal([0n, 0n, 0n])
        } else if (b.stakedAfter === 0n) {
          // The last active stake is gone: what was still streaming went back with it.
          expect(last, `${tag}: last active stake`).to.equal(true)
          expect([b.pendingAfter, b.streamEndAfter, b.obligationsAfter]).to.deep.equal([0n, 0n, 0n])
        } else {
          expect(b.pendingAfter, `${tag}: pending gains exactly the batch's fees`).to.equal(b.pendingBefore + b.feesShown)
          if (b.pendingBefore === 0n) expect(b.streamEndBefore, `${tag}: no end without a stream`).to.equal(0n)
          const end =
            b.feesShown > 0n ? extendedStreamEnd(b.pendingBefore, b.feesShown, b.streamEndBefore, ts) : b.streamEndBefore
          expect(b.streamEndAfter, `${tag}: stream end (pending ${b.pendingBefore} + ${b.feesShown})`).to.equal(end)
          if (b.pendingBefore > 0n && b.feesShown > 0n) feesJoined++
        }
        expect(b.poolAfter).to.be.greaterThanOrEqual(b.obligationsAfter)
      }
      for (const [ids, wait] of phases) await account(ids, wait, false)
      // The phases must exercise the weighted end: fees joining a stream that still had something pending.
      if (version === 1) expect(feesJoined, 'closes whose fee joined a running stream').to.be.greaterThan(0)
      // H leaves, then the viewer's last stake is the last share: everything pending goes back with it.
      await (await pool.connect(H).unstake([0])).wait()
      await account([6n], 1n, true)
      expect((await pool.getPoolState()).obligations).to.equal(0n)
    })
  }
})

describe('Adversary: paged views (getStakeInfos, Lens pages)', () => {
  it('random stakes, batch closes and time jumps: pages list every active stake once, then visible closes newest first', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const u = sys.users[3]
    const r = seededRandom(7)
    const active = new Set<bigint>()
    const closes: { id: bigint; at: bigint }[] = []
    let count = 0n
    const check = async () => {
      const now = BigInt(await time.latest())
      for (const since of [0n, now > 180n * DAY ? now - 180n * DAY : 0n, now - 5n * DAY, now + 1n, MAX]) {
        const [all, next] = await pool.getStakeInfos(u.address, 0, MAX, since)
        expect(next).to.equal(MAX)
        const a = all.slice(0, active.size).map((i) => i.stakeId)
        expect(
          [...a].sort((x, y) => (x < y ? -1 : 1)),
          'active region',
        ).to.deep.equal([...active].sort((x, y) => (x < y ? -1 : 1)))
        const visible = closes
          .filter((c) => c.at >= since)
          .map((c) => c.id)
          .reverse()
        expect(
          all.slice(active.size).map((i) => i.stakeId),
          `closes since ${since}`,
        ).to.deep.equal(visible)
        for (const row of all) {
          const info = await pool.getStakeInfo(u.address, row.stakeId)
          expect(row).to.deep.equal(info)
        }
        for (const limit of [1n, 2n, 3n, 5n]) {
          const got: bigint[] = []
          let offset = 0n
          for (let guard = 0; guard < 200 && offset !== MAX; guard++) {
            const [page, nx] = await pool.getStakeInfos(u.address, offset, limit, since)
            got.push(...page.map((i) => i.stakeId))
            expect(page.length <= Number(limit)).to.equal(true)
            if (nx !== MAX) expect(nx).to.equal(offset + BigInt(page.length))
            offset = nx
          }
          expect(got).to.deep.equal(all.map((i) => i.stakeId))
        }
      }
      const lensAll = await sys.lens.getAllUnstakeDataForActiveStakes(await pool.getAddress(), u.address)
      expect(lensAll.map((i) => i.stakeId).sort((x, y) => (x < y ? -1 : 1))).to.deep.equal(
        [...active].sort((x, y) => (x < y ? -1 : 1)),
      )
    }
    for (let step = 0; step < PAGE_STEPS; step++) {
      const x = r()
      if (x < 0.45 || active.size === 0) {
        const n = 1 + Math.floor(r() * 3)
        for (let k = 0; k < n; k++) {
          await (await stake2(pool, u, T(1 + Math.floor(r() * 100)), BigInt(1 + Math.floor(r() * 100)) * DAY)).wait()
          active.add(count++)
        }
      } else if (x < 0.8) {
        const ids = [...active].sort(() => r() - 0.5).slice(0, 1 + Math.floor(r() * 3))
        await (await pool.connect(u).unstake(ids)).wait()
        const at = BigInt(await time.latest())
        for (const id of ids) {
          active.delete(id)
          closes.push({ id, at })
        }
      } else {
        await time.increase(BigInt(Math.floor(r() * 90)) * DAY + 1n)
      }
      if (step % 8 === 7) await check()
    }
    await check()
  })

  it('extreme offset/limit/closedSince never panic and return consistent pages', async () => {
    const sys = await fresh()
    const pool = sys.poolV2
    const u = sys.users[0]
    for (let i = 0; i < 4; i++) await (await stake2(pool, u, T(1), DAY)).wait()
    await (await pool.connect(u).unstake([1, 2])).wait()
    const vals = [0n, 1n, 2n, 3n, 4n, 5n, 2n ** 255n, MAX - 1n, MAX]
    for (const offset of vals)
      for (const limit of vals)
        for (const since of [0n, MAX]) {
          const [rows, next] = await pool.getStakeInfos(u.address, offset, limit, since)
          const total = since === 0n ? 4n : 2n
          const expectedLen = offset >= total ? 0n : limit < total - offset ? limit : total - offset
          expect(BigInt(rows.length), `offset ${offset} limit ${limit} since ${since}`).to.equal(expectedLen)
          if (next !== MAX) expect(next).to.equal(offset + expectedLen)
          await pool.getUserStakes(u.address, offset, limit)
          await sys.lens.getUnstakeDataPage(await pool.getAddress(), u.address, offset, limit)
        }
    await expect(pool.getStakeInfo(u.address, 4)).to.be.revertedWithCustomError(pool, 'StakeNotFound')
    await expect(pool.getStakeInfo(u.address, MAX)).to.be.revertedWithCustomError(pool, 'StakeNotFound')
  })

  /**
   * `next` at every boundary: stakes active, closed recently and closed long ago; closedSince exactly at a close's time
   * (visible: `>=`), one second after it, before all and after all. For every offset and every limit >= 1, a page is
   * exactly the slice of the full visible list, and `next` is offset + limit when a visible row follows, else
   * type(uint256).max; a page at `next` is never empty.
   */
  it('next is type(uint256).max exactly when no visible row follows, at every offset/limit/closedSince boundary', async () => {
    const sys = await fresh()
    const pool = sys.poolV2
    const u = sys.users[0]
    for (let i = 0; i < 7; i++) await (await stake2(pool, u, T(1), DAY)).wait()
    await (await pool.connect(u).unstake([2])).wait()
    const old = BigInt(await time.latest())
    await time.increase(200n * DAY)
    await (await pool.connect(u).unstake([0, 5])).wait()
    const mid = BigInt(await time.latest())
    await time.increase(10n)
    await (await pool.connect(u).unstake([3])).wait()
    const recent = BigInt(await time.latest())
    let limitZero = ''
    for (const since of [0n, old, old + 1n, mid, mid + 1n, recent, recent + 1n, MAX]) {
      const [all, end] = await pool.getStakeInfos(u.address, 0, MAX, since)
      expect(end).to.equal(MAX)
      const ids = all.map((i) => i.stakeId)
      for (let offset = 0n; offset <= 9n; offset++) {
        for (let limit = 1n; limit <= 9n; limit++) {
          const [rows, next] = await pool.getStakeInfos(u.address, offset, limit, since)
          const want = ids.slice(Number(offset), Number(offset + limit))
          const tag = `since ${since} offset ${offset} limit ${limit}`
          expect(
            rows.map((i) => i.stakeId),
            tag,
          ).to.deep.equal(want)
          const follows = offset + limit < BigInt(ids.length)
          expect(next, `${tag}: next`).to.equal(follows ? offset + limit : MAX)
        }
      }
      const [zero, nz] = await pool.getStakeInfos(u.address, 0, 0, since)
      limitZero = `limit 0: ${zero.length} rows, next ${nz === MAX ? 'max' : nz}`
    }
    log(`      ${limitZero} (a page of size 0 cannot advance; clients must ask for at least one row)`)
  })

  it('Lens.getUnstakeDataPage: next is type(uint256).max when no visible row is left', async () => {
    const sys = await fresh()
    const pool = sys.poolV2
    const u = sys.users[0]
    await (await stake2(pool, u, T(1), DAY)).wait()
    await (await pool.connect(u).unstake([0])).wait()
    await time.increase(200n * DAY)
    await (await stake2(pool, u, T(1), DAY)).wait()
    await (await stake2(pool, u, T(1), DAY)).wait()
    const lens = sys.lens
    const [rows, next] = await lens.getUnstakeDataPage(await pool.getAddress(), u.address, 0, 2)
    const [rows2, next2] = await lens.getUnstakeDataPage(await pool.getAddress(), u.address, next === MAX ? 0 : next, 2)
    log(
      `      page 1: ${rows.length} rows, next ${next === MAX ? 'max' : next}; page 2: ${rows2.length} rows, next ${next2 === MAX ? 'max' : next2}`,
    )
    expect(next, 'next points at an empty page').to.equal(MAX)
  })
})

describe('Adversary: nobody can block or cut an existing stake', () => {
  for (const version of [1, 2] as const) {
    it(`v${version}: after a hostile owner and reservoir, every stake closes and pays the terms it was made with`, async () => {
      const sys = await fresh()
      const pool = version === 1 ? sys.poolV1 : sys.poolV2
      const [a, b, c] = sys.users
      await stakeExactly(sys, pool, a, T(1000), 1095n * DAY)
      await stakeExactly(sys, pool, b, T(2000), 30n * DAY, a.address)
      await stakeExactly(sys, pool, c, 12345n, DAY)
      // The whale's full terms exceed the reservoir: the strict form refuses, the capped form takes what it can fund.
      await expect(stake2(pool, a, MAX_STAKE_AMOUNT, 90n * DAY)).to.be.revertedWithCustomError(pool, 'RewardsUnavailable')
      const whale = await stakeExactly(sys, pool, a, MAX_STAKE_AMOUNT, 90n * DAY, undefined, [0n, 0n])
      expect(whale.id).to.equal(1n)
      // A claim staked through the harvest contract.
      const tokenAddr = await sys.token.getAddress()
      const args = await claimArgs(sys, c.address, T(500))
      // The whale took what was left in the reservoir: a claim's full terms cannot be funded, so stakeFor refuses.
      const harvest = () => sys.harvest.connect(c).harvestStake(...args, pool.getAddress(), 90n * DAY)
      await expect(harvest()).to.be.revertedWithCustomError(pool, 'RewardsUnavailable')
      // New funds, and the allowance they back (what the whale drew does not come back by itself).
      await approveUnlimited(sys.reservoir, sys.token, await pool.getAddress(), T(1000))
      await (await harvest()).wait()
      const terms = new Map<string, Awaited<ReturnType<typeof stakeMath>>>()
      for (const [u, n] of [
        [a, 2],
        [b, 1],
        [c, 2],
      ] as const)
        for (let i = 0; i < n; i++) terms.set(`${u.address}/${i}`, await stakeMath(pool, u.address, i))

      // Hostile owner: drain and cut the reservoir, pause, worst parameters, no terms, no harvest, delist.
      await sys.reservoir.withdraw(tokenAddr, sys.owner.address, await sys.token.balanceOf(await sys.reservoir.getAddress()))
      await sys.reservoir.approvePool(tokenAddr, await pool.getAddress(), 0)
      await pool.setStakingPaused(true)
      await pool.setParameters({
        inflationPercent: version === 1 ? T(1000) : 0n,
        refererBonusPercent: version === 1 ? T(500) : 0n,
        timeBonusPercent: T(500),
        unHoldFee: T(100),
        holdTimeRefMin: DAY,
        holdTimeMax: DAY,
      })
      await pool.setHarvestTerms([])
      await pool.setHarvest(ZERO)
      await sys.poolsInfo.setListed(version === 1 ? 1 : 0, false)
      await sys.token.connect(b).transfer(await pool.getAddress(), T(3))
      await pool.connect(c).sweep()
      await expectFullySolvent(sys, pool, [a.address, b.address, c.address])

      for (const [u, n] of [
        [a, 2],
        [b, 1],
        [c, 2],
      ] as const)
        for (let i = 0; i < n; i++) expect(await stakeMath(pool, u.address, i)).to.deep.equal(terms.get(`${u.address}/${i}`))
      await time.increase(20n * DAY)
      await unstakeExactly(sys, pool, a, [1n])
      await unstakeExactly(sys, pool, c, [1n, 0n])
      await time.increase(100n * DAY)
      await unstakeExactly(sys, pool, b, [0n])
      await unstakeExactly(sys, pool, a, [0n])
      expect((await pool.getPoolState()).obligations).to.equal(0n)
      await (await pool.sweep()).wait()
      expect(await balanceOf(sys, pool)).to.equal(0n)
    })
  }
})

describe('Adversary: random hostile sequences (solvency, closability, exact figures)', () => {
  for (const [version, seed] of [
    [1, 11],
    [2, 12],
    [1, 13],
    [1, 14],
    [2, 15],
  ] as const) {
    it(`v${version} seed ${seed}: ${OPS} random stakes (strict and capped), closes, claims, drains, refills, parameter changes, pauses, donations`, async function () {
      this.timeout(600_000)
      const sys = await fresh()
      const pool = version === 1 ? sys.poolV1 : sys.poolV2
      const poolAddr = await pool.getAddress()
      const tokenAddr = await sys.token.getAddress()
      const resAddr = await sys.reservoir.getAddress()
      const r = seededRandom(seed)
      const pick = <X>(xs: readonly X[]) => xs[Math.floor(r() * xs.length)]
      const big = (maxExp: number) => BigInt(Math.floor(10 ** (r() * maxExp)))
      const users = sys.users
      const holders = users.map((u) => u.address)
      let lastRate = await pool.getRate()
      // balance - obligations (as the views show them) only grows, except through sweep(): a leak would shrink it.
      let surplus = 0n
      let lastShares = 0n
      const stats = {
        stakes: 0,
        capped: 0,
        refused: 0,
        unavailable: 0,
        closes: 0,
        claims: 0,
        short: 0,
        dayRates: 0,
        pastRelease: 0,
      }
      const active = new Map<string, Set<bigint>>(holders.map((h) => [h, new Set<bigint>()]))
      // Version 1: a stake stops sharing fees at 00:00 UTC of its release day, its gains counted to the rate then.
      // `dayRates`: that rate for each release day a time jump passed, read just before the jump from a view pinned at
      // the day's start; `frozen`: the gains of each stake first seen past its release day's start, which never change.
      const dayRates = new Map<bigint, bigint>()
      const frozen = new Map<string, bigint>()
      const releaseDay = async (h: string, id: bigint) => {
        const s = await pool.getStake(h, id)
        return expiryDay(s.stakeTime, s.holdTime)
      }
      /** The rate stake `id` of `h` counts its gains to at `t` (the pending block): now while it is at risk, else its
       *  release day's start (undefined when that day began outside a time jump, so it was not read). */
      const rateAt = async (h: string, id: bigint, t: bigint) => {
        const day = await releaseDay(h, id)
        return version === 2 || day > t / DAY ? await pool.getRate(PENDING) : dayRates.get(day)
      }

      const randomParams = (): Params => {
        const holdTimeMax = pick([
          DAY,
          2n * DAY + 3600n,
          30n * DAY,
          365n * DAY,
          1095n * DAY,
          BigInt(1 + Math.floor(r() * 1095)) * DAY,
        ])
        return {
          inflationPercent: version === 1 ? pick([0n, T(400), T(1000), big(24)]) % (T(1000) + 1n) : 0n,
          refererBonusPercent: version === 1 ? pick([0n, T(5), T(500), big(22)]) % (T(500) + 1n) : 0n,
          timeBonusPercent: pick([0n, T(30), T(500), big(22)]) % (T(500) + 1n),
          unHoldFee: pick([0n, 1n, T(100), big(20), 99n]) % (T(100) + 1n),
          holdTimeRefMin: pick([0n, DAY, holdTimeMax, (holdTimeMax * BigInt(Math.floor(r() * 100))) / 100n]),
          holdTimeMax,
        }
      }

      for (let step = 0; step < OPS; step++) {
        const x = r()
        const u = pick(users)
        if ((await pool.stakingPaused()) && r() < 0.25) await (await pool.setStakingPaused(false)).wait()
        const st = await pool.getPoolState()
        let swept = false
        if (x < 0.4) {
          const amount = pick([1n, 2n, 3n, big(3), big(24), big(26), T(1000), MAX_STAKE_AMOUNT, MAX_STAKE_AMOUNT + 1n])
          const others = holders.filter((o) => o !== u.address && active.get(o)!.size > 0)
          const referer = others.length > 0 && r() < 0.4 ? pick(others) : undefined
          const min = referer && st.holdTimeRefMin > DAY ? st.holdTimeRefMin : DAY
          const lo = (min + DAY - 1n) / DAY
          const hi = st.holdTimeMax / DAY
          if (lo > hi) continue
          const days = pick([lo, hi, lo + BigInt(Math.floor(r() * Number(hi - lo + 1n)))])
          const hold = days * DAY + (r() < 0.3 ? BigInt(Math.floor(r() * 86399)) : 0n)
          const at = await pinNextTimestamp()
          const state = await mathState(pool, PENDING)
          const preview = previewStake(state, amount, hold, referer !== undefined)
          // Strict (full terms), or the minimum-terms form with minimums 0, the preview's figures, or just above them
          // (a floor even above what the pool offers: always refused).
          const mode = r()
          const minimums: [bigint, bigint] | undefined =
            mode < 0.5
              ? undefined
              : mode < 0.75
                ? [0n, 0n]
                : mode < 0.9
                  ? [preview.bonus, preview.reward]
                  : [preview.bonus + (r() < 0.5 ? 1n : 0n), preview.reward + 1n]
          // The floor: the stated minimums, or the full terms.
          const [minBonus, minReward] = minimums ?? [preview.bonusWanted, preview.rewardWanted]
          const acc = await pool.getAllUserStakesAmount(u.address)
          const shares = await pool.balanceOf(u.address)
          const send = () =>
            minimums ? stake5(pool, u, amount, hold, referer ?? ZERO, ...minimums) : stake2(pool, u, amount, hold, referer)
          // The contract's order: paused, too large, terms, shares (the model), then account limits.
          const early = modelRefusal(state, st.stakingPaused, u.address, amount, hold, referer !== undefined, minimums)
          const refusal =
            (early === 'StakingIsPaused' || early === 'ZeroAmount' || early === 'StakeTooLarge' ? early : null) ??
            (referer ? await referralRefusal(pool, referer, amount, hold, at) : null) ??
            early ??
            (acc + amount > MAX_ACCOUNT_TOTAL || shares + preview.shares > MAX_ACCOUNT_TOTAL ? 'AccountLimit' : null)
          if (refusal === 'RewardsUnavailable') {
            await expect(send()).to.be.revertedWithCustomError(pool, refusal).withArgs(preview.bonus, preview.reward)
            stats.unavailable++
          } else if (refusal) {
            await expect(send()).to.be.revertedWithCustomError(pool, refusal)
            stats.refused++
          } else {
            const { id, expected } = await stakeExactly(sys, pool, u, amount, hold, referer, minimums)
            expect(id, 'stake accepted').to.not.equal(-1n)
            // Never below what the staker stated it would accept, nor below the full terms when it stated nothing.
            expect(expected.bonus, 'bonus below the floor').to.be.greaterThanOrEqual(minBonus)
            expect(expected.reward, 'reward below the floor').to.be.greaterThanOrEqual(minReward)
            if (!minimums) expect([expected.bonus, expected.reward]).to.deep.equal([expected.bonusWanted, expected.rewardWanted])
            active.get(u.address)!.add(id)
            if (expected.bonus + expected.reward < expected.bonusWanted + expected.rewardWanted) stats.short++
            if (minimums) stats.capped++
            stats.stakes++
          }
        } else if (x < 0.65) {
          const ids = [...active.get(u.address)!].sort(() => r() - 0.5).slice(0, 1 + Math.floor(r() * 3))
          if (ids.length === 0) continue
          if (ids.length === 1) {
            const t = await pinNextTimestamp()
            const view = await pool.getStakeInfo(u.address, ids[0], PENDING)
            const m = await stakeMath(pool, u.address, ids[0])
            const rate = await rateAt(u.address, ids[0], t)
            if (rate !== undefined) {
              const want = unstakePreview(m, rate, t)
              expect([view.amountOut, view.fee, view.forfeited, view.stake.gains]).to.deep.equal([
                want.amountOut,
                want.fee,
                want.forfeited,
                want.gains,
              ])
            } else {
              // Its release day's rate was not read: every figure but the gains, and the gains it had when first seen
              // past that day's start (when seen).
              const want = unstakePreview(m, m.entryRate, t)
              expect([view.amountOut - view.stake.gains, view.fee, view.forfeited]).to.deep.equal([
                want.amountOut,
                want.fee,
                want.forfeited,
              ])
              const seen = frozen.get(`${u.address}/${ids[0]}`)
              if (seen !== undefined) expect(view.stake.gains, 'gains after the release day began').to.equal(seen)
            }
          }
          await unstakeExactly(sys, pool, u, ids)
          for (const id of ids) active.get(u.address)!.delete(id)
          stats.closes += ids.length
        } else if (x < 0.8) {
          const jump = pick([1n, 59n, 3600n, DAY - 1n, DAY, 7n * DAY, 29n * DAY, 45n * DAY, 200n * DAY, 400n * DAY])
          const from = BigInt(await time.latest())
          if (version === 1) {
            const days = new Set<bigint>()
            for (const h of holders) for (const id of active.get(h)!) days.add(await releaseDay(h, id))
            for (const d of [...days].sort((a, b) => (a < b ? -1 : 1))) {
              if (d * DAY <= from || d * DAY > from + jump || dayRates.has(d)) continue
              // The view at the day's start, from the books as the jump leaves them: the rate the walk notes there.
              await network.provider.send('evm_setNextBlockTimestamp', [Number(d * DAY)])
              dayRates.set(d, await pool.getRate(PENDING))
              stats.dayRates++
            }
          }
          await time.increaseTo(from + jump)
        } else if (x < 0.85) {
          await (await pool.setParameters(randomParams())).wait()
        } else if (x < 0.9) {
          const bal = await sys.token.balanceOf(resAddr)
          const y = r()
          if (y < 0.3)
            await (
              await sys.reservoir.withdraw(tokenAddr, sys.owner.address, (bal * BigInt(Math.floor(r() * 101))) / 100n)
            ).wait()
          else if (y < 0.6)
            await (
              await sys.reservoir.approvePool(
                tokenAddr,
                poolAddr,
                await backedAmount(sys.reservoir, tokenAddr, poolAddr, pick([0n, 1n, big(20), big(25), MAX])),
              )
            ).wait()
          else await (await sys.token.mint(resAddr, pick([1n, big(22), big(27)]))).wait()
        } else if (x < 0.93) {
          await (await sys.token.connect(u).transfer(poolAddr, pick([1n, big(20)]))).wait()
          if (r() < 0.7) {
            await (await pool.connect(pick(users)).sweep()).wait()
            swept = true
          }
        } else if (x < 0.96) {
          await (await pool.setStakingPaused(!st.stakingPaused)).wait()
        } else {
          const term = pick(await pool.getAllHarvestBonusTimeData())
          if (!term) continue
          const { claim, args } = await signedClaim(
            { harvest: sys.harvest, rewardToken: tokenAddr, signer: sys.signer },
            u.address,
            pick([1n, big(21)]) + 1n,
          )
          const tx = () => sys.harvest.connect(u).harvestStake(...args, poolAddr, term.hold)
          const t = await pinNextTimestamp()
          const state = await mathState(pool, PENDING)
          const preview = previewStake(state, claim.amount, term.hold, false, term.bonus)
          // stakeFor asks for the full terms.
          const refusal = modelRefusal(state, st.stakingPaused, u.address, claim.amount, term.hold, false, undefined, term.bonus)
          if (refusal === 'RewardsUnavailable') {
            await expect(tx()).to.be.revertedWithCustomError(pool, 'RewardsUnavailable').withArgs(preview.bonus, preview.reward)
            stats.unavailable++
          } else if (refusal) {
            await expect(tx()).to.be.revertedWithCustomError(pool, refusal)
          } else {
            const id = await pool.getUserStakesCount(u.address)
            await checkStaked(sys, pool, tx(), u.address, sys.harvest, claim.amount, preview, id, t)
            active.get(u.address)!.add(id)
            stats.claims++
          }
        }
        const rate = await pool.getRate()
        expect(rate >= lastRate, 'rate never falls').to.equal(true)
        if (version === 2) expect(rate).to.equal(ONE)
        lastRate = rate
        const ps = await pool.getPoolState()
        const [pending, end] = await pool.getFeeStream()
        // The stream empties with the last active stake (matured stakes left open keep it; what it releases while no
        // stake is at risk reaches nobody and is left for sweep()).
        if (version === 2 || ps.totalStaked === 0n)
          expect([pending, end], 'nothing streams without active stakes / in v2').to.deep.equal([0n, 0n])
        if (pending > 0n) expect(end).to.be.greaterThan(BigInt(await time.latest()))
        const bal = await balanceOf(sys, pool)
        expect(bal, 'balance >= obligations').to.be.greaterThanOrEqual(ps.obligations)
        const now = bal - ps.obligations
        // Rounding of the holders' part (rounded up, a step of the rate is worth up to shares/1e18 wei) aside.
        const slack = (ps.totalShares > lastShares ? ps.totalShares : lastShares) / ONE + 2n
        if (!swept)
          expect(now + slack, `step ${step}: balance - obligations fell from ${surplus} to ${now}`).to.be.greaterThanOrEqual(
            surplus,
          )
        surplus = now
        lastShares = ps.totalShares
        if (step % 10 === 9) await expectFullySolvent(sys, pool, holders)
        if (version === 1 && step % 10 === 9) {
          // A stake past its release day's start counts its gains to the rate then: they never grow after.
          const today = BigInt(await time.latest()) / DAY
          for (const h of holders)
            for (const id of active.get(h)!) {
              const s = await pool.getStake(h, id)
              const day = expiryDay(s.stakeTime, s.holdTime)
              if (day > today) continue
              const key = `${h}/${id}`
              const dayRate = dayRates.get(day)
              if (dayRate !== undefined)
                expect(s.gains, `step ${step}: ${key} counts to its release day's rate`).to.equal(
                  (s.lpAmount * (dayRate - s.entryRate)) / ONE,
                )
              stats.pastRelease++
              if (!frozen.has(key)) frozen.set(key, s.gains)
              expect(s.gains, `step ${step}: ${key}'s gains grew after its release day began`).to.equal(frozen.get(key))
            }
        }
        let stakers = 0n
        for (const h of holders) if (active.get(h)!.size > 0) stakers++
        expect(ps.stakersCount).to.equal(stakers)
      }
      // Everyone leaves: every active stake closes, and nothing is owed or left behind.
      for (const u of users) {
        const ids = [...active.get(u.address)!]
        if (ids.length) await unstakeExactly(sys, pool, u, ids)
        expect(await pool.getUserActiveStakesCount(u.address)).to.equal(0n)
      }
      expect((await pool.getPoolState()).obligations).to.equal(0n)
      expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
      await (await pool.sweep()).wait()
      expect(await balanceOf(sys, pool)).to.equal(0n)
      log(`      ${JSON.stringify(stats)}`)
    })
  }
})

describe('Adversary: arithmetic edges (MAX_RATE, packed fields, account limits, epoch and times)', () => {
  /**
   * A dust holder (1 wei, one share) stays in a version-1 pool while an attacker stakes 2^96-1 and closes it at once,
   * 40 times a transaction: each fee streams to the one real share (and the virtual shares), so each 30 days the rate
   * rises by about the fees, up to MAX_RATE = 2^104-1. A release that would pass the cap reaches no holder: it stays
   * in the pool, owed to nobody, and sweep() sends it to the reservoir. Every stake must still close.
   */
  it('v1: streamed fees drive the rate to MAX_RATE; a release past it goes back through sweep(); every close works', async function () {
    this.timeout(600_000)
    const sys = await fresh()
    const params: Params = {
      inflationPercent: 0n,
      refererBonusPercent: 0n,
      timeBonusPercent: 0n,
      unHoldFee: T(100),
      holdTimeRefMin: 0n,
      holdTimeMax: 1095n * DAY,
    }
    const pool = (await newPool(sys, 1, params)) as ImplAndTermsV1
    const [dust, honest] = sys.users
    await (await stake2(pool, dust, 1n, 1095n * DAY)).wait()
    const inflater = await new AdvRateInflater__factory(sys.owner).deploy()
    await sys.token.mint(await inflater.getAddress(), 2n ** 106n)
    const p = await pool.getAddress()
    const t = await sys.token.getAddress()
    const M = MAX_STAKE_AMOUNT
    const pump = async (cycles: bigint) => {
      await (await inflater.pump(p, t, M, 1095n * DAY, cycles, { gasLimit: 16_000_000 })).wait()
      expect(await pool.getRate(), 'nothing released in the pumping transaction').to.equal(await pool.getRate())
      await time.increase(FEE_STREAM)
    }
    let rounds = 0
    while ((await pool.getRate()) + 40n * M < MAX_RATE) {
      await pump(40n)
      rounds++
    }
    const fill = (MAX_RATE - (await pool.getRate())) / M - 1n
    if (fill > 0n) await pump(fill)
    const rate = await pool.getRate()
    log(`      rate after ${rounds} rounds of 40 and ${fill} more: ${rate} (MAX_RATE ${MAX_RATE}, headroom ${MAX_RATE - rate})`)
    expect(rate <= MAX_RATE).to.equal(true)
    expect(MAX_RATE - rate).to.be.lessThan(2n * M)
    await expectFullySolvent(sys, pool, [dust.address, honest.address, await inflater.getAddress()])
    // Two more whale fees: released together they would pass the cap, so no holder gets them.
    await pump(2n)
    expect(await pool.getRate(), 'the rate stays under the cap').to.equal(rate)
    expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
    // A stake releases them (to nobody); sweep() then returns everything no stake owns.
    const tx = stake2(pool, honest, T(5), DAY)
    await expect(tx)
      .to.emit(pool, 'FeesReleased')
      .withArgs(2n * M, 0n, rate)
    const unowned = (await balanceOf(sys, pool)) - (await pool.getPoolState()).obligations
    expect(unowned).to.be.greaterThanOrEqual(2n * M)
    await expect(pool.sweep()).to.changeTokenBalances(sys.token, [pool, sys.reservoir], [-unowned, unowned])
    // New stakes at the capped rate work and close (a stake's shares are its principal, whatever the rate).
    await time.increase(DAY)
    await unstakeExactly(sys, pool, honest, [0n])
    const e = await unstakeExactly(sys, pool, dust, [0n])
    log(`      dust stake (1 wei) paid ${e.toUser} base units of shared fees`)
    expect(e.closes[0].gains).to.equal((rate - ONE) / ONE)
    expect((await pool.getPoolState()).obligations).to.equal(0n)
    await (await pool.sweep()).wait()
    expect(await balanceOf(sys, pool)).to.equal(0n)
  })

  /**
   * Every packed field at its bound at once: 2^96-1 principal, bonus 5x (500% length), reward 30x (1000% a year for
   * 1095 days), fee 100%, max hold, until the account's 2^104-1 share cap (shares = principal: 256 stakes); and a
   * referral at nearly 10x (500% length + 500% referral, each x 1,094 / 1,095 days: the referral bonus grows with the
   * hold too), of about what a 2^96-1 referer stake of 1,095 days can back (twice it cannot). Figures must be exact,
   * overflow must be refused at stake time (never at close), and every stake must close.
   */
  it('v1: every packed field at its bound stakes exactly, refuses the overflow, and closes', async function () {
    this.timeout(300_000)
    const sys = await fresh()
    const params: Params = {
      inflationPercent: T(1000),
      refererBonusPercent: T(500),
      timeBonusPercent: T(500),
      unHoldFee: T(100),
      holdTimeRefMin: DAY,
      holdTimeMax: 1095n * DAY,
    }
    const pool = await newPool(sys, 1, params, [{ hold: 1095n * DAY, bonus: T(500) }])
    await sys.token.mint(await sys.reservoir.getAddress(), 2n ** 112n)
    const [whale, ref, other] = sys.users
    await sys.token.mint(whale.address, 2n ** 105n)
    await approveUnlimited(sys.reservoir, sys.token, await pool.getAddress(), 2n ** 115n)
    await stakeExactly(sys, pool, ref, MAX_STAKE_AMOUNT, 1095n * DAY)
    let n = 0
    for (;;) {
      const shares = await pool.balanceOf(whale.address)
      if (shares + MAX_STAKE_AMOUNT > 2n ** 104n - 1n) break
      const { expected } = await stakeExactly(sys, pool, whale, MAX_STAKE_AMOUNT, 1095n * DAY)
      expect(expected.bonus).to.equal(5n * MAX_STAKE_AMOUNT)
      expect(expected.reward).to.equal(30n * MAX_STAKE_AMOUNT)
      n++
    }
    await expect(stake2(pool, whale, MAX_STAKE_AMOUNT, 1095n * DAY)).to.be.revertedWithCustomError(pool, 'AccountLimit')
    const referred = MAX_STAKE_AMOUNT / 6000n
    // Twice that is past what the referer's stake keeps at stake for the referred period.
    await expect(stake2(pool, other, 2n * referred, 1094n * DAY, ref.address)).to.be.revertedWithCustomError(
      pool,
      'ReferralNotBacked',
    )
    const { expected: r } = await stakeExactly(sys, pool, other, referred, 1094n * DAY, ref.address)
    // Each bonus grows with the hold and is rounded down on its own before the two are added.
    expect(r.bonusFraction).to.equal(((T(500) * 1094n) / 1095n + (T(500) * 1094n) / 1095n) / 100n)
    expect(r.referralBonusPercent).to.equal((T(500) * 1094n) / 1095n)
    log(`      ${n} whale stakes of 2^96-1 with 5x bonus and 30x reward; obligations ${(await pool.getPoolState()).obligations}`)
    await expectFullySolvent(sys, pool, [whale.address, ref.address, other.address])
    await time.increase(1n)
    await unstakeExactly(sys, pool, whale, [0n, 1n, 2n])
    await time.increase(1095n * DAY)
    await unstakeExactly(
      sys,
      pool,
      whale,
      Array.from({ length: n - 3 }, (_, i) => BigInt(i + 3)),
    )
    await unstakeExactly(sys, pool, other, [0n])
    await unstakeExactly(sys, pool, ref, [0n])
    expect((await pool.getPoolState()).obligations).to.equal(0n)
  })

  /**
   * A pool's first block: the pool is created, approved, staked in and closed in the same block (pool time 1, the
   * earliest there is). Absolute times in the views must be that block's timestamp, the closed stake must stay closed
   * (closeTime is never 0), and closedSince must compare against absolute times at the exact second.
   */
  it('stake and close in the creation block: absolute times, closed stays closed, closedSince at the exact second', async () => {
    const sys = await fresh()
    const [u, h] = sys.users
    const tokenAddr = await sys.token.getAddress()
    const config = await poolConfig(sys, await sys.implV1.getAddress(), poolParams(V1_PARAMS))
    const [addr] = await sys.factory.createPool.staticCall(config)
    const pool = ImplAndTermsV1__factory.connect(addr, sys.owner)
    await sys.token.mint(await sys.reservoir.getAddress(), T(1_000_000))
    const receipts = await oneBlock([
      (ov) => sys.factory.createPool(config, ov),
      (ov) => sys.reservoir.approvePool(tokenAddr, addr, T(1_000_000), ov),
      (ov) => sys.token.connect(u).approve(addr, MAX, ov),
      (ov) => sys.token.connect(h).approve(addr, MAX, ov),
      (ov) => stake2(pool, h, T(2000), 365n * DAY, undefined, ov),
      (ov) => stake2(pool, u, T(1000), 365n * DAY, undefined, ov),
      (ov) => stake2(pool, u, T(500), 30n * DAY, undefined, ov),
      (ov) => pool.connect(u).unstake([0], ov),
    ])
    const tb = await blockTime(receipts[0])
    const closed = await pool.getStakeInfo(u.address, 0)
    expect([closed.stake.stakeTime, closed.stake.closeTime, closed.stake.active]).to.deep.equal([tb, tb, false])
    // Closed at elapsed 0: the whole principal was the fee (100%), all of it streaming to the other holders.
    expect(closed.fee).to.equal(T(1000))
    expect(await pool.getFeeStream()).to.deep.equal([T(1000), tb + FEE_STREAM])
    expect((await pool.getStake(u.address, 1)).stakeTime).to.equal(tb)
    await expect(pool.connect(u).unstake([0])).to.be.revertedWithCustomError(pool, 'StakeNotActive')
    await expect(pool.connect(u).unstake([1, 1]))
      .to.be.revertedWithCustomError(pool, 'StakeNotActive')
      .withArgs(1n)
    const ids = async (since: bigint) => (await pool.getStakeInfos(u.address, 0, MAX, since))[0].map((i) => i.stakeId)
    expect(await ids(tb)).to.deep.equal([1n, 0n])
    expect(await ids(tb + 1n)).to.deep.equal([1n])
    // The second stake matures after 30 days and gets its part of the stream, exactly.
    await time.increaseTo(tb + 30n * DAY)
    const e = await unstakeExactly(sys, pool, u, [1n])
    expect(e.closes[0].matured).to.equal(true)
    expect(e.closes[0].gains).to.be.greaterThan(0n)
  })

  /**
   * stakeTime and closeTime are uint32 seconds since the pool's epoch. A stake closed at the unix time 2^32 (7 Feb
   * 2106) must stay closed and readable (round 1: closeTime wrapped to 0 = active).
   */
  it('uint32 times: a stake closed at timestamp 2^32 stays closed and readable', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [a, b] = sys.users
    await (await stake2(pool, b, T(1000), 1095n * DAY)).wait()
    await (await stake2(pool, a, T(1000), 1095n * DAY)).wait()
    await (await stake2(pool, a, T(1000), 1095n * DAY)).wait()
    await network.provider.send('evm_setNextBlockTimestamp', [2 ** 32])
    await (await pool.connect(a).unstake([0])).wait()
    const info = await pool.getStakeInfo(a.address, 0)
    await pool.getAllUserStakes(a.address)
    expect([info.stake.active, info.stake.closeTime]).to.deep.equal([false, 2n ** 32n])
    await expect(pool.connect(a).unstake([0])).to.be.revertedWithCustomError(pool, 'StakeNotActive')
  })

  /** After 2^32 a stake's time must not wrap to a small number and read as matured at once. */
  it('uint32 times: after 2106 a stake-then-close in one transaction does not collect bonus and reward (pool made before)', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    await time.increaseTo(2n ** 32n + 100n)
    const gain = await sameTxGain(sys, pool)
    log(`      after 2106: stake-then-close of 1000 tokens (1095 days) in one tx gains ${fmt(gain)}`)
    expect(gain, `instant maturity gain ${fmt(gain)}`).to.be.lessThanOrEqual(0n)
  })

  /**
   * The epoch: round 2 found it kept as a uint32 (`_epoch = uint32(block.timestamp - 1)`), so a pool CREATED after 7 Feb
   * 2106 had a truncated epoch, every stakeTime wrapped to a small number, and a stake read as matured the moment it was
   * made (stake-then-close in one transaction collected the bonus and the whole reward, the views showed 1970). It is a
   * uint40 now. Property: for a pool made at any time, stake-then-close gains nothing, the views show the stake's real
   * timestamp and the model's close figures, and the stake matures exactly `hold` after it was made.
   */
  it('epoch: a pool created after 2^32 keeps stake times and refuses instant maturity', async () => {
    const sys = await fresh()
    await time.increaseTo(2n ** 32n + 1000n)
    const pool = await newPool(sys, 1, poolParams(V1_PARAMS))
    const u = sys.users[0]
    const gain = await sameTxGain(sys, pool)
    const hold = 1095n * DAY
    const { expected, time: ts } = await stakeExactly(sys, pool, u, T(1000), hold)
    const s = await pool.getStake(u.address, 0)
    const info = await pool.getStakeInfo(u.address, 0)
    log(
      `      pool made at 2^32+1000: stake-then-close of 1000 tokens (1095 days) in one tx gains ${fmt(gain)}; ` +
        `stake at ${ts} shows stakeTime ${s.stakeTime}, closes now for ${fmt(info.amountOut - info.fee)} (fee ${fmt(info.fee)})`,
    )
    expect(gain, `a stake-then-close gained ${fmt(gain)}`).to.be.lessThanOrEqual(0n)
    expect(s.stakeTime, 'stakeTime in the views').to.equal(ts)
    const now = unstakePreview(await stakeMath(pool, u.address, 0), await pool.getRate(), ts)
    expect([info.amountOut, info.fee, info.forfeited], 'close figures at the stake time').to.deep.equal([
      now.amountOut,
      now.fee,
      now.forfeited,
    ])
    expect(info.fee, 'a fee right after staking').to.be.greaterThan(0n)
    // One second before maturity a fee is still due; at ts + hold the stake closes with its full terms.
    await time.increaseTo(ts + hold - 1n)
    expect((await pool.getStakeInfo(u.address, 0)).fee, 'fee one second before maturity').to.be.greaterThan(0n)
    const e = await unstakeExactly(sys, pool, u, [0n])
    expect(e.time).to.equal(ts + hold)
    expect([e.closes[0].fee, e.closes[0].forfeited]).to.deep.equal([0n, 0n])
    expect(e.toUser).to.equal(T(1000) + expected.bonus + expected.reward + e.closes[0].gains)
  })

  /**
   * The documented lifetime: pool times last 2^32 seconds (136 years) from the pool's creation. Within it (a day before
   * its end) a stake-then-close gains nothing and a matured stake closes normally. What happens after it is logged.
   */
  it('pool time within its 136-year lifetime: no instant maturity near the end (beyond it: logged)', async function () {
    this.timeout(120_000)
    const sys = await fresh()
    const pool = await newPool(sys, 1, poolParams(V1_PARAMS))
    // The epoch is one second before the creation block, a few blocks before now.
    const start = BigInt(await time.latest())
    const cycler = await new AdvSameTxCycler__factory(sys.owner).deploy()
    await sys.token.mint(await cycler.getAddress(), T(3000))
    const p = await pool.getAddress()
    const t = await sys.token.getAddress()
    await time.increaseTo(start + 2n ** 32n - 2n * DAY)
    await (await stake2(pool, sys.users[0], T(1000), DAY)).wait()
    const within = await cycler.run.staticCall(p, t, [T(1000)], [1095n * DAY], ZERO, false)
    expect(within, `near the end of the lifetime a stake-then-close gained ${fmt(within)}`).to.be.lessThanOrEqual(0n)
    await time.increase(DAY)
    await unstakeExactly(sys, pool, sys.users[0], [0n])
    await time.increaseTo(start + 2n ** 32n + DAY)
    // Out of spec, logged only: a stake made there wraps its uint32 stakeTime.
    const beyond = await cycler.run
      .staticCall(p, t, [T(1000)], [1095n * DAY], ZERO, false)
      .then((g) => `gains ${fmt(g)}`)
      .catch((e: Error) => `reverts (${e.message.replace(/^.*reverted with /s, '')})`)
    log(`      beyond pool time 2^32 (136 years after creation, out of spec): stake-then-close ${beyond}`)
  })
})

describe('Adversary: harvestStake only into factory-made, listed pools', () => {
  async function claimer(sys: Sys, user: HardhatEthersSigner) {
    return (amount: bigint) => claimArgs(sys, user.address, amount)
  }

  it('refuses a delisted pool, a pool of another (whitelisted) factory, a registry-only pool and a plain contract', async () => {
    const sys = await fresh()
    const u = sys.users[0]
    const args = await claimer(sys, u)
    const v1 = await sys.poolV1.getAddress()
    // Delisted.
    await sys.poolsInfo.setListed(1, false)
    await expect(sys.harvest.connect(u).harvestStake(...(await args(T(1))), v1, 30n * DAY))
      .to.be.revertedWithCustomError(sys.harvest, 'UnknownPool')
      .withArgs(v1)
    await sys.poolsInfo.setListed(1, true)
    // Another factory, whitelisted in the same registry, with a pool whose harvest is this harvest contract.
    const f2 = await new StakingPoolFactory__factory(sys.owner).deploy(await sys.poolsInfo.getAddress(), sys.owner.address)
    await sys.poolsInfo.setWhitelisted(await f2.getAddress(), true)
    const config = {
      implementation: await sys.implV1.getAddress(),
      name: 'x',
      symbol: 'x',
      stakeToken: await sys.token.getAddress(),
      reservoir: await sys.reservoir.getAddress(),
      harvest: await sys.harvest.getAddress(),
      params: poolParams(V1_PARAMS),
      terms: DEFAULT_TERMS,
    }
    const [foreign] = await f2.createPool.staticCall(config)
    await f2.createPool(config)
    expect(await sys.poolsInfo.isListed(foreign)).to.equal(true)
    await expect(sys.harvest.connect(u).harvestStake(...(await args(T(1))), foreign, 30n * DAY)).to.be.revertedWithCustomError(
      sys.harvest,
      'UnknownPool',
    )
    // A whitelisted registry caller that lies about what it made lists a contract of its own.
    const jam = await jamFactory(sys.owner, sys.poolsInfo)
    const fake = await new AdvSameTxCycler__factory(sys.owner).deploy()
    await jam.register(await fake.getAddress(), await sys.token.getAddress())
    await expect(
      sys.harvest.connect(u).harvestStake(...(await args(T(1))), await fake.getAddress(), 30n * DAY),
    ).to.be.revertedWithCustomError(sys.harvest, 'UnknownPool')
    // A factory pool that is not registered at all cannot exist (createPool registers), and the real one still works.
    const tx = sys.harvest.connect(u).harvestStake(...(await args(T(1))), v1, 30n * DAY)
    await expect(tx).to.emit(sys.poolV1, 'Staked')
    // Nothing moved out of harvest for the refused attempts: exactly one claim of 1 token.
    expect(await sys.harvest.claimed(u.address, await sys.token.getAddress())).to.equal(T(1))
  })

  it('a claim cannot be staked to someone else, nor by calling stakeFor directly', async () => {
    const sys = await fresh()
    const [u, attacker] = sys.users
    const args = await claimer(sys, u)
    const a = await args(T(5))
    await expect(
      sys.harvest.connect(attacker).harvestStake(...a, await sys.poolV1.getAddress(), 30n * DAY),
    ).to.be.revertedWithCustomError(sys.harvest, 'InvalidMessage')
    await expect(sys.poolV1.connect(attacker).stakeFor(attacker.address, T(5), 30n * DAY)).to.be.revertedWithCustomError(
      sys.poolV1,
      'NotHarvest',
    )
  })
})

describe('Adversary: reentrancy through the token, and the pool list', () => {
  it('a hook token cannot be used to re-enter a pool (second close, stake or sweep inside a payment)', async () => {
    const sys = await fresh()
    const hook = await new AdvHookToken__factory(sys.owner).deploy()
    const hookAddr = await hook.getAddress()
    const pool = await newPool(sys, 1, poolParams(V1_PARAMS), DEFAULT_TERMS, hookAddr)
    const p = await pool.getAddress()
    await hook.mint(await sys.reservoir.getAddress(), T(1_000_000))
    await sys.reservoir.approvePool(hookAddr, p, T(1_000_000))
    const honest = sys.users[0]
    await hook.mint(honest.address, T(1000))
    await hook.connect(honest).approve(p, MAX)
    await (await stake2(pool, honest, T(1000), 365n * DAY)).wait()
    const att = await new AdvReentrantStaker__factory(sys.owner).deploy()
    await hook.mint(await att.getAddress(), T(1000))
    await (await att.setup(p, hookAddr)).wait()
    await (await att.doStake(T(100), 30n * DAY)).wait()
    await time.increase(10n * DAY)
    const before = await hook.balanceOf(await att.getAddress())
    const preview = await pool.getStakeInfo(await att.getAddress(), 0, { blockTag: 'pending' })
    await (await att.attack(0)).wait()
    const got = (await hook.balanceOf(await att.getAddress())) - before
    expect(await att.attempts()).to.equal(3n)
    expect(await att.successes(), 'a re-entry succeeded').to.equal(0n)
    expect(got).to.be.lessThanOrEqual(preview.amountOut - preview.fee)
    expect(await hook.balanceOf(p)).to.be.greaterThanOrEqual((await pool.getPoolState()).obligations)
    await time.increase(365n * DAY)
    await (await pool.connect(honest).unstake([0])).wait()
  })

  it('Lens.getPoolsDataFromPoolInfo survives user activity and skips delisted pools; only whitelisted callers add pools', async () => {
    const sys = await fresh()
    const [u] = sys.users
    await expect(
      sys.poolsInfo.connect(u).addPool(u.address, u.address, await sys.token.getAddress(), u.address),
    ).to.be.revertedWithCustomError(sys.poolsInfo, 'NotWhitelisted')
    for (let i = 0; i < 5; i++) await (await stake2(sys.poolV1, u, T(1), DAY)).wait()
    await (await sys.poolV1.connect(u).unstake([0, 3])).wait()
    await sys.token.connect(u).transfer(await sys.poolV1.getAddress(), 1n)
    await sys.token.connect(u).transfer(await sys.reservoir.getAddress(), 1n)
    let data = await sys.lens.getPoolsDataFromPoolInfo(await sys.poolsInfo.getAddress(), u.address)
    expect(data.map((d) => d.poolId)).to.deep.equal([0n, 1n])
    expect(data[1].userStakesCount).to.equal(5n)
    await sys.poolsInfo.setListed(0, false)
    data = await sys.lens.getPoolsDataFromPoolInfo(await sys.poolsInfo.getAddress(), u.address)
    expect(data.map((d) => d.pool)).to.deep.equal([await sys.poolV1.getAddress()])
  })
})

describe('Adversary: referral rules', () => {
  /**
   * Sybil referer: account R stakes 1 wei for 1 day so that account S can name it and get the referral bonus: refused
   * (below refererMinStake, and released before the referee). A referer stake that backs the referral: the bonus is
   * still paid only at maturity (never on an early close), and only to a referee that held the term.
   */
  it('v1: a 1-wei sybil referer is refused; a backed referral pays its bonus only to a stake held to maturity', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [R, S] = sys.users
    await stakeExactly(sys, pool, R, 1n, DAY)
    await expect(stake2(pool, S, T(10_000), 30n * DAY, R.address))
      .to.be.revertedWithCustomError(pool, 'RefererStakeTooSmall')
      .withArgs(1n, T(100))
    await stakeExactly(sys, pool, R, T(1000), 1095n * DAY)
    const { expected } = await stakeExactly(sys, pool, S, T(10_000), 30n * DAY, R.address)
    log(`      referral bonus on 10,000 tokens: ${fmt(expected.bonus)} (length+referral), paid at maturity`)
    const e = await unstakeExactly(sys, pool, S, [0n], 29n * DAY)
    expect(e.closes[0].forfeited).to.be.greaterThanOrEqual(expected.bonus)
  })

  /**
   * The referer rule, each way round: no stake, only closed stakes, oneself, a referer whose last stake closes in the
   * same block just before the referee's stake (refused, never silently without the bonus), the minimum-terms form
   * (same rules; the zero address means no referer), and version 2 (a referer adds no bonus but still needs
   * holdTimeRefMin). Any active staker may be named without its consent (logged: the referral bonus is then open to
   * anyone who holds at least holdTimeRefMin).
   */
  it('referer rules hold for every stake form, including a referer that leaves in the same block', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [R, S, X, W] = sys.users
    await expect(stake2(pool, S, T(10), 30n * DAY, X.address)).to.be.revertedWithCustomError(pool, 'RefererNotStaking')
    await expect(stake5(pool, S, T(10), 30n * DAY, X.address)).to.be.revertedWithCustomError(pool, 'RefererNotStaking')
    await expect(stake2(pool, S, T(10), 30n * DAY, S.address)).to.be.revertedWithCustomError(pool, 'SelfReferral')
    await expect(stake5(pool, S, T(10), 30n * DAY, S.address)).to.be.revertedWithCustomError(pool, 'SelfReferral')
    await stakeExactly(sys, pool, X, T(100), 400n * DAY)
    await unstakeExactly(sys, pool, X, [0n])
    await expect(stake2(pool, S, T(10), 30n * DAY, X.address)).to.be.revertedWithCustomError(pool, 'RefererNotStaking')
    // holdTimeRefMin (30 days) applies with a referer, in every form; the zero address is no referer.
    await stakeExactly(sys, pool, R, T(1000), 400n * DAY)
    await expect(stake5(pool, S, T(10), 29n * DAY, R.address)).to.be.revertedWithCustomError(pool, 'InvalidHoldTime')
    await stakeExactly(sys, pool, S, T(10), DAY, undefined, [0n, 0n])
    // The referer closes its only stake in the same block, just before the referee stakes naming it.
    await stakeExactly(sys, pool, W, T(100), 400n * DAY)
    await network.provider.send('evm_setAutomine', [false])
    const ov = { gasLimit: 3_000_000n, maxFeePerGas: ethers.parseUnits('2000', 'gwei') }
    let closeTx: ContractTransactionResponse | undefined
    let refTx: ContractTransactionResponse | undefined
    try {
      closeTx = await pool.connect(W).unstake([0], { ...ov, maxPriorityFeePerGas: ethers.parseUnits('100', 'gwei') })
      refTx = await stake2(pool, S, T(10), 30n * DAY, W.address, { ...ov, maxPriorityFeePerGas: ethers.parseUnits('50', 'gwei') })
      await network.provider.send('evm_mine', [])
    } finally {
      await network.provider.send('evm_setAutomine', [true])
    }
    expect((await ethers.provider.getTransactionReceipt(closeTx!.hash))!.status).to.equal(1)
    expect((await ethers.provider.getTransactionReceipt(refTx!.hash))!.status, 'stake naming a referer that just left').to.equal(
      0,
    )
    expect(await pool.getUserStakesCount(S.address), 'the referee got no stake without its bonus').to.equal(1n)
    // Naming a stranger works as long as the stranger holds an active stake.
    const named = await stakeExactly(sys, pool, S, T(10), 30n * DAY, R.address)
    log(
      `      any active staker can be named without its consent: +${fmt(named.expected.referralBonusPercent)}% of principal as bonus`,
    )
    // Version 2: a referer adds nothing (refererBonusPercent is 0 there) but its minimum hold still applies.
    const v2 = sys.poolV2
    await stakeExactly(sys, v2, R, T(100), 400n * DAY)
    await expect(stake2(v2, S, T(10), DAY, R.address)).to.be.revertedWithCustomError(v2, 'InvalidHoldTime')
    const r2 = await stakeExactly(sys, v2, S, T(10), 30n * DAY, R.address)
    expect(r2.expected.referralBonusPercent).to.equal(0n)
  })
})

describe('Adversary: the reservoir and the minimum-terms stake', () => {
  /**
   * The reservoir holds 50,000 tokens. An attacker front-runs a victim's stake with a capped stake that takes all of
   * it. The victim's strict stake and its minimum-terms stake (minimums = what its preview showed) must be refused
   * (RewardsUnavailable), never recorded below what it asked; with minimums 0 it takes exactly what is left. The
   * attacker's round trip costs it its early-close fee.
   */
  it('v1: front-running a stake to empty the reservoir: the victim is refused or gets at least its minimums; the attacker pays its fee', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, A, H] = sys.users
    const res = await sys.reservoir.getAddress()
    await stakeExactly(sys, pool, H, T(10_000), 365n * DAY)
    await sys.reservoir.withdraw(await sys.token.getAddress(), sys.owner.address, (await balanceOf(sys, res)) - T(50_000))
    const wanted = previewStake(await mathState(pool), T(10_000), 365n * DAY, false)
    expect(wanted.bonus + wanted.reward, 'the victim is fully funded before the attack').to.equal(
      wanted.bonusWanted + wanted.rewardWanted,
    )
    const before = await balanceOf(sys, A.address)
    const a = await stakeExactly(sys, pool, A, T(100_000), 1095n * DAY, undefined, [0n, 0n])
    expect(a.expected.bonus + a.expected.reward).to.equal(T(50_000))
    await expect(stake2(pool, V, T(10_000), 365n * DAY))
      .to.be.revertedWithCustomError(pool, 'RewardsUnavailable')
      .withArgs(0n, 0n)
    await expect(stake5(pool, V, T(10_000), 365n * DAY, ZERO, wanted.bonus, wanted.reward))
      .to.be.revertedWithCustomError(pool, 'RewardsUnavailable')
      .withArgs(0n, 0n)
    await unstakeExactly(sys, pool, A, [0n])
    const cost = before - (await balanceOf(sys, A.address))
    log(`      victim refused while the reservoir was taken; attacker's round trip cost ${fmt(cost)}`)
    expect(cost).to.be.greaterThan(0n)
    // Once the attacker is gone the victim's stake goes through with full terms, and is paid them at maturity.
    const v = await stakeExactly(sys, pool, V, T(10_000), 365n * DAY, undefined, [wanted.bonus, wanted.reward])
    expect([v.expected.bonus, v.expected.reward]).to.deep.equal([wanted.bonus, wanted.reward])
    await time.increase(365n * DAY)
    const e = await unstakeExactly(sys, pool, V, [0n])
    expect(e.toUser).to.equal(T(10_000) + wanted.bonus + wanted.reward + e.closes[0].gains)
  })

  /**
   * With unHoldFee 0 for new stakes (the owner may set it), a griefer can reserve the reservoir in front of a stake and
   * release it in the same block for free. Property: it cannot take a stake's terms away UNNOTICED: the victim's strict
   * or preview-minimum stake is refused (it pays gas, keeps its tokens) and is never recorded with less.
   */
  it('v1, unHoldFee 0: emptying the reservoir in front of a stake cannot cut its terms unnoticed', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, A] = sys.users
    await (await pool.setParameters({ ...poolParams(V1_PARAMS), unHoldFee: 0n })).wait()
    const res = await sys.reservoir.getAddress()
    await sys.reservoir.withdraw(await sys.token.getAddress(), sys.owner.address, (await balanceOf(sys, res)) - T(50_000))
    const wanted = previewStake(await mathState(pool), T(10_000), 365n * DAY, false)
    const before = await balanceOf(sys, A.address)
    const vBefore = await balanceOf(sys, V.address)
    await network.provider.send('evm_setAutomine', [false])
    const ov = (prio: number) => ({
      gasLimit: 3_000_000n,
      maxPriorityFeePerGas: ethers.parseUnits(String(prio), 'gwei'),
      maxFeePerGas: ethers.parseUnits('2000', 'gwei'),
    })
    const sent: ContractTransactionResponse[] = []
    try {
      sent.push(await stake5(pool, A, T(100_000), 1095n * DAY, ZERO, 0n, 0n, ov(100)))
      sent.push(await stake2(pool, V, T(10_000), 365n * DAY, undefined, ov(90)))
      sent.push(await stake5(pool, V, T(10_000), 365n * DAY, ZERO, wanted.bonus, wanted.reward, ov(80)))
      sent.push(await pool.connect(A).unstake([0], ov(70)))
      await network.provider.send('evm_mine', [])
    } finally {
      await network.provider.send('evm_setAutomine', [true])
    }
    const status = await Promise.all(sent.map(async (t) => (await ethers.provider.getTransactionReceipt(t.hash))!.status))
    expect(status, 'attacker in, victim refused twice, attacker out').to.deep.equal([1, 0, 0, 1])
    const cost = before - (await balanceOf(sys, A.address))
    log(
      `      griefer's round trip cost ${fmt(cost)} tokens (gas only); victim refused twice, kept its tokens ` +
        `(${fmt(vBefore - (await balanceOf(sys, V.address)))} moved)`,
    )
    expect(await pool.getUserStakesCount(V.address)).to.equal(0n)
    expect(await balanceOf(sys, V.address)).to.equal(vBefore)
  })

  /**
   * RewardsShort / RewardsUnavailable against previewStake at reservoir levels around each threshold and for every kind
   * of minimums (strict, 0, the preview's figures, one above them, above the full terms), in both versions: the stake is
   * refused exactly when the model says (poolModel.ts: the terms below the stated minimums, or below the full terms
   * without minimums), with the preview's figures, and is never recorded below its floor.
   */
  it('RewardsShort and RewardsUnavailable follow previewStake at every threshold and every kind of minimum', async function () {
    this.timeout(300_000)
    const sys = await fresh()
    const tokenAddr = await sys.token.getAddress()
    const u = sys.users[0]
    let n = 0
    let refusals = 0
    for (const version of [1, 2] as const) {
      const pool = version === 1 ? sys.poolV1 : sys.poolV2
      const amount = T(10_000) + 7n
      const hold = 365n * DAY
      const full = previewStake(await mathState(pool), amount, hold, false)
      const bw = full.bonusWanted
      const want = full.bonusWanted + full.rewardWanted
      const levels = version === 1 ? [0n, bw - 1n, bw, want - 1n, want] : [0n, bw - 1n, bw]
      for (const level of levels) {
        for (const kind of ['strict', 'zero', 'preview', 'above', 'over'] as const) {
          await sys.reservoir.approvePool(tokenAddr, await pool.getAddress(), level)
          await pinNextTimestamp()
          const state = await mathState(pool, PENDING)
          const p = previewStake(state, amount, hold, false)
          const minimums: [bigint, bigint] | undefined =
            kind === 'strict'
              ? undefined
              : kind === 'zero'
                ? [0n, 0n]
                : kind === 'preview'
                  ? [p.bonus, p.reward]
                  : kind === 'above'
                    ? [p.bonus, p.reward + 1n]
                    : [p.bonusWanted + 1n, p.rewardWanted]
          const tag = `v${version} level ${level} ${kind}`
          const refusal = modelRefusal(state, false, u.address, amount, hold, false, minimums)
          if (kind === 'preview' || kind === 'zero') expect(refusal, `${tag}: accepting the preview (or less)`).to.equal(null)
          if (kind === 'above' || kind === 'over')
            expect(refusal, `${tag}: minimums above the terms`).to.equal('RewardsUnavailable')
          if (refusal) {
            expect(refusal, tag).to.equal('RewardsUnavailable')
            const count = await pool.getUserStakesCount(u.address)
            await expect(minimums ? stake5(pool, u, amount, hold, ZERO, ...minimums) : stake2(pool, u, amount, hold), tag)
              .to.be.revertedWithCustomError(pool, 'RewardsUnavailable')
              .withArgs(p.bonus, p.reward)
            expect(await pool.getUserStakesCount(u.address)).to.equal(count)
            refusals++
          } else {
            const r = await stakeExactly(sys, pool, u, amount, hold, undefined, minimums)
            expect(r.id, `${tag}: accepted`).to.not.equal(-1n)
            const [mb, mr] = minimums ?? [p.bonusWanted, p.rewardWanted]
            expect(r.expected.bonus, `${tag}: bonus below the floor`).to.be.greaterThanOrEqual(mb)
            expect(r.expected.reward, `${tag}: reward below the floor`).to.be.greaterThanOrEqual(mr)
          }
          n++
        }
      }
      await approveUnlimited(sys.reservoir, sys.token, await pool.getAddress())
    }
    log(`      ${n} stakes checked against previewStake and the model, ${refusals} refused`)
  })

  /**
   * The strict forms pass type(uint256).max to the shared code as "the full terms". The five-argument stake states
   * minimums in base units and "always at least minBonus and minReward, else RewardsUnavailable" (NatSpec,
   * docs/contracts.md, poolModel.ts): no stake can ever be funded 2^256-1, so a minimum of type(uint256).max must be
   * refused like any minimum above the terms, and never recorded below what it stated.
   */
  it('a minimum of type(uint256).max means the full terms (as the 2/3-argument forms ask): exactly those, or refused', async () => {
    const sys = await fresh()
    const u = sys.users[0]
    for (const version of [1, 2] as const) {
      const pool = version === 1 ? sys.poolV1 : sys.poolV2
      for (const minimums of [
        [MAX, MAX],
        [MAX, 0n],
        [0n, MAX],
      ] as [bigint, bigint][]) {
        await pinNextTimestamp()
        const state = await mathState(pool, PENDING)
        const p = previewStake(state, T(10_000), 365n * DAY, false)
        expect(modelRefusal(state, false, u.address, T(10_000), 365n * DAY, false, minimums)).to.equal(null)
        const count = await pool.getUserStakesCount(u.address)
        await (await stake5(pool, u, T(10_000), 365n * DAY, ZERO, ...minimums)).wait()
        const s = await pool.getStake(u.address, count)
        expect([s.bonus, s.reward]).to.deep.equal([p.bonusWanted, p.rewardWanted])
      }
    }
  })

  /**
   * NatSpec of stake(amount, hold, referer, minBonus, minReward): "the stake gets what the reservoir can fund (bonus
   * first), but always at least minBonus and minReward, else RewardsUnavailable"; the app passes what its preview
   * showed. Between the preview and the transaction the owner lowers the bonus and inflation in the same block (a
   * parameter change; 48 h behind the timelock on public networks). The reservoir funds the new, lower terms in full.
   * Round 2 found the minimums were then never checked and the stake was recorded below them; now the stake is refused
   * with RewardsUnavailable(the new terms), the staker keeps its tokens, and a new preview's minimums go through. When
   * the parameters rise instead, the stake lands with the higher terms.
   */
  it('minimums stated from a preview hold even when the parameters fall before the stake lands', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [u] = sys.users
    const amount = T(10_000)
    const hold = 365n * DAY
    const preview = previewStake(await mathState(pool), amount, hold, false)
    const lower = { ...poolParams(V1_PARAMS), timeBonusPercent: 0n, inflationPercent: T(1) }
    const balance = await balanceOf(sys, u.address)
    const [set, staked] = await oneBlockWithReverts([
      (ov) => pool.setParameters(lower, ov),
      (ov) => stake5(pool, u, amount, hold, ZERO, preview.bonus, preview.reward, ov),
    ])
    const now = previewStake(await mathState(pool), amount, hold, false)
    const error = await revertOf(pool, staked.hash)
    log(
      `      stated minimums bonus ${fmt(preview.bonus)}, reward ${fmt(preview.reward)}; new terms bonus ${fmt(now.bonus)}, ` +
        `reward ${fmt(now.reward)}: ${staked.status === 1 ? 'recorded' : `refused (${error})`}`,
    )
    expect([set.status, staked.status], 'parameters changed, stake refused').to.deep.equal([1, 0])
    expect(now.bonus + now.reward, 'the new terms are funded in full').to.equal(now.bonusWanted + now.rewardWanted)
    expect(error).to.equal(`RewardsUnavailable(${now.bonus}, ${now.reward})`)
    expect(await pool.getUserStakesCount(u.address)).to.equal(0n)
    expect(await balanceOf(sys, u.address)).to.equal(balance)
    // Stated from a new preview, the minimums go through with exactly the new terms.
    const again = await stakeExactly(sys, pool, u, amount, hold, undefined, [now.bonus, now.reward])
    expect([again.expected.bonus, again.expected.reward]).to.deep.equal([now.bonus, now.reward])
    // Parameters that rise between the preview and the stake: the stake gets the higher terms.
    const before = previewStake(await mathState(pool), amount, hold, false)
    const [, up] = await oneBlockWithReverts([
      (ov) => pool.setParameters(poolParams(V1_PARAMS), ov),
      (ov) => stake5(pool, u, amount, hold, ZERO, before.bonus, before.reward, ov),
    ])
    expect(up.status, `raised parameters: ${await revertOf(pool, up.hash)}`).to.equal(1)
    const s = await pool.getStake(u.address, 1)
    expect([s.bonus, s.reward]).to.deep.equal([preview.bonus, preview.reward])
  })
})

describe('Adversary: the fee stream (version 1)', () => {
  /** H (500,000 for a year) and V (1,000,000 for 1095 days); at day 10 A stakes X for `hold` and V closes, one block. */
  async function whaleClose(sys: Sys, X = T(1_000_000), hold = DAY) {
    const pool = sys.poolV1
    const [V, H, A] = sys.users
    await whalesStaked(pool, sys.users)
    const receipts = await oneBlock([(ov) => stake2(pool, A, X, hold, undefined, ov), (ov) => pool.connect(V).unstake([0], ov)])
    const tc = await blockTime(receipts[1])
    return { pool, V, H, A, tc, fee: eventsOf(pool, receipts[1], 'Unstaked')[0].fee as bigint }
  }

  /**
   * Poking: a third party stakes 1,000 wei or closes one of its (fee-free) poke stakes every second for a minute, then
   * every half hour, so the stream is released in ~100 tiny steps instead of one. Each release rounds down, so what a
   * holder gets can only differ from one release at the end by rounding: no more than one wei per poke, for the
   * attacker A (1,000,000 for a day) and for the honest holder H alike.
   */
  it('poking the stream every block with stakes and closes gives no holder more than one release would', async function () {
    this.timeout(300_000)
    const sys = await fresh()
    const { pool, H, A, tc } = await whaleClose(sys)
    const P = sys.users[3]
    // The poker's stakes are fee-free (a parameter for new stakes), so its closes add no fee and keep the stream's end.
    await (await pool.setParameters({ ...poolParams(V1_PARAMS), unHoldFee: 0n })).wait()
    const end = tc + DAY
    const finish = async () => {
      await time.setNextBlockTimestamp(end)
      const before = await balanceOf(sys, A.address)
      await (await pool.connect(A).unstake([0])).wait()
      return {
        a: (await balanceOf(sys, A.address)) - before,
        h: (await pool.getStake(H.address, 0)).gains,
        rate: await pool.getRate(),
      }
    }
    const base = await branch(finish)
    const poked = await branch(async () => {
      const times: bigint[] = []
      for (let s = 3n; s < 63n; s++) times.push(tc + s)
      for (let s = 1800n; s < DAY; s += 1800n) times.push(tc + s)
      let open: bigint[] = []
      let id = 0n
      for (const [i, at] of times.entries()) {
        await time.setNextBlockTimestamp(at)
        if (i % 2 === 0 || open.length === 0) {
          await (await stake2(pool, P, 1000n, DAY)).wait()
          open.push(id++)
        } else {
          await (await pool.connect(P).unstake([open[0]])).wait()
          open = open.slice(1)
        }
      }
      return { ...(await finish()), pokes: BigInt(times.length) }
    })
    log(
      `      ${poked.pokes} pokes: attacker gain ${fmt(poked.a)} vs ${fmt(base.a)} unpoked (diff ${poked.a - base.a} wei); ` +
        `honest holder's gains ${fmt(poked.h)} vs ${fmt(base.h)} (diff ${poked.h - base.h} wei)`,
    )
    expect(poked.a, 'poked attacker').to.be.lessThanOrEqual(base.a + poked.pokes)
    expect(poked.h, 'poked honest holder').to.be.lessThanOrEqual(base.h + poked.pokes)
  })

  /**
   * Stream-end extension. Whale V's fee F (~990,868 tokens) starts streaming at t0 to the holders, H among them. A
   * griefer closes a 1,000-wei stake once a day (a dust fee, from a contract that stakes and closes in one transaction),
   * 29 times. Round 2 found that every new fee restarted the 30-day window for everything still pending; now the end
   * moves to the amount-weighted average of the old end and t + FEE_STREAM (math.ts extendedStreamEnd), which after
   * each dust fee the pool must show to the second. Property (NatSpec of FEE_STREAM: "An early-close fee reaches the
   * remaining stakes evenly over this time"; math.ts: "Version 1 streams each early-close fee to the remaining stakes
   * evenly over this time"): FEE_STREAM after F was charged, all of F has been released to the stakes present during
   * those 30 days, whatever dust fees followed; a stake made after that gets none of F.
   */
  it('a dust fee cannot postpone a pending fee: FEE_STREAM after a fee, all of it has reached the holders of that time', async function () {
    this.timeout(300_000)
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, H, L] = sys.users
    await (await stake2(pool, H, T(100_000), 365n * DAY)).wait()
    await (await stake2(pool, V, T(1_000_000), 1095n * DAY)).wait()
    await time.increase(10n * DAY)
    const r = (await (await pool.connect(V).unstake([0])).wait())!
    const t0 = await blockTime(r)
    const F = eventsOf(pool, r, 'Unstaked')[0].fee as bigint
    expect(await pool.getFeeStream()).to.deep.equal([F, t0 + FEE_STREAM])
    const cycler = await new AdvSameTxCycler__factory(sys.owner).deploy()
    await sys.token.mint(await cycler.getAddress(), T(1))
    const p = await pool.getAddress()
    const tk = await sys.token.getAddress()
    const outcome = async (dustDays: bigint) => {
      let dust = 0n
      let lastEnd = t0 + FEE_STREAM
      for (let k = 1n; k <= dustDays; k++) {
        const t = t0 + k * DAY
        await time.setNextBlockTimestamp(t)
        const [pendingBefore, endBefore] = await pool.getFeeStream(PENDING)
        const rc = (await (await cycler.runEach(p, tk, [1000n], [DAY], false)).wait())!
        const fee = eventsOf(pool, rc, 'Unstaked')[0].fee as bigint
        expect(fee, 'a dust fee').to.be.greaterThan(0n)
        const [pending, end] = await pool.getFeeStream()
        expect(pending, `day ${k}: pending`).to.equal(pendingBefore + fee)
        expect(end, `day ${k}: stream end`).to.equal(extendedStreamEnd(pendingBefore, fee, endBefore, t))
        dust += fee
        lastEnd = end
      }
      await time.increaseTo(t0 + FEE_STREAM)
      const [pending, end] = await pool.getFeeStream()
      const h = (await pool.getStake(H.address, 0)).gains
      // A latecomer stakes after F's 30 days are over and holds 30 days.
      await time.increase(1n)
      const before = await balanceOf(sys, L.address)
      await (await stake2(pool, L, T(100_000), 30n * DAY)).wait()
      const s = await pool.getStake(L.address, 0)
      await time.increase(30n * DAY)
      await (await pool.connect(L).unstake([0])).wait()
      const late = (await balanceOf(sys, L.address)) - before - s.bonus - s.reward
      return { dust, pending, end, lastEnd, h, late }
    }
    const honest = await branch(() => outcome(0n))
    const grief = await branch(() => outcome(29n))
    log(
      `      fee F ${fmt(F)} at t0. At t0 + 30 days: pending ${fmt(honest.pending)} without dust fees, ` +
        `${fmt(grief.pending)} after 29 daily 1,000-wei fees (stream end after the last: t0 + 30 days ` +
        `${grief.lastEnd - t0 - FEE_STREAM >= 0n ? '+' : ''}${grief.lastEnd - t0 - FEE_STREAM} s)`,
    )
    log(
      `      holder H's gains at t0 + 30 days: ${fmt(honest.h)} -> ${fmt(grief.h)}; a latecomer staking 100,000 for 30 days ` +
        `after that collects ${fmt(honest.late)} -> ${fmt(grief.late)} of F, for ${grief.dust} wei of dust fees`,
    )
    expect(grief.pending, `${fmt(grief.pending)} of F still pending FEE_STREAM after it was charged`).to.be.lessThanOrEqual(
      grief.dust,
    )
    expect(grief.late, `latecomer took ${fmt(grief.late)} of an earlier fee`).to.be.lessThanOrEqual(honest.late + grief.dust)
  })

  /**
   * Many fees: random stakes (strict and capped, with and without referers), early and matured closes, pokes and time
   * jumps from a second to a month, so that fees join the stream at every phase. After every step the pool's rate,
   * getFeeStream(), obligations and shares equal the model's (poolModel.ts over math.ts), every stake and close pays
   * the model's figures to the wei, and in the end everything is released, paid, and swept to zero.
   */
  it(`v1: ${Math.max(20, OPS >> 1)} interleaved fees, stakes and jumps: rate, stream, obligations and payouts match the model to the wei`, async function () {
    this.timeout(600_000)
    const sys = await fresh()
    const pool = sys.poolV1
    const m = new Modeled(sys, pool, 1, poolParams(V1_PARAMS))
    const r = seededRandom(21)
    const pick = <X>(xs: readonly X[]) => xs[Math.floor(r() * xs.length)]
    const users = sys.users
    let fees = 0
    for (let step = 0; step < Math.max(20, OPS >> 1); step++) {
      const x = r()
      const u = pick(users)
      if (x < 0.45) {
        const others = users.filter((o) => o !== u && m.activeIds(o).length > 0)
        const referer = others.length > 0 && r() < 0.3 ? pick(others).address : undefined
        const hold = pick([DAY, 7n * DAY, 30n * DAY, 365n * DAY, 1095n * DAY])
        const minimums: [bigint, bigint] | undefined = r() < 0.3 ? [0n, 0n] : undefined
        await m.stake(u, pick([1n, 1000n, T(1) + 3n, T(1000), T(250_000)]), hold, referer, minimums)
      } else if (x < 0.75) {
        const ids = m
          .activeIds(u)
          .sort(() => r() - 0.5)
          .slice(0, 1 + Math.floor(r() * 2))
        if (ids.length === 0) continue
        const c = await m.close(u, ids)
        if (c.closes.some((k) => k.fee > 0n)) fees++
      } else {
        await time.increase(pick([1n, 12n, 3600n, DAY, 5n * DAY, 29n * DAY, 31n * DAY]))
      }
      await m.check(`step ${step}`)
    }
    await time.increase(FEE_STREAM + 1n)
    await m.check('after the stream')
    expect((await pool.getFeeStream())[0]).to.equal(0n)
    for (const u of users) {
      const ids = m.activeIds(u)
      if (ids.length) await m.close(u, ids)
    }
    await m.check('empty')
    expect((await pool.getPoolState()).obligations).to.equal(0n)
    await (await pool.sweep()).wait()
    expect(await balanceOf(sys, pool)).to.equal(0n)
    log(`      ${fees} closes with a fee, all matched`)
  })

  /**
   * A lone 1-share holder (1 wei staked) receives a whale's streamed fee F: the rate rises by at most F, the holder gets
   * its 1/(1 + 1e18) part, and everything else stays in the pool owed to nobody: sweep() takes none of it while it is
   * still pending in storage, and all of it once a transaction has released it. A newcomer at the high rate is paid
   * exactly.
   */
  it('v1: a fee streamed to a lone 1-share holder: rate +<= fee, the rest swept only once released, newcomers exact', async () => {
    const sys = await fresh()
    const pool = await newPool(sys, 1, poolParams(V1_PARAMS))
    const [D, W, N] = sys.users
    const m = new Modeled(sys, pool, 1, poolParams(V1_PARAMS))
    await m.stake(D, 1n, 1095n * DAY)
    await m.stake(W, T(1_000_000), 1095n * DAY)
    await time.increase(10n * DAY)
    const c = await m.close(W, [0n])
    const F = c.closes[0].fee
    await time.increase(FEE_STREAM)
    await m.check('stream over, nothing stored yet')
    const rate = await pool.getRate()
    expect(rate - ONE, 'the rate rose by at most the fee').to.be.lessThanOrEqual(F)
    const g = (await pool.getStake(D.address, 0)).gains
    expect(g).to.be.lessThanOrEqual(F / (ONE + 1n) + 1n)
    await expect(pool.sweep(), 'sweep takes nothing still pending in storage').to.changeTokenBalances(
      sys.token,
      [pool, sys.reservoir],
      [0n, 0n],
    )
    await m.stake(N, T(1_000_000), 365n * DAY)
    const unowned = (await balanceOf(sys, pool)) - (await pool.getPoolState()).obligations
    expect(unowned + g, 'all but the holder part is unowned').to.be.greaterThanOrEqual(F - 1n)
    await expect(pool.sweep()).to.changeTokenBalances(sys.token, [pool, sys.reservoir], [-unowned, unowned])
    await m.check('after sweep')
    await time.increase(365n * DAY)
    await m.close(N, [0n])
    await m.close(D, [0n])
    await m.check('empty')
    await (await pool.sweep()).wait()
    expect(await balanceOf(sys, pool)).to.equal(0n)
  })

  /**
   * A version 1 pool streaming a large fee: H holds 100,000 for a year, V's 1,000,000 for three years closes after 10
   * days, and its fee streams to H from then on. `users` are the system's users (V and H first).
   */
  async function v1WithFeeStreaming() {
    const sys = await fresh()
    const pool = sys.poolV1
    const [V, H] = sys.users
    const m = new Modeled(sys, pool, 1, poolParams(V1_PARAMS))
    await m.stake(H, T(100_000), 365n * DAY)
    await m.stake(V, T(1_000_000), 1095n * DAY)
    await time.increase(10n * DAY)
    await m.close(V, [0n])
    return { sys, pool, m, users: sys.users }
  }

  /**
   * The last share burns while a fee is still streaming: what was released until then is paid to it, the rest goes to
   * the reservoir with it, and a stake made afterwards gets none of that old fee.
   */
  it('v1: the last share burning mid-stream sends the pending fees to the reservoir; the next staker gets none', async () => {
    const { pool, m, users } = await v1WithFeeStreaming()
    const [, H, N] = users
    await time.increase(5n * DAY)
    const pendingBefore = (await pool.getFeeStream({ blockTag: 'latest' }))[0]
    const c = await m.close(H, [0n])
    log(`      last holder left with ${fmt(pendingBefore)} still streaming; ${fmt(c.toReservoir)} went back to the reservoir`)
    expect(await pool.getFeeStream()).to.deep.equal([0n, 0n])
    expect((await pool.getPoolState()).obligations).to.equal(0n)
    await m.stake(N, T(1000), 30n * DAY)
    await time.increase(31n * DAY)
    await m.check('newcomer')
    expect((await pool.getStake(N.address, 0)).gains).to.equal(0n)
    const e = await m.close(N, [0n])
    expect(e.closes[0].gains).to.equal(0n)
  })

  /**
   * sweep() at every phase of a stream (just after the fee, mid-stream with nothing stored, after a donation, after a
   * stored release, after the stream's end) sends only what no stake owns: the donation and the virtual shares' part
   * of what was released. Every holder is still paid the model's figures.
   */
  it('v1: sweep() at every phase of a stream takes only donations and the unowned part of released fees', async () => {
    const { sys, pool, m, users } = await v1WithFeeStreaming()
    const [, H, X, G] = users
    const sweepIs = async (want: bigint, label: string) => {
      await expect(pool.connect(G).sweep(), label).to.changeTokenBalances(sys.token, [pool, sys.reservoir], [-want, want])
      await m.check(label)
    }
    await sweepIs(0n, 'just after the fee')
    await time.increase(10n * DAY)
    await sweepIs(0n, 'mid-stream, nothing stored')
    await (await sys.token.connect(G).transfer(await pool.getAddress(), T(5))).wait()
    await sweepIs(T(5), 'a donation')
    const t = await pinNextTimestamp()
    const due = m.model.at(t)
    await m.stake(X, T(1000), 30n * DAY)
    const unowned = due.released - due.toHolders
    // The virtual shares' part, plus the rounding down of the rate's step (worth up to shares/1e18 wei).
    const before = m.model.totalShares - (await pool.balanceOf(X.address))
    expect(unowned).to.be.lessThanOrEqual(
      (due.released * VIRTUAL_SHARES) / (before + VIRTUAL_SHARES) + (before + VIRTUAL_SHARES) / ONE + 1n,
    )
    await sweepIs(unowned, 'after a stored release')
    await time.increase(FEE_STREAM)
    await sweepIs(0n, 'after the end, nothing stored')
    await m.close(X, [0n])
    await time.increase(365n * DAY)
    await m.close(H, [0n])
    expect((await pool.getPoolState()).obligations).to.equal(0n)
    await (await pool.sweep()).wait()
    expect(await balanceOf(sys, pool)).to.equal(0n)
  })

  /**
   * A dust stream (a 2,000,000-wei fee over 30 days: less than one wei a second) releases 0 at the next stake, which then
   * leaves the release time where it was, so the newcomer shares in the time before it came. Bound: it gets at most
   * its shares' part of what was due after it joined, plus one wei.
   */
  it('v1: a newcomer in a dust stream gets at most its time-weighted part plus one wei', async () => {
    const sys = await fresh()
    const pool = sys.poolV1
    const [H, D, N] = sys.users
    await (await stake2(pool, H, T(1000), 365n * DAY)).wait()
    const [, r] = await oneBlock([
      (ov) => stake2(pool, D, 2_000_000n, DAY, undefined, ov),
      (ov) => pool.connect(D).unstake([0], ov),
    ])
    const tc = await blockTime(r)
    const stream = await streamAfterClose(pool, tc)
    expect(stream.pending, 'the whole principal was the fee').to.equal(2_000_000n)
    const t1 = tc + 1n
    await time.setNextBlockTimestamp(t1)
    const n = (await (await stake2(pool, N, T(1000), 365n * DAY)).wait())!
    expect(eventsOf(pool, n, 'FeesReleased'), 'nothing released at the newcomer stake (rounds to 0)').to.have.length(0)
    const lp = (await pool.getStake(N.address, 0)).lpAmount
    const shares = (await pool.getPoolState()).totalShares
    await time.increaseTo(stream.streamEnd + 1n)
    const gains = (await pool.getStake(N.address, 0)).gains
    const fair = (stream.pending * (stream.streamEnd - t1) * lp) / (stream.streamEnd - tc) / (shares + VIRTUAL_SHARES)
    log(`      newcomer's gains ${gains} wei; its time-weighted part ${fair} wei`)
    expect(gains).to.be.lessThanOrEqual(fair + 1n)
  })
})

describe('Adversary: restake (matured stakes closed into one new guarded stake)', () => {
  /**
   * restake(ids, hold, maxFee, minBonus, minReward) closes the caller's matured stakes and stakes all they pay for a new
   * term, the tokens never leaving the pool, bounded as the guarded stake (docs/contracts.md, "A close"). Attacks: an
   * EOA restaking a pending stake (alone or next to a matured one), ids of another user's stakes, the same id twice,
   * a closed id, no id; bounds the terms do not meet (fee, bonus, reward, hold, a reservoir short of the terms, paused
   * staking); an owner's setParameters that worsens the terms landing in the same block just before it (fee, bonus,
   * reward); and a contract re-entering restake from inside a payment of the pool (hook token). Each must be refused
   * with the custom error that names the reason, and nothing may move: balances, stakes and totals stay as they were.
   * Then the restake the holder was shown lands exactly: Unstaked per id, Restaked, one new stake of what they paid.
   */
  it('refuses pending, foreign, repeated and closed ids, unmet bounds, worsened terms and re-entry, moving nothing', async function () {
    this.timeout(120_000)
    const sys = await fresh()
    const pool = sys.poolV1
    const [U, O, A, H, X] = sys.users
    const res = await sys.reservoir.getAddress()
    // The pool's terms here: the defaults with a 50% fee, so that an owner can still raise it.
    const defaults = { ...poolParams(V1_PARAMS), unHoldFee: T(50) }
    await (await pool.setParameters(defaults)).wait()
    // From 06:00 UTC: the 1-day stakes below are made and X's fee charged well before their release day begins.
    await time.increaseTo((BigInt(await time.latest()) / DAY + 1n) * DAY + 6n * 3600n)
    // H holds for a year and X pays a fee that streams to the stakes at risk, U's among them.
    await (await stake2(pool, H, T(100_000), 365n * DAY)).wait()
    await (await stake2(pool, X, T(50_000), 365n * DAY)).wait()
    await (await stake2(pool, U, T(1000), DAY)).wait() // 0: matures
    await (await stake2(pool, U, T(2000), 30n * DAY)).wait() // 1: pending
    await (await stake2(pool, U, T(500), DAY)).wait() // 2: matures
    await (await stake2(pool, U, T(300), DAY)).wait() // 3: closed below
    for (let i = 0; i < 6; i++) await (await stake2(pool, O, T(5000) + BigInt(i), DAY)).wait() // O: ids 0..5
    await (await pool.connect(X).unstake([0])).wait()
    await time.increase(2n * DAY)
    await (await pool.connect(U).unstake([3])).wait()
    expect((await pool.getStake(U.address, 0)).gains, 'the matured stakes shared fees').to.be.greaterThan(0n)

    const stakesOf = async (who: string) => {
      const n = await pool.getUserStakesCount(who)
      const out: [bigint, boolean, bigint][] = []
      for (let i = 0n; i < n; i++) {
        const s = await pool.getStake(who, i)
        out.push([s.stakeAmount, s.active, s.closeTime])
      }
      return out
    }
    const books = async () => ({
      balances: [
        await balanceOf(sys, U.address),
        await balanceOf(sys, A.address),
        await balanceOf(sys, pool),
        await balanceOf(sys, res),
      ],
      stakes: [await stakesOf(U.address), await stakesOf(O.address), await stakesOf(A.address)],
      totals: [(await pool.getPoolState()).totalStaked, await pool.totalSupply(), await pool.getAllUserStakesAmount(U.address)],
    })
    const before = await books()
    const nothingMoved = async (tag: string) => expect(await books(), `${tag}: nothing moved`).to.deep.equal(before)
    const restake = (
      who: HardhatEthersSigner,
      ids: bigint[],
      hold: bigint,
      maxFee = MAX,
      minBonus = 0n,
      minReward = 0n,
      ov = {},
    ) => pool.connect(who).restake(ids, hold, maxFee, minBonus, minReward, ov)
    const refused = async (tag: string, tx: Promise<unknown>, error: string, args?: unknown[]) => {
      const m = expect(tx, tag).to.be.revertedWithCustomError(pool, error)
      await (args ? m.withArgs(...args) : m)
      await nothingMoved(tag)
    }

    // Ids that are not the caller's matured, active stakes.
    await refused('a pending stake', restake(U, [1n], 30n * DAY), 'StakeNotMatured', [1n])
    await refused('a matured stake next to a pending one', restake(U, [0n, 1n], 30n * DAY), 'StakeNotMatured', [1n])
    await refused('ids only another user has', restake(U, [4n], 30n * DAY), 'StakeNotFound', [4n])
    await refused('a caller without stakes', restake(A, [0n], 30n * DAY), 'StakeNotFound', [0n])
    await refused('the same id twice', restake(U, [0n, 0n], 30n * DAY), 'StakeNotActive', [0n])
    await refused('the same id twice, apart', restake(U, [0n, 2n, 0n], 30n * DAY), 'StakeNotActive', [0n])
    await refused('a closed stake', restake(U, [3n], 30n * DAY), 'StakeNotActive', [3n])
    await refused('no id', restake(U, [], 30n * DAY), 'NoStakeIds')

    // The terms the restake of [0, 2] for 30 days gets now: everything the two stakes pay, staked on today's terms.
    const ids = [0n, 2n]
    const hold = 30n * DAY
    const quote = async () => {
      const t = await pinNextTimestamp()
      const amount = (await expectedUnstake(pool, U.address, ids, t)).toUser
      return { t, amount, p: previewStake(await mathState(pool, PENDING), amount, hold, false) }
    }
    let { p } = await quote()
    const fee = landedFee(defaults.unHoldFee)
    expect(p.bonus + p.reward, 'fully funded').to.equal(p.bonusWanted + p.rewardWanted)
    await refused('a fee above the bound', restake(U, ids, hold, fee - 1n, p.bonus, p.reward), 'FeeAboveMax', [fee, fee - 1n])
    ;({ p } = await quote())
    await refused('a bonus below the bound', restake(U, ids, hold, fee, p.bonus + 1n, p.reward), 'BonusBelowMin', [
      p.bonus,
      p.bonus + 1n,
    ])
    ;({ p } = await quote())
    await refused('a reward below the bound', restake(U, ids, hold, fee, p.bonus, p.reward + 1n), 'RewardBelowMin', [
      p.reward,
      p.reward + 1n,
    ])
    await refused('a hold of 0', restake(U, ids, 0n), 'InvalidHoldTime')
    await refused('a hold past holdTimeMax', restake(U, ids, defaults.holdTimeMax + DAY), 'InvalidHoldTime')
    // A reservoir that cannot fund the terms says what it could (here nothing), as every stake form does.
    const allowance = await sys.token.allowance(res, await pool.getAddress())
    ;({ p } = await quote())
    await (await sys.reservoir.approvePool(await sys.token.getAddress(), await pool.getAddress(), 0n)).wait()
    await refused('a drained allowance', restake(U, ids, hold, fee, p.bonus, p.reward), 'RewardsUnavailable', [0n, 0n])
    await (await sys.reservoir.approvePool(await sys.token.getAddress(), await pool.getAddress(), allowance)).wait()
    await (await pool.setStakingPaused(true)).wait()
    await refused('staking paused', restake(U, ids, hold, fee, 0n, 0n), 'StakingIsPaused')
    await (await pool.setStakingPaused(false)).wait()

    // The owner's worse terms land in the same block just before the restake the holder was shown: refused, naming
    // the term that got worse (the fee is checked first, then the bonus, then the reward).
    const frontRun = async (tag: string, params: Params, error: (b: StakeBounds, landed: StakePreview) => string) => {
      const q = await quote()
      const b = boundsOf(q.p)
      const landed = previewStake({ ...(await mathState(pool, PENDING)), ...params }, q.amount, hold, false)
      const [set, re] = await inOneBlock([
        (ov) => pool.setParameters(params, ov),
        (ov) => restake(U, ids, hold, b.maxFee, b.minBonus, b.minReward, ov),
      ])
      expect([set.status, re.status], `${tag}: parameters changed, restake refused`).to.deep.equal([1, 0])
      expect(await revertOf(pool, re.hash), tag).to.equal(error(b, landed))
      await (await pool.setParameters(defaults)).wait()
      await nothingMoved(tag)
    }
    await frontRun('fee raised', { ...defaults, unHoldFee: defaults.unHoldFee + T(1) }, (b) => {
      return `FeeAboveMax(${landedFee(defaults.unHoldFee + T(1))}, ${b.maxFee})`
    })
    await frontRun('length bonus lowered', { ...defaults, timeBonusPercent: defaults.timeBonusPercent / 2n }, (b, l) => {
      return `BonusBelowMin(${l.bonus}, ${b.minBonus})`
    })
    await frontRun('inflation lowered', { ...defaults, inflationPercent: defaults.inflationPercent / 2n }, (b, l) => {
      return `RewardBelowMin(${l.reward}, ${b.minReward})`
    })

    // A contract restaking: its pending stake is refused, and restake re-entered from inside a payment of the pool (a
    // hook token calls it back) is refused by the reentrancy guard, like every other entry point; the stake it named
    // stays active, and restakes once the payment is over.
    const hook = await new AdvHookToken__factory(sys.owner).deploy()
    const hookAddr = await hook.getAddress()
    const hp = await newPool(sys, 1, defaults, DEFAULT_TERMS, hookAddr)
    const hpAddr = await hp.getAddress()
    await (await hook.mint(res, T(1_000_000))).wait()
    await (await sys.reservoir.approvePool(hookAddr, hpAddr, T(1_000_000))).wait()
    const att = await new AdvReentrantStaker__factory(sys.owner).deploy()
    const attAddr = await att.getAddress()
    await (await hook.mint(attAddr, T(1000))).wait()
    await (await att.setup(hpAddr, hookAddr)).wait()
    await (await att.doStake(T(100), 30n * DAY)).wait() // 0: pending, closed early below
    await (await att.doStake(T(200), DAY)).wait() // 1: matures
    await time.increase(2n * DAY)
    const held = await hook.balanceOf(attAddr)
    await expect(att.doRestake([0n], 30n * DAY))
      .to.be.revertedWithCustomError(hp, 'StakeNotMatured')
      .withArgs(0n)
    await expect(att.doRestake([1n, 1n], 30n * DAY))
      .to.be.revertedWithCustomError(hp, 'StakeNotActive')
      .withArgs(1n)
    expect(await hook.balanceOf(attAddr)).to.equal(held)
    await (await att.setRestake([1n])).wait()
    await (await att.attack(0)).wait()
    const guard = hp.interface.getError('ReentrancyGuardReentrantCall')!.selector
    expect(await att.attempts()).to.equal(4n)
    expect(await att.successes(), 'a re-entry succeeded').to.equal(0n)
    expect(await att.errors(), 'each re-entry (close, stake, sweep, restake) refused by the guard').to.deep.equal([
      guard,
      guard,
      guard,
      guard,
    ])
    expect((await hp.getStake(attAddr, 1)).active, 'the stake named in the re-entered restake').to.equal(true)
    expect(await hp.getUserStakesCount(attAddr)).to.equal(2n)
    await expect(att.doRestake([1n], 30n * DAY)).to.emit(hp, 'Restaked')

    // The restake the holder was shown lands exactly: each stake closed as unstake would close it, all it paid staked
    // for the new term on the terms shown, the tokens never leaving the pool.
    const { t, amount: due, p: shown } = await quote()
    const e = await expectedUnstake(pool, U.address, ids, t)
    const b = boundsOf(shown)
    const newId = await pool.getUserStakesCount(U.address)
    const rate = await pool.getRate(PENDING)
    const funded = shown.bonus + shown.reward
    const tx = restake(U, ids, hold, b.maxFee, b.minBonus, b.minReward)
    expect(await poolEvents(pool, tx, ['Unstaked', 'Staked'])).to.deep.equal([
      ...ids.map((id, i) => ['Unstaked', [U.address, id, e.closes[i].amountOut, e.closes[i].fee, e.closes[i].forfeited]]),
      ['Staked', [U.address, newId, due, shown.bonus, shown.reward, shown.shares, shown.holdTime, ZERO]],
    ])
    await expect(tx).to.emit(pool, 'Restaked').withArgs(U.address, newId, ids, due)
    await expect(tx).to.changeTokenBalances(
      sys.token,
      [U, pool, sys.reservoir],
      [0n, funded - e.toReservoir, e.toReservoir - funded],
    )
    expect(e.closes.every((c) => c.matured && c.fee === 0n && c.forfeited === 0n)).to.equal(true)
    const s = await pool.getStake(U.address, newId)
    expect([s.active, s.stakeAmount, s.bonus, s.reward, s.holdTime, s.stakeTime, s.entryRate]).to.deep.equal([
      true,
      due,
      shown.bonus,
      shown.reward,
      hold,
      t,
      rate,
    ])
    for (const id of ids) expect((await pool.getStake(U.address, id)).closeTime).to.equal(t)
    await expect(restake(U, [0n], hold))
      .to.be.revertedWithCustomError(pool, 'StakeNotActive')
      .withArgs(0n)
  })
})
