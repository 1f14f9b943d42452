import { poolParams, type PoolMathState, type PoolVersion } from '../../domain/math'
import type { PoolInfo } from './slice'

/** The pool as the shared math reads it. */
export function poolMath(p: PoolInfo): PoolMathState {
  return {
    version: p.version as PoolVersion,
    rate: BigInt(p.rate),
    totalShares: BigInt(p.totalShares),
    ...poolParams(p),
    reservoirAvailable: BigInt(p.reservoirAvailable),
  }
}
