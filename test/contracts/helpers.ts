import { ethers } from 'hardhat'
import type { PoolMathState, PoolVersion, StakeMath } from '../../src/chain/math'
import type { ImplAndTermsV1, ImplAndTermsV2 } from '../../src/chain/types'

export type Pool = ImplAndTermsV1 | ImplAndTermsV2

/** The pool's books as the math module reads them (getPoolState already includes due inflation). */
export async function mathState(pool: Pool): Promise<PoolMathState> {
  const s = await pool.getPoolState()
  return {
    version: Number(s.version) as PoolVersion,
    totalStaked: s.totalStaked,
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

/**
 * The stored books (inflation not yet written) and the reservoir's full availability: what a transaction starts
 * from. Pair with `pinNextTimestamp` and pass `t - lastAccrual` as elapsed to predict it to the wei.
 */
export async function storedState(pool: Pool): Promise<{ state: PoolMathState; lastAccrual: bigint }> {
  const view = await mathState(pool)
  const stored = await pool.totalStaked()
  const pending = view.totalStaked - stored
  return {
    state: { ...view, totalStaked: stored, reservoirAvailable: view.reservoirAvailable + pending },
    lastAccrual: BigInt(await pool.lastAccrual()),
  }
}

export async function stakeMath(pool: Pool, user: string, id: number | bigint): Promise<StakeMath> {
  const s = await pool.getStake(user, id)
  return { stakeAmount: s.stakeAmount, lpAmount: s.lpAmount, stakeTime: s.stakeTime, holdTime: s.holdTime }
}

/** Fixes the next block's timestamp (latest + `after` seconds) and returns it. */
export async function pinNextTimestamp(after = 1n): Promise<bigint> {
  const t = BigInt((await ethers.provider.getBlock('latest'))!.timestamp) + after
  await ethers.provider.send('evm_setNextBlockTimestamp', [Number(t)])
  return t
}
