import { Interface } from 'ethers'
import type { BlockCache } from '../chain/blockCache'
import type { ChainClient } from '../chain/client'

const POOL = new Interface(['function stakersCount() view returns (uint256)'])
const STAKERS_COUNT = POOL.encodeFunctionData('stakersCount')

/**
 * token-holders: each pool counts its stakers on chain (addresses with at least one active stake), so the count is one
 * read at the head block, shared by every request in that block; nothing to index, nothing to undo after a reorg.
 */
export class StakersCount {
  constructor(
    private readonly chain: ChainClient,
    private readonly cache: BlockCache,
  ) {}

  /** `pool` as a checksum address. */
  async of(pool: string): Promise<{ count: number; block: number }> {
    const { head, value } = await this.cache.atHead(`stakers:${pool}`, async (at) => {
      const [n] = POOL.decodeFunctionResult('stakersCount', await this.chain.callAt(at, pool, STAKERS_COUNT))
      return Number(n)
    })
    return { count: value, block: head.number }
  }
}
