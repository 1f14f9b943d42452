/** The Lens's answers about a pool and its stakes, made plain JSON for the store (amounts as base-unit strings). */
import type { Lens } from '../../chain/types'
import type { PoolInfo, StakeEntry } from './slice'

export type PoolData = Awaited<ReturnType<Lens['getPoolDataById']>>
export type StakePage = Awaited<ReturnType<Lens['getUnstakeDataPage']>>
export type StakeInfos = StakePage['infos']
/** getFeeStream of a version 1 pool: fees not yet released (base units) and when the stream ends (unix seconds). */
export type FeeStream = { pending: bigint; streamEnd: bigint }
/** The Lens's `next` at the end of a user's list. */
export const END_OF_LIST = 2n ** 256n - 1n

export function toPoolInfo(d: PoolData, fees: FeeStream | null): PoolInfo {
  const s = d.state
  return {
    id: Number(d.poolId),
    address: d.pool,
    version: Number(s.version),
    totalStaked: s.totalStaked.toString(),
    totalShares: s.totalShares.toString(),
    rate: s.rate.toString(),
    inflationPercent: s.inflationPercent.toString(),
    refererBonusPercent: s.refererBonusPercent.toString(),
    timeBonusPercent: s.timeBonusPercent.toString(),
    unHoldFee: s.unHoldFee.toString(),
    holdTimeRefMin: Number(s.holdTimeRefMin),
    holdTimeMax: Number(s.holdTimeMax),
    reservoirAvailable: s.reservoirAvailable.toString(),
    stakingPaused: s.stakingPaused,
    stakersCount: Number(s.stakersCount),
    feesStreaming: (fees?.pending ?? 0n).toString(),
    feeStreamEnd: Number(fees?.streamEnd ?? 0n),
  }
}

export function toStakes(infos: StakeInfos): StakeEntry[] {
  return infos.map((i) => ({
    id: Number(i.stakeId),
    active: i.stake.active,
    stakeTime: Number(i.stake.stakeTime),
    holdTime: Number(i.stake.holdTime),
    closeTime: Number(i.stake.closeTime),
    stakeAmount: i.stake.stakeAmount.toString(),
    lpAmount: i.stake.lpAmount.toString(),
    bonus: i.stake.bonus.toString(),
    reward: i.stake.reward.toString(),
    unHoldFee: i.stake.unHoldFee.toString(),
    gains: i.stake.gains.toString(),
    entryRate: i.stake.entryRate.toString(),
    amountOut: i.amountOut.toString(),
    fee: i.fee.toString(),
    forfeited: i.forfeited.toString(),
  }))
}
