import { expect } from 'chai'
import { ethers } from 'hardhat'
import type { Addressable } from 'ethers'
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/signers'
import {
  previewStake,
  shareFee,
  unstakePreview,
  type ClosePreview,
  type PoolMathState,
  type PoolVersion,
  type StakePreview,
  type StakeMath,
} from '../../src/chain/math'
import type { ImplAndTermsV1, ImplAndTermsV2, PlatformToken } from '../../src/chain/types'

export type Pool = ImplAndTermsV1 | ImplAndTermsV2
type Account = HardhatEthersSigner | Addressable

/** The pool's parameters and books as the math module reads them (from getPoolState). */
export async function mathState(pool: Pool): Promise<PoolMathState> {
  const s = await pool.getPoolState()
  return {
    version: Number(s.version) as PoolVersion,
    rate: s.rate,
    totalShares: s.totalShares,
    inflationPercent: s.inflationPercent,
    refererBonusPercent: s.refererBonusPercent,
    timeBonusPercent: s.timeBonusPercent,
    unHoldFee: s.unHoldFee,
    holdTimeRefMin: s.holdTimeRefMin,
    holdTimeMax: s.holdTimeMax,
    reservoirAvailable: s.reservoirAvailable,
  }
}

/** An active stake's terms as the close arithmetic reads them (from getStake). */
export async function stakeMath(pool: Pool, user: string, id: number | bigint): Promise<StakeMath> {
  const s = await pool.getStake(user, id)
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
  /** Back to the reservoir: forfeited bonus and reward, fees (or their unshared part), and what no share owns. */
  toReservoir: bigint
  /** The rate after the batch and the fee shared by each close (0 when none). */
  rate: bigint
  shared: bigint[]
  totalShares: bigint
  /** When the batch is closed. */
  time: bigint
}

/**
 * What unstake(ids) by `user` at `time` pays and where every token goes, computed with the math module in the
 * contract's order: each close is booked (its shares gone) before its fee is shared among the remaining shares, and
 * when the last share burns, what no stake owns (the shared fees' rounding) goes back to the reservoir.
 */
export async function expectedUnstake(pool: Pool, user: string, ids: bigint[], time: bigint): Promise<BatchClose> {
  const st = await pool.getPoolState()
  const version = Number(st.version) as PoolVersion
  let rate = st.rate
  let shares = st.totalShares
  let committed = 0n
  let gains = 0n
  let toHolders = 0n
  const out: BatchClose = { closes: [], stakes: [], toUser: 0n, toReservoir: 0n, rate, shared: [], totalShares: 0n, time }
  for (const id of ids) {
    const s = await stakeMath(pool, user, id)
    const c = unstakePreview(s, rate, time)
    shares -= s.lpAmount
    committed += s.stakeAmount + s.bonus + s.reward
    gains += c.gains
    out.toUser += c.received
    out.toReservoir += c.forfeited
    const f = shareFee(version, c.fee, rate, shares)
    rate = f.rate
    toHolders += f.toHolders
    out.toReservoir += f.toReservoir
    out.shared.push(f.toHolders)
    out.closes.push(c)
    out.stakes.push(s)
  }
  // No active stake is left: the obligations were exactly the closed stakes' plus the shared fees.
  if (shares === 0n) out.toReservoir += st.obligations - committed - gains + toHolders
  out.rate = rate
  out.totalShares = shares
  return out
}

export interface System {
  token: PlatformToken
  reservoir: Addressable
}

/**
 * Stakes through stake(amount, hold[, referer]) at a pinned time and checks, to the wei against previewStake: the
 * Staked event, RewardsShort when the reservoir cannot fund the terms, the balances of user, pool and reservoir, the
 * stored stake, and the user's totals.
 */
export async function stakeExactly(
  sys: System,
  pool: Pool,
  user: HardhatEthersSigner,
  amount: bigint,
  hold: bigint,
  referer?: string,
): Promise<{ id: bigint; expected: StakePreview; time: bigint }> {
  const state = await mathState(pool)
  const expected = previewStake(state, amount, hold, referer !== undefined)
  const id = await pool.getUserStakesCount(user.address)
  const staked = await pool.getAllUserStakesAmount(user.address)
  const t = await pinNextTimestamp()
  const p = pool.connect(user)
  const tx = referer ? p['stake(uint256,uint256,address)'](amount, hold, referer) : p['stake(uint256,uint256)'](amount, hold)
  await checkStaked(sys, pool, tx, user.address, user, amount, expected, id, t, referer)
  expect(await pool.getAllUserStakesAmount(user.address)).to.equal(staked + amount)
  return { id, expected, time: t }
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
  await expect(tx)
    .to.emit(pool, 'Staked')
    .withArgs(
      user,
      id,
      amount,
      expected.bonus,
      expected.reward,
      expected.shares,
      expected.holdTime,
      referer ?? ethers.ZeroAddress,
    )
  if (expected.bonusWanted + expected.rewardWanted > funded) {
    await expect(tx).to.emit(pool, 'RewardsShort').withArgs(user, id, expected.bonusWanted, expected.rewardWanted)
  } else {
    await expect(tx).not.to.emit(pool, 'RewardsShort')
  }
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
 * Closes `ids` of `user` `after` seconds from now and checks, to the wei against the math module: each Unstaked and
 * FeeShared event, the balances of pool, user and reservoir, the rate and share supply after, and each closed stake's
 * record (close time, gains, and the figures getStakeInfo reports for it).
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
  for (const [i, id] of ids.entries()) {
    const c = e.closes[i]
    await expect(tx).to.emit(pool, 'Unstaked').withArgs(user.address, id, c.amountOut, c.fee, c.forfeited)
  }
  if (e.shared.some((x) => x > 0n)) await expect(tx).to.emit(pool, 'FeeShared')
  else await expect(tx).not.to.emit(pool, 'FeeShared')
  await expect(tx).to.changeTokenBalances(
    sys.token,
    [pool, user, sys.reservoir],
    [-(e.toUser + e.toReservoir), e.toUser, e.toReservoir],
  )
  expect(await pool.getRate()).to.equal(e.rate)
  expect(await pool.totalSupply()).to.equal(e.totalShares)
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
