import { expect } from 'chai'
import hre, { ethers } from 'hardhat'
import type { Addressable, ContractTransactionResponse, Result, TransactionReceipt } from 'ethers'
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/signers'
import {
  BACKING_UNIT,
  DAY,
  expiryDay,
  normalizeHoldTime,
  referralBonus,
  referralCapacity,
  referralPayback,
  repaidShare,
  previewStake,
  unstakePreview,
  type ClosePreview,
  type PoolVersion,
  type StakePreview,
  type StakeMath,
} from '../../src/domain/math'
import type { ImplAndTermsV1, ImplAndTermsV2, PlatformToken } from '../../src/chain/types'
import { mathState } from '../../scripts/lib/poolState'

export type Pool = ImplAndTermsV1 | ImplAndTermsV2

/**
 * Under `hardhat coverage` every opcode is instrumented and runs many times slower: suites that only need size to make
 * a point about cost use less of it there, since coverage measures which lines run, not what they cost.
 */
export const COVERAGE = Boolean((hre as unknown as { __SOLIDITY_COVERAGE_RUNNING?: boolean }).__SOLIDITY_COVERAGE_RUNNING)
type Account = HardhatEthersSigner | Addressable

/** Views of the block `pinNextTimestamp` set up: they see the pinned time (and the fees streamed until then). */
export const PENDING = { blockTag: 'pending' } as const

/** An active stake's terms as the close arithmetic reads them (from getStake). */
export async function stakeMath(
  pool: Pool,
  user: string,
  id: number | bigint,
  at: { blockTag?: string } = {},
): Promise<StakeMath> {
  const s = await pool.getStake(user, id, at)
  return {
    stakeAmount: s.stakeAmount,
    bonus: s.bonus,
    reward: s.reward,
    lpAmount: s.lpAmount,
    unHoldFee: s.unHoldFee,
    entryRate: s.entryRate,
    stakeTime: s.stakeTime,
    holdTime: s.holdTime,
  }
}

/** Fixes the next block's timestamp (latest + `after` seconds) and returns it. */
export async function pinNextTimestamp(after = 1n): Promise<bigint> {
  const t = BigInt((await ethers.provider.getBlock('latest'))!.timestamp) + after
  await ethers.provider.send('evm_setNextBlockTimestamp', [Number(t)])
  return t
}

const addressOf = async (a: Account | string) => (typeof a === 'string' ? a : 'address' in a ? a.address : await a.getAddress())

export interface BatchClose {
  closes: ClosePreview[]
  stakes: StakeMath[]
  /** Paid to the user: the sum of amountOut - fee. */
  toUser: bigint
  /**
   * Back to the reservoir: forfeited bonus and reward, what of the fees pays back the referral bonuses the closer
   * still owes as a referer, version 2's fees, and, when the last share burns, what no stake owns (shared fees'
   * rounding and fees still streaming, this batch's included).
   */
  toReservoir: bigint
  /** Early-close fees that start streaming to the remaining stakes (version 1, while shares remain). */
  streamed: bigint
  /** The rate the batch closes at (the fees streamed until then released; the batch's own fees change nothing). */
  rate: bigint
  /** Principal still at risk after the batch (the shares fees go to), and all active principal. */
  totalShares: bigint
  totalStaked: bigint
  /** When the batch is closed. */
  time: bigint
}

/**
 * What unstake(ids) by `user` pays in the block pinned at `time`, and where every token goes, computed with the math
 * module the way the contract books it: the fees streamed until `time` are released first (read from the views of the
 * pending block), every close in the batch uses that rate, the batch's own fees first pay back the referral bonuses
 * the closer still owes (to the reservoir) and the rest starts a new stream (version 1) or goes to the reservoir
 * (version 2), and when the last share burns what no stake owns goes back to the reservoir.
 */
export async function expectedUnstake(pool: Pool, user: string, ids: bigint[], time: bigint): Promise<BatchClose> {
  const st = await pool.getPoolState(PENDING)
  const version = Number(st.version) as PoolVersion
  let staked = st.totalStaked
  let shares = st.totalShares
  let committed = 0n
  let gains = 0n
  const out: BatchClose = {
    closes: [],
    stakes: [],
    toUser: 0n,
    toReservoir: 0n,
    streamed: 0n,
    rate: st.rate,
    totalShares: 0n,
    totalStaked: 0n,
    time,
  }
  for (const id of ids) {
    const s = await stakeMath(pool, user, id, PENDING)
    const c = unstakePreview(s, st.rate, time)
    // A stake at risk gains to the rate now; once its release day has begun, to the rate at that day's start, which no
    // view gives apart from its gains: those then come from the pool, every other figure from the math.
    const atRisk = version === 2 || expiryDay(s.stakeTime, s.holdTime) > time / DAY
    if (!atRisk) {
      const gains = (await pool.getStakeInfo(user, id, PENDING)).stake.gains
      Object.assign(c, { amountOut: c.amountOut - c.gains + gains, received: c.received - c.gains + gains, gains })
    }
    staked -= s.stakeAmount
    if (atRisk) shares -= s.stakeAmount
    committed += s.stakeAmount + s.bonus + s.reward
    gains += c.gains
    out.toUser += c.received
    // A referred stake whose backer already paid its bonus back shares that part of its forfeited bonus as a fee.
    let repaid = 0n
    const [referer, backerId, debt] = await pool.getReferral(user, id, PENDING)
    if (debt !== 0n && time - s.stakeTime < s.holdTime) {
      const backer = await pool.getStakeInfo(referer, backerId, PENDING)
      const [, owedAtClose, paid] = await pool.getReferralBacking(referer, backerId, PENDING)
      if (!backer.stake.active) repaid = repaidShare(debt / BACKING_UNIT, paid, owedAtClose / BACKING_UNIT)
    }
    out.toReservoir += c.forfeited - repaid
    // A stake that backs referrals first pays back, from its fee, what it owes for the referred stakes still open.
    const [owed] = await pool.getReferralBacking(user, id, PENDING)
    const split = referralPayback(c.fee, owed / BACKING_UNIT)
    out.toReservoir += split.toReservoir
    if (version === 1) out.streamed += split.rest + repaid
    else out.toReservoir += split.rest + repaid
    out.closes.push(c)
    out.stakes.push(s)
  }
  // No active stake is left: the obligations were the closed stakes' terms, the shared fees and the stream.
  if (staked === 0n) {
    out.toReservoir += st.obligations - committed - gains + out.streamed
    out.streamed = 0n
  }
  out.totalShares = shares
  out.totalStaked = staked
  return out
}

export interface System {
  token: PlatformToken
  reservoir: Addressable
}

/**
 * Stakes through stake(amount, hold[, referer]) (or, with `minimums`, stake(amount, hold, referer, minBonus,
 * minReward)) at a pinned time and checks, to the wei against previewStake: the Staked event, RewardsShort when the
 * reservoir could fund only lower terms the staker accepted (RewardsUnavailable when not), the balances of user, pool
 * and reservoir, the stored stake, and the user's totals.
 */
export async function stakeExactly(
  sys: System,
  pool: Pool,
  user: HardhatEthersSigner,
  amount: bigint,
  hold: bigint,
  referer?: string,
  minimums?: [bigint, bigint],
): Promise<{ id: bigint; expected: StakePreview; time: bigint }> {
  const id = await pool.getUserStakesCount(user.address)
  const staked = await pool.getAllUserStakesAmount(user.address)
  const t = await pinNextTimestamp()
  const expected = previewStake(await mathState(pool, PENDING), amount, hold, referer !== undefined)
  const p = pool.connect(user)
  const tx = minimums
    ? p['stake(uint256,uint256,address,uint256,uint256)'](amount, hold, referer ?? ethers.ZeroAddress, ...minimums)
    : referer
      ? p['stake(uint256,uint256,address)'](amount, hold, referer)
      : p['stake(uint256,uint256)'](amount, hold)
  const [minBonus, minReward] = minimums ?? [expected.bonusWanted, expected.rewardWanted]
  const least = (a: bigint, b: bigint) => (a < b ? a : b)
  if (expected.bonus < least(minBonus, expected.bonusWanted) || expected.reward < least(minReward, expected.rewardWanted)) {
    await expect(tx).to.be.revertedWithCustomError(pool, 'RewardsUnavailable').withArgs(expected.bonus, expected.reward)
    await ethers.provider.send('evm_mine', [])
    return { id: -1n, expected, time: t }
  }
  await checkStaked(sys, pool, tx, user.address, user, amount, expected, id, t, referer)
  expect(await pool.getAllUserStakesAmount(user.address)).to.equal(staked + amount)
  return { id, expected, time: t }
}

/** The args of each of `pool`'s events named in `names` in receipt `r`, in log order, with the event's name. */
export function poolLogs(pool: Pool, r: TransactionReceipt, names: string[]): [string, Result][] {
  const address = (pool.target as string).toLowerCase()
  return r.logs.flatMap((log): [string, Result][] => {
    const parsed = log.address.toLowerCase() === address ? pool.interface.parseLog(log) : null
    return parsed && names.includes(parsed.name) ? [[parsed.name, parsed.args]] : []
  })
}

/**
 * poolLogs of the mined transaction, each as [name, args]. One receipt parsed once: chai's emit matcher fetches and
 * parses the whole receipt on each call, and a 256-stake batch close checked that way took 32 s. Unlike the matcher,
 * an unexpected extra event of these names fails the comparison.
 */
export async function poolEvents(pool: Pool, tx: Promise<unknown>, names: string[]): Promise<[string, unknown[]][]> {
  const receipt = await ((await tx) as ContractTransactionResponse).wait()
  return poolLogs(pool, receipt!, names).map(([name, args]) => [name, [...args]])
}

/** The checks every new stake gets, whoever paid for it (`payer`: the user, or the harvest contract). */
export async function checkStaked(
  sys: System,
  pool: Pool,
  tx: Promise<unknown>,
  user: string,
  payer: Account,
  amount: bigint,
  expected: StakePreview,
  id: bigint,
  time: bigint,
  referer?: string,
) {
  const funded = expected.bonus + expected.reward
  const short = expected.bonusWanted + expected.rewardWanted > funded
  // The pool says a stake got lower terms before it records the stake.
  expect(await poolEvents(pool, tx, ['Staked', 'RewardsShort'])).to.deep.equal([
    ...(short ? [['RewardsShort', [user, id, expected.bonusWanted, expected.rewardWanted]]] : []),
    [
      'Staked',
      [user, id, amount, expected.bonus, expected.reward, expected.shares, expected.holdTime, referer ?? ethers.ZeroAddress],
    ],
  ])
  await expect(tx).to.changeTokenBalances(sys.token, [payer, pool, sys.reservoir], [-amount, amount + funded, -funded])
  const s = await pool.getStake(user, id)
  expect(s.active).to.equal(true)
  expect(s.stakeAmount).to.equal(amount)
  expect(s.bonus).to.equal(expected.bonus)
  expect(s.reward).to.equal(expected.reward)
  expect(s.lpAmount).to.equal(expected.shares)
  expect(s.unHoldFee).to.equal(expected.feeFraction * 100n)
  expect(s.stakeTime).to.equal(time)
  expect(s.holdTime).to.equal(expected.holdTime)
  expect(s.closeTime).to.equal(0n)
  expect(s.entryRate).to.equal(expected.rate)
  expect(s.gains).to.equal(0n)
}

/**
 * Closes `ids` of `user` `after` seconds from now and checks, to the wei against the math module: the Unstaked events
 * (one per id, in order), the balances of pool, user and reservoir, the rate and share supply after, and each closed
 * stake's record (close time, gains, and the figures getStakeInfo reports for it).
 */
export async function unstakeExactly(
  sys: System,
  pool: Pool,
  user: HardhatEthersSigner,
  ids: bigint[],
  after = 1n,
): Promise<BatchClose> {
  const t = await pinNextTimestamp(after)
  const e = await expectedUnstake(pool, user.address, ids, t)
  const tx = pool.connect(user).unstake(ids)
  expect(await poolEvents(pool, tx, ['Unstaked'])).to.deep.equal(
    ids.map((id, i) => ['Unstaked', [user.address, id, e.closes[i].amountOut, e.closes[i].fee, e.closes[i].forfeited]]),
  )
  await expect(tx).to.changeTokenBalances(
    sys.token,
    [pool, user, sys.reservoir],
    [-(e.toUser + e.toReservoir), e.toUser, e.toReservoir],
  )
  expect(await pool.getRate()).to.equal(e.rate)
  expect((await pool.getPoolState()).totalShares).to.equal(e.totalShares)
  expect(await pool.totalSupply()).to.equal(e.totalStaked)
  for (const [i, id] of ids.entries()) {
    const c = e.closes[i]
    const info = await pool.getStakeInfo(user.address, id)
    expect(info.stake.active).to.equal(false)
    expect(info.stake.closeTime).to.equal(t)
    expect(info.stake.gains).to.equal(c.gains)
    expect(info.stake.lpAmount).to.equal(0n)
    expect([info.amountOut, info.fee, info.forfeited]).to.deep.equal([c.amountOut, c.fee, c.forfeited])
  }
  return e
}

/** The pool's token balance covers everything it owes (principal, funded terms and shared fees of active stakes). */
export async function expectSolvent(sys: System, pool: Pool) {
  const balance = await sys.token.balanceOf(await addressOf(pool))
  expect(balance).to.be.greaterThanOrEqual((await pool.getPoolState()).obligations)
}

/** A token the tests can mint (PlatformToken, the adversary tokens). */
interface Mintable {
  mint(to: string, amount: bigint): Promise<unknown>
  getAddress(): Promise<string>
}

/** What Reservoir.approvePool needs here. */
interface ReservoirLike {
  approvable(token: string, pool: string): Promise<bigint>
  approvePool(token: string, pool: string, amount: bigint): Promise<unknown>
  getAddress(): Promise<string>
}

/**
 * Lets `pool` draw practically without limit, as an allowance of type(uint256).max did before allowances had to be
 * backed: mints `extra` (2^120 by default) to the reservoir and approves everything it can back for the pool.
 */
export async function approveUnlimited(reservoir: ReservoirLike, token: Mintable, pool: string, extra = 2n ** 120n) {
  const t = await token.getAddress()
  await (await (token.mint(await reservoir.getAddress(), extra) as Promise<{ wait: () => Promise<unknown> }>)).wait()
  const most = await reservoir.approvable(t, pool)
  await (await (reservoir.approvePool(t, pool, most) as Promise<{ wait: () => Promise<unknown> }>)).wait()
}

/** The most `reservoir` can let `pool` draw, capped at `amount`: what approvePool takes without AllowanceNotBacked. */
export async function backedAmount(reservoir: ReservoirLike, token: string, pool: string, amount: bigint): Promise<bigint> {
  const most = await reservoir.approvable(token, pool)
  return amount < most ? amount : most
}

/**
 * Why a stake of `amount` held `hold` at `time` (unix) naming `referer` is refused by the referer rule, read from the
 * pool's views (its latest stake, refererMinStake, getReferralBacking), or null: the contract's order after the
 * paused / zero / too-large checks and before the terms are funded.
 */
export async function referralRefusal(
  pool: Pool,
  referer: string,
  amount: bigint,
  hold: bigint,
  time: bigint,
): Promise<string | null> {
  const count = await pool.getUserStakesCount(referer)
  if (count === 0n) return 'RefererNotStaking'
  const s = await pool.getStake(referer, count - 1n)
  if (!s.active) return 'RefererNotStaking'
  const st = await pool.getPoolState()
  if (s.stakeAmount < st.refererMinStake) return 'RefererStakeTooSmall'
  if (s.stakeTime >= time) return 'RefererStakeTooNew'
  const release = time + normalizeHoldTime(hold)
  if (s.stakeTime + s.holdTime < release) return 'RefererReleasedFirst'
  const units = referralBonus(amount, st.refererBonusPercent, hold, st.holdTimeMax) / BACKING_UNIT
  if (units === 0n) return null
  // What the referer's latest stake owes for the referred stakes still open, this one added.
  const [owed] = await pool.getReferralBacking(referer, count - 1n)
  if (owed + units * BACKING_UNIT > referralCapacity(s, release)) return 'ReferralNotBacked'
  return null
}

/**
 * A whitelisted registry caller that lies (JamFactory): PoolsInfo accepts from a factory only a contract with code
 * that the factory says it made, so the tests of what a bad registry entry can do register theirs through it.
 */
export async function jamFactory(
  owner: HardhatEthersSigner,
  poolsInfo: { getAddress(): Promise<string>; setWhitelisted(a: string, b: boolean): Promise<unknown> },
) {
  const { JamFactory__factory } = await import('../../src/chain/types')
  const jam = await new JamFactory__factory(owner).deploy(await poolsInfo.getAddress())
  await (await (poolsInfo.setWhitelisted(await jam.getAddress(), true) as Promise<{ wait: () => Promise<unknown> }>)).wait()
  return jam
}

/**
 * Sends `sends` in order into one block (automine off, falling priority fees keep the order) and mines it; returns the
 * receipts, whatever their status. For front-running: a transaction run just before another in the same block.
 */
export async function inOneBlock(sends: ((ov: object) => Promise<{ hash: string }>)[]) {
  await ethers.provider.send('evm_setAutomine', [false])
  const hashes: string[] = []
  try {
    for (const [i, send] of sends.entries()) {
      const ov = {
        gasLimit: 5_000_000n,
        maxFeePerGas: ethers.parseUnits('3000', 'gwei'),
        maxPriorityFeePerGas: ethers.parseUnits(String(1000 - i), 'gwei'),
      }
      hashes.push((await send(ov)).hash)
    }
    await ethers.provider.send('evm_mine', [])
  } finally {
    await ethers.provider.send('evm_setAutomine', [true])
  }
  const receipts = await Promise.all(hashes.map((h) => ethers.provider.getTransactionReceipt(h)))
  expect(new Set(receipts.map((r) => r!.blockNumber)).size, 'one block').to.equal(1)
  return receipts.map((r) => r!)
}
