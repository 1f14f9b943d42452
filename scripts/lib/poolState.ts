import { poolParams, type PoolMathState, type PoolVersion } from '../../src/domain/math'
import type { ImplAndTermsV1, ImplAndTermsV2 } from '../../src/chain/types'

/** The pool's parameters and books as the math module reads them (from getPoolState; `at` PENDING for the next block). */
export async function mathState(pool: ImplAndTermsV1 | ImplAndTermsV2, at: { blockTag?: string } = {}): Promise<PoolMathState> {
  const s = await pool.getPoolState(at)
  return {
    version: Number(s.version) as PoolVersion,
    rate: s.rate,
    totalShares: s.totalShares,
    ...poolParams(s),
    reservoirAvailable: s.reservoirAvailable,
  }
}
