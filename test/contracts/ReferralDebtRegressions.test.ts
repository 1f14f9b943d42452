/**
 * Regression tests for issue 40 (pool version 1): the referral debt lives on each referred stake, so a new referral
 * never keeps an old debt alive and a referred stake that closes takes its debt with it; a referer's early close pays
 * back only what it owes for referred stakes still open (as funded); a stake stops sharing early-close fees at the
 * start of its release day; and restake() turns matured stakes into a new one without the tokens leaving the pool.
 *
 * Expected figures come from src/domain/math.ts or explicit bigint arithmetic on the stakes' known terms, never from
 * the pool's own views (restake's payout excepted: what the views show is what the new stake must hold). Balances are
 * read from the token, and the fee stream's growth from getFeeStream at the close's timestamp.
 */
import { expect } from 'chai'
import { ethers } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { anyValue } from '@nomicfoundation/hardhat-chai-matchers/withArgs'
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/signers'
import type { TransactionReceipt } from 'ethers'
import { deploySystemWith } from './fixtures'
import { PENDING, approveUnlimited, poolLogs } from './helpers'
import { V1_PARAMS } from '../../scripts/lib/system'
import {
  BACKING_UNIT,
  DAY,
  FEE_STREAM,
  ONE,
  PERCENT,
  VIRTUAL_SHARES,
  extendedStreamEnd,
  lengthBonusPercent,
  poolParams,
  previewStake,
  referralBonus,
  referralBonusPercent,
  referralDebtUnits,
  referralPayback,
  repaidShare,
  expiryDay,
  shareFee,
  unstakePreview,
  type ClosePreview,
  type PoolParams,
  type StakePreview,
} from '../../src/domain/math'

const T = (n: number | bigint) => BigInt(n) * ONE
const ZERO = ethers.ZeroAddress
const MAX_HOLD = 1095n * DAY
const fmt = (x: bigint) => ethers.formatUnits(x, 18)

async function fixture() {
  return deploySystemWith()
}
type Fixture = Awaited<ReturnType<typeof fixture>>

/** The version 1 pool with the parameters its new stakes get (kept here, so expectations never read the pool). */
interface World {
  f: Fixture
  pool: Fixture['poolV1']
  poolAddr: string
  resAddr: string
  params: PoolParams
}

async function world(): Promise<World> {
  const f = await loadFixture(fixture)
  return {
    f,
    pool: f.poolV1,
    poolAddr: await f.poolV1.getAddress(),
    resAddr: await f.reservoir.getAddress(),
    params: poolParams(V1_PARAMS),
  }
}

/** What the reservoir can fund for the pool, from the token: the smaller of its balance and the pool's allowance. */
async function available(w: World): Promise<bigint> {
  const [balance, allowed] = [await w.f.token.balanceOf(w.resAddr), await w.f.token.allowance(w.resAddr, w.poolAddr)]
  return balance < allowed ? balance : allowed
}

const balances = (w: World, addrs: string[]) => Promise.all(addrs.map((a) => w.f.token.balanceOf(a)))

/** Args of `names` events in `rc`, in log order, as plain arrays. */
const plain = (v: unknown): unknown => (Array.isArray(v) ? [...v].map(plain) : v)
function eventsOf(w: World, rc: TransactionReceipt, name: string): unknown[][] {
  return poolLogs(w.pool, rc, [name]).map(([, args]) => plain(args) as unknown[])
}

/** Runs `send` in a block at `at`. */
async function at(t: bigint, send: () => Promise<{ wait: () => Promise<unknown> }>) {
  await time.setNextBlockTimestamp(t)
  await (await send()).wait()
}

async function setParams(w: World, over: Partial<PoolParams>, t: bigint) {
  w.params = { ...w.params, ...over }
  await at(t, () => w.pool.setParameters(w.params))
}

interface Made {
  user: string
  id: bigint
  amount: bigint
  hold: bigint
  time: bigint
  preview: StakePreview
}

/**
 * stake(amount, hold[, referer]) (or, with `minimums`, the five-argument form) by `u` at `t`; checks its Staked (and
 * RewardsShort) event and the balances of user, pool and reservoir against previewStake.
 */
async function stakeAt(
  w: World,
  u: HardhatEthersSigner,
  amount: bigint,
  hold: bigint,
  t: bigint,
  opts: { referer?: string; minimums?: [bigint, bigint] } = {},
): Promise<Made> {
  const id = await w.pool.getUserStakesCount(u.address)
  const state = { version: 1 as const, rate: ONE, totalShares: 0n, ...w.params, reservoirAvailable: await available(w) }
  const preview = previewStake(state, amount, hold, opts.referer !== undefined)
  const parties = [u.address, w.poolAddr, w.resAddr]
  const before = await balances(w, parties)
  const referer = opts.referer ?? ZERO
  const p = w.pool.connect(u)
  await time.setNextBlockTimestamp(t)
  const tx = opts.minimums
    ? p['stake(uint256,uint256,address,uint256,uint256)'](amount, hold, referer, ...opts.minimums)
    : opts.referer
      ? p['stake(uint256,uint256,address)'](amount, hold, referer)
      : p['stake(uint256,uint256)'](amount, hold)
  const rc = (await (await tx).wait())!
  const funded = preview.bonus + preview.reward
  const short = preview.bonusWanted + preview.rewardWanted > funded
  const label = `stake ${id} of ${u.address}`
  expect(eventsOf(w, rc, 'RewardsShort'), `${label}: RewardsShort`).to.deep.equal(
    short ? [[u.address, id, preview.bonusWanted, preview.rewardWanted]] : [],
  )
  expect(eventsOf(w, rc, 'Staked'), `${label}: Staked`).to.deep.equal([
    [u.address, id, amount, preview.bonus, preview.reward, amount, preview.holdTime, referer],
  ])
  const after = await balances(w, parties)
  expect(
    after.map((a, i) => a - before[i]),
    `${label}: user, pool, reservoir`,
  ).to.deep.equal([-amount, amount + funded, -funded])
  return { user: u.address, id, amount, hold: preview.holdTime, time: t, preview }
}

/** What closing `m` at `t` pays (math.ts), with the rate grown by `rateGain` since it was staked at rate 1e18. */
function closeOf(m: Made, t: bigint, rateGain = 0n): ClosePreview {
  const s = {
    stakeAmount: m.amount,
    bonus: m.preview.bonus,
    reward: m.preview.reward,
    lpAmount: m.amount,
    unHoldFee: m.preview.feeFraction * 100n,
    entryRate: ONE,
    stakeTime: m.time,
    holdTime: m.preview.holdTime,
  }
  return unstakePreview(s, ONE + rateGain, t)
}

interface Closed {
  unstaked: unknown[][]
  paidBack: unknown[][]
  released: unknown[][]
  toUser: bigint
  toReservoir: bigint
  fromPool: bigint
  /** How much the fee stream's pending amount grew in the close (both read at the close's timestamp). */
  streamed: bigint
  pending: bigint
  streamEnd: bigint
}

/** unstake(ids) by `u` at `t`: its events, the token balances it moved, and what it added to the fee stream. */
async function closeAt(w: World, u: HardhatEthersSigner, ids: bigint[], t: bigint): Promise<Closed> {
  const parties = [u.address, w.poolAddr, w.resAddr]
  const before = await balances(w, parties)
  await time.setNextBlockTimestamp(t)
  const [pendingBefore] = await w.pool.getFeeStream(PENDING)
  const rc = (await (await w.pool.connect(u).unstake(ids)).wait())!
  const after = await balances(w, parties)
  const [pending, streamEnd] = await w.pool.getFeeStream()
  return {
    unstaked: eventsOf(w, rc, 'Unstaked'),
    paidBack: eventsOf(w, rc, 'ReferralPaidBack'),
    released: eventsOf(w, rc, 'FeesReleased'),
    toUser: after[0] - before[0],
    fromPool: before[1] - after[1],
    toReservoir: after[2] - before[2],
    streamed: pending - pendingBefore,
    pending,
    streamEnd,
  }
}

/**
 * Referer `R`'s early close at `t` (previewed as `fr`) while it owes nothing: no payback, its whole fee streams to the
 * holders and the reservoir gets its forfeited terms only.
 */
async function closeOwingNothing(w: World, R: HardhatEthersSigner, fr: ClosePreview, t: bigint): Promise<Closed> {
  const cr = await closeAt(w, R, [0n], t)
  expect(cr.unstaked).to.deep.equal([[R.address, 0n, fr.amountOut, fr.fee, fr.forfeited]])
  expect(cr.paidBack, 'ReferralPaidBack').to.deep.equal([])
  expect(
    [cr.toReservoir, cr.streamed],
    `R's fee ${fmt(fr.fee)}: to the reservoir ${fmt(cr.toReservoir)} (forfeited ${fmt(fr.forfeited)}), streamed ${fmt(cr.streamed)}`,
  ).to.deep.equal([fr.forfeited, fr.fee])
  return cr
}

/** What the referer owes for referred stake `m` (base units): its funded referral bonus, whole BACKING_UNITs down. */
function lienOf(p: PoolParams, m: Made): bigint {
  const referral = referralBonusPercent(p.refererBonusPercent, true, m.hold, p.holdTimeMax)
  const bonusPercent = lengthBonusPercent(p.timeBonusPercent, m.hold, p.holdTimeMax) + referral
  const nominal = referralBonus(m.amount, p.refererBonusPercent, m.hold, p.holdTimeMax)
  return referralDebtUnits(nominal, m.preview.bonus, referral, bonusPercent) * BACKING_UNIT
}

/**
 * The pool's fee stream as the contract books it (unix times; only differences count): each checkpoint releases the
 * pending fees pro rata up to its time to the shares at risk then; a close's fee joins with the weighted stream end.
 */
class Stream {
  pending = 0n
  last = 0n
  end = 0n
  rate = ONE

  release(t: bigint, atRisk: bigint): { released: bigint; toHolders: bigint; step: bigint } {
    const none = { released: 0n, toHolders: 0n, step: 0n }
    if (this.pending === 0n || t <= this.last) return none
    const released = t >= this.end ? this.pending : (this.pending * (t - this.last)) / (this.end - this.last)
    if (released === 0n) return none
    this.pending -= released
    const shared = shareFee(released, this.rate, atRisk)
    const step = shared.rate - this.rate
    this.rate = shared.rate
    this.last = t
    return { released, toHolders: shared.toHolders, step }
  }

  /** A close at `t` (after release(t)) that streams `fee`. */
  add(fee: bigint, t: bigint) {
    if (fee !== 0n) {
      this.end = extendedStreamEnd(this.pending, fee, this.end, t)
      this.pending += fee
    }
    this.last = t
  }
}

describe('Referral debt and fee shares (issue 40)', () => {
  it('a 1-wei referral keeps no old debt alive', async () => {
    const w = await world()
    const { pool } = w
    const [R, X, G] = w.f.users
    const t0 = BigInt(await time.latest()) + 100n
    const r = await stakeAt(w, R, T(900_000), MAX_HOLD, t0)
    const x = await stakeAt(w, X, T(100_000), 30n * DAY, t0 + 1n, { referer: R.address })
    // Rule A: length and referral parts each grow with the hold, each rounded down.
    expect([r.preview.bonus, r.preview.reward]).to.deep.equal([T(270_000), T(10_800_000)])
    const pct = (30n * ONE * 30n) / 1095n + (5n * ONE * 30n) / 1095n
    expect(x.preview.bonus).to.equal((T(100_000) * (pct / 100n)) / ONE)
    const lien = lienOf(w.params, x)
    // 100,000 x (5% x 30 / 1,095) = 136.986301369863 tokens, in whole 2^24-wei units rounded down.
    expect(lien, 'X is owed for').to.equal(136_986_301_369_858_129_920n)
    expect(await pool.getReferral(X.address, 0n)).to.deep.equal([R.address, 0n, lien])
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([lien, 0n, 0n])

    // Day 29: a griefer names R for 1 wei over 1,000 days. Its bonus rounds to nothing: it owes nothing, extends nothing.
    const g = await stakeAt(w, G, 1n, 1000n * DAY, t0 + 29n * DAY, { referer: R.address })
    expect(g.preview.bonus).to.equal(0n)
    expect((await pool.getReferral(G.address, 0n))[2], 'the 1-wei referral owes').to.equal(0n)
    expect(await pool.getReferralBacking(R.address, 0n), 'R after the 1-wei referral').to.deep.equal([lien, 0n, 0n])

    // X matures and is paid in full: R owes nothing for it any more.
    const tX = x.time + 30n * DAY
    const fx = closeOf(x, tX)
    expect(fx.matured).to.equal(true)
    const cx = await closeAt(w, X, [0n], tX)
    expect(cx.unstaked).to.deep.equal([[X.address, 0n, T(100_000) + x.preview.bonus + x.preview.reward, 0n, 0n]])
    expect([cx.toUser, cx.toReservoir, cx.streamed]).to.deep.equal([fx.amountOut, 0n, 0n])
    expect(await pool.getReferralBacking(R.address, 0n), 'R after X closed matured').to.deep.equal([0n, 0n, 0n])

    // Day 100: R closes early. Its whole fee streams to the holders; the reservoir gets R's forfeited terms only.
    const tr = t0 + 100n * DAY
    const fr = closeOf(r, tr)
    expect(fr.fee).to.equal((T(900_000) * ONE * (MAX_HOLD - 100n * DAY)) / MAX_HOLD / ONE)
    const cr = await closeOwingNothing(w, R, fr, tr)
    expect(cr.toUser).to.equal(fr.received)
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, 0n, 0n])
  })

  it('a forfeited bonus is not owed', async () => {
    const w = await world()
    const { pool, f } = w
    const [R, , G, H] = w.f.users
    await approveUnlimited(f.reservoir, f.token, w.poolAddr)
    await f.token.mint(R.address, T(9_000_000))
    await f.token.mint(G.address, T(9_000_000))
    const t0 = BigInt(await time.latest()) + 100n
    const h = await stakeAt(w, H, T(100_000), MAX_HOLD, t0)
    const r = await stakeAt(w, R, T(10_000_000), MAX_HOLD, t0 + 1n)
    await setParams(w, { unHoldFee: 0n }, t0 + 2n)

    // The griefer names R for 10,000,000 over 1,001 days, at no fee, and closes a second later forfeiting its bonus.
    const g = await stakeAt(w, G, T(10_000_000), 1001n * DAY, t0 + 3n, { referer: R.address })
    expect(g.preview.feeFraction).to.equal(0n)
    const lien = lienOf(w.params, g)
    expect(lien, 'the griefer is owed for').to.be.greaterThan(T(450_000))
    expect(await pool.getReferral(G.address, 0n)).to.deep.equal([R.address, 0n, lien])
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([lien, 0n, 0n])
    const fg = closeOf(g, g.time + 1n)
    const cg = await closeAt(w, G, [0n], g.time + 1n)
    expect(cg.unstaked).to.deep.equal([[G.address, 0n, fg.amountOut, 0n, fg.forfeited]])
    expect([cg.toUser, cg.toReservoir, cg.streamed], 'griefer: user, reservoir, streamed').to.deep.equal([
      fg.amountOut,
      fg.forfeited,
      0n,
    ])
    expect((await pool.getReferral(G.address, 0n))[2], 'owed for the closed griefer').to.equal(0n)
    expect(await pool.getReferralBacking(R.address, 0n), 'R after the griefer closed').to.deep.equal([0n, 0n, 0n])

    // Day 10: R closes early and pays back nothing.
    const tr = r.time + 10n * DAY
    const fr = closeOf(r, tr)
    const cr = await closeOwingNothing(w, R, fr, tr)
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, 0n, 0n])

    // The holder, the only stake at risk, gets all of it but the virtual shares' part once the stream is over.
    const end = tr + FEE_STREAM
    expect(cr.streamEnd).to.equal(end)
    await time.increaseTo(end + 1n)
    const step = (fr.fee * ONE) / (h.amount + VIRTUAL_SHARES)
    expect((await pool.getStakeInfo(H.address, 0n)).stake.gains).to.equal((h.amount * step) / ONE)
  })

  it('both together', async () => {
    const w = await world()
    const { pool, f } = w
    const [R, X, G1, H, G2] = w.f.users
    await approveUnlimited(f.reservoir, f.token, w.poolAddr)
    await f.token.mint(R.address, T(9_000_000))
    await f.token.mint(G2.address, T(9_000_000))
    const t0 = BigInt(await time.latest()) + 100n
    const h = await stakeAt(w, H, T(100_000), MAX_HOLD, t0)
    const r = await stakeAt(w, R, T(10_000_000), MAX_HOLD, t0 + 1n)
    const x = await stakeAt(w, X, T(100_000), 30n * DAY, t0 + 2n, { referer: R.address })
    const lienX = lienOf(w.params, x)
    expect(lienX).to.be.greaterThan(0n)
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([lienX, 0n, 0n])
    const g1 = await stakeAt(w, G1, 1n, 1000n * DAY, r.time + 29n * DAY, { referer: R.address })
    expect(await pool.getReferralBacking(R.address, 0n), 'after the 1-wei referral').to.deep.equal([lienX, 0n, 0n])
    const fx = closeOf(x, x.time + 30n * DAY)
    const cx = await closeAt(w, X, [0n], x.time + 30n * DAY)
    expect([cx.toUser, cx.toReservoir, cx.streamed]).to.deep.equal([fx.amountOut, 0n, 0n])
    expect(await pool.getReferralBacking(R.address, 0n), 'after X closed matured').to.deep.equal([0n, 0n, 0n])

    await setParams(w, { unHoldFee: 0n }, x.time + 30n * DAY + 10n)
    const g2 = await stakeAt(w, G2, T(10_000_000), 1001n * DAY, x.time + 30n * DAY + 20n, { referer: R.address })
    const lienG = lienOf(w.params, g2)
    expect(lienG).to.be.greaterThan(T(450_000))
    expect(await pool.getReferral(G2.address, 0n)).to.deep.equal([R.address, 0n, lienG])
    expect(await pool.getReferralBacking(R.address, 0n), 'after the large referral').to.deep.equal([lienG, 0n, 0n])
    const fg = closeOf(g2, g2.time + 1n)
    const cg = await closeAt(w, G2, [0n], g2.time + 1n)
    expect([cg.toUser, cg.toReservoir, cg.streamed]).to.deep.equal([fg.amountOut, fg.forfeited, 0n])
    expect(await pool.getReferralBacking(R.address, 0n), 'after the large referral closed').to.deep.equal([0n, 0n, 0n])

    // Day 500: R's whole fee goes to the holders.
    const tr = r.time + 500n * DAY
    const fr = closeOf(r, tr)
    const cr = await closeOwingNothing(w, R, fr, tr)
    expect(cr.toUser).to.equal(fr.received)
    // Once streamed, the holder and the 1-wei stake (both at risk) share it with the virtual shares.
    await time.increaseTo(tr + FEE_STREAM + 1n)
    const step = (fr.fee * ONE) / (h.amount + g1.amount + VIRTUAL_SHARES)
    expect((await pool.getStakeInfo(H.address, 0n)).stake.gains).to.equal((h.amount * step) / ONE)
    expect(await pool.getRate()).to.equal(ONE + step)
  })

  it('an unfunded bonus is owed as funded', async () => {
    const w = await world()
    const { pool, f } = w
    const [R, X] = w.f.users
    const t0 = BigInt(await time.latest()) + 100n
    const r = await stakeAt(w, R, T(900_000), MAX_HOLD, t0)
    // The reservoir's owner cuts the pool's allowance: it can fund nothing.
    await at(t0 + 5n, () => f.reservoir.approvePool(f.token.getAddress(), w.poolAddr, 0n))
    expect(await available(w)).to.equal(0n)
    const x = await stakeAt(w, X, T(100_000), 30n * DAY, t0 + 10n, { referer: R.address, minimums: [0n, 0n] })
    expect([x.preview.bonus, x.preview.reward]).to.deep.equal([0n, 0n])
    expect(x.preview.bonusWanted).to.be.greaterThan(0n)
    expect(lienOf(w.params, x)).to.equal(0n)
    expect((await pool.getReferral(X.address, 0n))[2], 'owed for the unfunded referral').to.equal(0n)
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, 0n, 0n])

    const tr = t0 + 10n * DAY
    const fr = closeOf(r, tr)
    const cr = await closeOwingNothing(w, R, fr, tr)
    expect(cr.toUser).to.equal(fr.received)
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, 0n, 0n])
  })

  it('a matured stake stops sharing fees at its release day', async () => {
    const w = await world()
    const { pool } = w
    const [A, B, C] = w.f.users
    // Stakes made an hour into a UTC day: A's release day starts an hour before A is released.
    const base = (BigInt(await time.latest()) / DAY + 2n) * DAY
    const c0 = await stakeAt(w, C, T(100_000), MAX_HOLD, base + 3597n)
    const c1 = await stakeAt(w, C, T(700_000), MAX_HOLD, base + 3598n)
    const b = await stakeAt(w, B, T(100_000), MAX_HOLD, base + 3599n)
    const a = await stakeAt(w, A, T(100_000), DAY, base + 3600n)
    const D = expiryDay(a.time, a.hold) * DAY
    expect(D).to.equal(base + DAY)
    const s = new Stream()

    // Before A's release day: C closes a small stake early; its fee streams to A, B and C's other stake.
    const t1 = base + 7200n
    const f0 = closeOf(c0, t1)
    const cl0 = await closeAt(w, C, [0n], t1)
    expect(cl0.unstaked).to.deep.equal([[C.address, 0n, f0.amountOut, f0.fee, f0.forfeited]])
    expect(cl0.streamed).to.equal(f0.fee)
    s.add(f0.fee, t1)
    expect([cl0.pending, cl0.streamEnd]).to.deep.equal([s.pending, s.end])

    // A's release day begins: A's gains then, and A leaves the shares at risk (not the supply).
    await time.setNextBlockTimestamp(D)
    const r1 = s.release(D, a.amount + b.amount + c1.amount)
    const gainsA = (a.amount * (s.rate - ONE)) / ONE
    expect(gainsA, 'A shared the first fee until its release day').to.be.greaterThan(0n)
    expect((await pool.getStakeInfo(A.address, 0n, PENDING)).stake.gains, "A's gains at its release day start").to.equal(gainsA)
    const atD = await pool.getPoolState(PENDING)
    expect([atD.totalShares, atD.totalStaked, await pool.totalSupply(PENDING)]).to.deep.equal([
      b.amount + c1.amount,
      a.amount + b.amount + c1.amount,
      a.amount + b.amount + c1.amount,
    ])
    await ethers.provider.send('evm_mine', [])

    // Half an hour into A's release day (before A matures) C closes its large stake early.
    const t2 = D + 1800n
    expect(t2).to.be.lessThan(a.time + a.hold)
    const r2 = s.release(t2, b.amount + c1.amount)
    const f1 = closeOf(c1, t2, s.rate - ONE)
    const cl1 = await closeAt(w, C, [1n], t2)
    expect(cl1.released, 'FeesReleased at the large close').to.deep.equal([
      [r1.released + r2.released, r1.toHolders + r2.toHolders, s.rate],
    ])
    expect(cl1.unstaked).to.deep.equal([[C.address, 1n, f1.amountOut, f1.fee, f1.forfeited]])
    expect(cl1.streamed).to.equal(f1.fee)
    s.add(f1.fee, t2)
    expect([cl1.pending, cl1.streamEnd]).to.deep.equal([s.pending, s.end])
    const afterClose = await pool.getPoolState()
    expect([afterClose.totalShares, afterClose.totalStaked, await pool.totalSupply()]).to.deep.equal([
      b.amount,
      a.amount + b.amount,
      a.amount + b.amount,
    ])
    const gainsBAtT2 = (b.amount * (s.rate - ONE)) / ONE

    // After the stream: A's gains are what they were at its release day start; B, alone at risk, got the rest.
    const t3 = s.end + DAY
    await time.setNextBlockTimestamp(t3)
    const pendingAtT2 = s.pending
    const r3 = s.release(t3, b.amount)
    expect(r3.released).to.equal(pendingAtT2)
    const step3 = (pendingAtT2 * ONE) / (b.amount + VIRTUAL_SHARES)
    expect(r3.step).to.equal(step3)
    const gainsB = (b.amount * (s.rate - ONE)) / ONE
    expect((await pool.getStakeInfo(A.address, 0n, PENDING)).stake.gains, "A's gains after the stream").to.equal(gainsA)
    expect((await pool.getStakeInfo(B.address, 0n, PENDING)).stake.gains, "B's gains after the stream").to.equal(gainsB)
    expect(gainsB - gainsBAtT2, "B's part of what was released after the large close").to.be.within(
      (b.amount * step3) / ONE,
      (b.amount * step3) / ONE + 1n,
    )
    // A closes matured: paid its terms and the gains of its release day start; the rest of the stream reaches B only.
    const ca = await closeAt(w, A, [0n], t3)
    expect(ca.released).to.deep.equal([[r3.released, r3.toHolders, s.rate]])
    expect(ca.unstaked).to.deep.equal([[A.address, 0n, a.amount + a.preview.bonus + a.preview.reward + gainsA, 0n, 0n]])
    expect([ca.toUser, ca.toReservoir]).to.deep.equal([a.amount + a.preview.bonus + a.preview.reward + gainsA, 0n])
    expect((await pool.getStakeInfo(B.address, 0n)).stake.gains).to.equal(gainsB)
  })

  it('referral payback still works: only the backing stake pays back the live lien, once; the referred stake forfeiting later streams it', async () => {
    const w = await world()
    const { pool } = w
    const [R, X, H] = w.f.users
    const t0 = BigInt(await time.latest()) + 100n
    const r0 = await stakeAt(w, R, T(100_000), MAX_HOLD, t0)
    const h = await stakeAt(w, H, T(100_000), MAX_HOLD, t0 + 1n)
    // R's latest stake, the one that backs X.
    const r1 = await stakeAt(w, R, T(800_000), MAX_HOLD, t0 + 2n)
    const x = await stakeAt(w, X, T(100_000), 365n * DAY, t0 + 3n, { referer: R.address })
    const lien = lienOf(w.params, x)
    expect(lien).to.be.greaterThan(0n)
    expect(await pool.getReferral(X.address, 0n)).to.deep.equal([R.address, 1n, lien])
    expect(await pool.getReferralBacking(R.address, 1n)).to.deep.equal([lien, 0n, 0n])
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, 0n, 0n])
    const s = new Stream()

    // Day 5: R closes its other stake early: it pays back nothing, its whole fee streams.
    const t5 = t0 + 5n * DAY
    const f0 = closeOf(r0, t5)
    const c0 = await closeAt(w, R, [0n], t5)
    expect(c0.unstaked).to.deep.equal([[R.address, 0n, f0.amountOut, f0.fee, f0.forfeited]])
    expect(c0.paidBack, "ReferralPaidBack of R's other stake").to.deep.equal([])
    expect([c0.toReservoir, c0.streamed]).to.deep.equal([f0.forfeited, f0.fee])
    s.add(f0.fee, t5)
    expect(await pool.getReferralBacking(R.address, 1n)).to.deep.equal([lien, 0n, 0n])

    // Day 10: R closes the backing stake early: its fee pays back X's lien to the reservoir, the rest streams.
    const t10 = t0 + 10n * DAY
    const rel1 = s.release(t10, h.amount + r1.amount + x.amount)
    const f1 = closeOf(r1, t10, s.rate - ONE)
    const split = referralPayback(f1.fee, lien / BACKING_UNIT)
    expect(split.toReservoir).to.equal(lien)
    const c1 = await closeAt(w, R, [1n], t10)
    expect(c1.released).to.deep.equal([[rel1.released, rel1.toHolders, s.rate]])
    expect(c1.unstaked).to.deep.equal([[R.address, 1n, f1.amountOut, f1.fee, f1.forfeited]])
    expect(c1.paidBack, 'ReferralPaidBack').to.deep.equal([[R.address, 1n, lien]])
    expect([c1.toReservoir, c1.streamed]).to.deep.equal([f1.forfeited + lien, f1.fee - lien])
    expect(c1.toUser).to.equal(f1.received)
    s.add(split.rest, t10)
    expect([c1.pending, c1.streamEnd]).to.deep.equal([s.pending, s.end])
    expect(await pool.getReferralBacking(R.address, 1n)).to.deep.equal([0n, lien, lien])

    // Day 20: X closes early, forfeiting its bonus: the part R paid back streams to the holders.
    const t20 = t0 + 20n * DAY
    const rel2 = s.release(t20, h.amount + x.amount)
    const fx = closeOf(x, t20, s.rate - ONE)
    const repaid = repaidShare(lien / BACKING_UNIT, lien, lien / BACKING_UNIT)
    expect(repaid).to.equal(lien)
    expect(fx.forfeited).to.be.greaterThan(lien)
    const cx = await closeAt(w, X, [0n], t20)
    expect(cx.released).to.deep.equal([[rel2.released, rel2.toHolders, s.rate]])
    expect(cx.unstaked).to.deep.equal([[X.address, 0n, fx.amountOut, fx.fee, fx.forfeited]])
    expect(cx.paidBack).to.deep.equal([])
    expect(
      [cx.toReservoir, cx.streamed],
      `X forfeits ${fmt(fx.forfeited)} (fee ${fmt(fx.fee)}); R paid back ${fmt(lien)}`,
    ).to.deep.equal([fx.forfeited - repaid, fx.fee + repaid])
    expect(cx.toUser).to.equal(fx.received)
    expect((await pool.getReferral(X.address, 0n))[2]).to.equal(0n)
    expect(await pool.getReferralBacking(R.address, 1n)).to.deep.equal([0n, lien, lien])
  })

  it('a partial payback is shared pro rata: the referred stake that forfeits streams its part, the matured one keeps its bonus', async () => {
    const w = await world()
    const { pool, f } = w
    const [R, X1, X2, H] = w.f.users
    await f.token.mint(X2.address, T(2_000_000))
    const t0 = BigInt(await time.latest()) + 100n
    const h = await stakeAt(w, H, T(100_000), MAX_HOLD, t0)
    const r = await stakeAt(w, R, T(900_000), MAX_HOLD, t0 + 1n)
    const x1 = await stakeAt(w, X1, T(100_000), 1000n * DAY, t0 + 2n, { referer: R.address })
    // Released earlier than X1, so R's fee at its release backs more than R's fee at X1's release.
    const x2 = await stakeAt(w, X2, T(3_000_000), 900n * DAY, t0 + 3n, { referer: R.address })
    const [u1, u2] = [lienOf(w.params, x1) / BACKING_UNIT, lienOf(w.params, x2) / BACKING_UNIT]
    expect(await pool.getReferral(X1.address, 0n)).to.deep.equal([R.address, 0n, u1 * BACKING_UNIT])
    expect(await pool.getReferral(X2.address, 0n)).to.deep.equal([R.address, 0n, u2 * BACKING_UNIT])
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([(u1 + u2) * BACKING_UNIT, 0n, 0n])

    // Day 950 (X2 released, still open; X1 running): R's fee is less than what it owes: all of it goes back.
    const tr = r.time + 950n * DAY
    const fr = closeOf(r, tr)
    const owed = (u1 + u2) * BACKING_UNIT
    expect(fr.fee, 'a fee short of the liens').to.be.lessThan(owed)
    const cr = await closeAt(w, R, [0n], tr)
    expect(cr.unstaked).to.deep.equal([[R.address, 0n, fr.amountOut, fr.fee, fr.forfeited]])
    expect(cr.paidBack).to.deep.equal([[R.address, 0n, fr.fee]])
    expect([cr.toReservoir, cr.streamed]).to.deep.equal([fr.forfeited + fr.fee, 0n])
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, owed, fr.fee])

    // Day 960: X1 closes early: its pro-rata part of the payback streams to the holders with its fee.
    const t1 = r.time + 960n * DAY
    const f1 = closeOf(x1, t1)
    const repaid = repaidShare(u1, fr.fee, u1 + u2)
    expect(repaid).to.equal((u1 * fr.fee) / (u1 + u2))
    const c1 = await closeAt(w, X1, [0n], t1)
    expect(c1.unstaked).to.deep.equal([[X1.address, 0n, f1.amountOut, f1.fee, f1.forfeited]])
    expect(
      [c1.toReservoir, c1.streamed],
      `X1 forfeits ${fmt(f1.forfeited)} (fee ${fmt(f1.fee)}); its part of R's payback ${fmt(repaid)}`,
    ).to.deep.equal([f1.forfeited - repaid, f1.fee + repaid])

    // Day 961: X2 closes matured, keeping its bonus: nothing more moves to the reservoir or the stream.
    const t2 = r.time + 961n * DAY
    const s = new Stream()
    s.add(f1.fee + repaid, t1)
    const rel = s.release(t2, h.amount)
    const f2 = closeOf(x2, t2)
    expect(f2.matured).to.equal(true)
    const c2 = await closeAt(w, X2, [0n], t2)
    expect(c2.released).to.deep.equal([[rel.released, rel.toHolders, s.rate]])
    expect(c2.unstaked).to.deep.equal([[X2.address, 0n, x2.amount + x2.preview.bonus + x2.preview.reward, 0n, 0n]])
    expect([c2.toUser, c2.toReservoir, c2.streamed]).to.deep.equal([f2.amountOut, 0n, 0n])
    expect(await pool.getReferralBacking(R.address, 0n)).to.deep.equal([0n, owed, fr.fee])
  })

  it('restake: matured stakes become one new stake without the tokens leaving the pool, cheaper than unstake + stake', async () => {
    const w = await world()
    const { pool, f } = w
    const [U, K, F] = w.f.users
    const YEAR_HOLD = 365n * DAY
    const t0 = BigInt(await time.latest()) + 100n
    await stakeAt(w, K, T(100_000), MAX_HOLD, t0)
    const fs = await stakeAt(w, F, T(200_000), MAX_HOLD, t0 + 1n)
    const s0 = await stakeAt(w, U, T(100_000), 30n * DAY, t0 + 2n)
    const s1 = await stakeAt(w, U, T(50_000), 60n * DAY, t0 + 3n)
    await stakeAt(w, U, T(10_000), YEAR_HOLD, t0 + 4n)
    // A fee that streams to the stakes at risk, U's two short ones among them.
    const ff = closeOf(fs, t0 + 5n * DAY)
    expect((await closeAt(w, F, [0n], t0 + 5n * DAY)).streamed).to.equal(ff.fee)

    const tR = t0 + 61n * DAY
    await time.increaseTo(tR - 100n)
    const u = pool.connect(U)
    await expect(u.restake([0n, 2n], YEAR_HOLD, PERCENT, 0n, 0n))
      .to.be.revertedWithCustomError(pool, 'StakeNotMatured')
      .withArgs(2n)
    await expect(u.restake([2n], YEAR_HOLD, PERCENT, 0n, 0n))
      .to.be.revertedWithCustomError(pool, 'StakeNotMatured')
      .withArgs(2n)
    await expect(u.restake([0n, 1n], YEAR_HOLD, PERCENT - 1n, 0n, 0n))
      .to.be.revertedWithCustomError(pool, 'FeeAboveMax')
      .withArgs(PERCENT, PERCENT - 1n)
    await expect(u.restake([0n, 1n], YEAR_HOLD, PERCENT, T(1_000_000), 0n))
      .to.be.revertedWithCustomError(pool, 'BonusBelowMin')
      .withArgs(anyValue, T(1_000_000))
    await expect(u.restake([0n, 1n], YEAR_HOLD, PERCENT, 0n, T(10_000_000)))
      .to.be.revertedWithCustomError(pool, 'RewardBelowMin')
      .withArgs(anyValue, T(10_000_000))
    await at(tR - 50n, () => pool.setStakingPaused(true))
    await expect(u.restake([0n, 1n], YEAR_HOLD, PERCENT, 0n, 0n)).to.be.revertedWithCustomError(pool, 'StakingIsPaused')
    await at(tR - 40n, () => pool.setStakingPaused(false))
    expect(await pool.getUserActiveStakesCount(U.address), 'nothing closed by the refused restakes').to.equal(3n)

    // What the two matured stakes pay at tR: their terms and the fees they shared.
    await time.setNextBlockTimestamp(tR)
    const infos = [await pool.getStakeInfo(U.address, 0n, PENDING), await pool.getStakeInfo(U.address, 1n, PENDING)]
    for (const [i, m] of [s0, s1].entries()) {
      const info = infos[i]
      expect(info.stake.gains, `stake ${i} shared a fee`).to.be.greaterThan(0n)
      expect([info.amountOut, info.fee, info.forfeited]).to.deep.equal([
        m.amount + m.preview.bonus + m.preview.reward + info.stake.gains,
        0n,
        0n,
      ])
    }
    const amount = infos[0].amountOut + infos[1].amountOut
    const state = { version: 1 as const, rate: ONE, totalShares: 0n, ...w.params, reservoirAvailable: await available(w) }
    const p = previewStake(state, amount, YEAR_HOLD, false)
    const funded = p.bonus + p.reward

    // The same at the same moment as unstake, then stake of what it paid (undone afterwards): its gas.
    const snapshot = await ethers.provider.send('evm_snapshot', [])
    const before0 = await f.token.balanceOf(U.address)
    const gUnstake = (await (await u.unstake([0n, 1n])).wait())!.gasUsed
    expect((await f.token.balanceOf(U.address)) - before0).to.equal(amount)
    await time.setNextBlockTimestamp(tR + 1n)
    const gStake = (await (
      await u['stake(uint256,uint256,address,uint256,uint256,uint256)'](amount, YEAR_HOLD, ZERO, PERCENT, p.bonus, p.reward)
    ).wait())!.gasUsed
    await ethers.provider.send('evm_revert', [snapshot])

    const parties = [U.address, w.poolAddr, w.resAddr]
    const before = await balances(w, parties)
    await time.setNextBlockTimestamp(tR)
    const rc = (await (await u.restake([0n, 1n], YEAR_HOLD, PERCENT, p.bonus, p.reward)).wait())!
    const after = await balances(w, parties)
    expect(
      after.map((a, i) => a - before[i]),
      'user, pool, reservoir',
    ).to.deep.equal([0n, funded, -funded])
    expect(eventsOf(w, rc, 'Unstaked')).to.deep.equal([
      [U.address, 0n, infos[0].amountOut, 0n, 0n],
      [U.address, 1n, infos[1].amountOut, 0n, 0n],
    ])
    expect(eventsOf(w, rc, 'Staked')).to.deep.equal([[U.address, 3n, amount, p.bonus, p.reward, amount, YEAR_HOLD, ZERO]])
    expect(eventsOf(w, rc, 'Restaked')).to.deep.equal([[U.address, 3n, [0n, 1n], amount]])
    expect(eventsOf(w, rc, 'ReferralPaidBack')).to.deep.equal([])
    const n = await pool.getStake(U.address, 3n)
    expect([n.active, n.stakeAmount, n.bonus, n.reward, n.lpAmount, n.holdTime, n.stakeTime, n.gains]).to.deep.equal([
      true,
      amount,
      p.bonus,
      p.reward,
      amount,
      YEAR_HOLD,
      tR,
      0n,
    ])
    for (const [i, id] of [0n, 1n].entries()) {
      const info = await pool.getStakeInfo(U.address, id)
      expect([info.stake.active, info.stake.closeTime, info.stake.gains, info.amountOut]).to.deep.equal([
        false,
        tR,
        infos[i].stake.gains,
        infos[i].amountOut,
      ])
    }
    expect([await pool.getUserStakesCount(U.address), await pool.getUserActiveStakesCount(U.address)]).to.deep.equal([4n, 2n])
    const gRestake = rc.gasUsed
    expect(
      gRestake < gUnstake + gStake,
      `restake ${gRestake} gas, unstake ${gUnstake} + stake ${gStake} = ${gUnstake + gStake}`,
    ).to.equal(true)
  })
})
