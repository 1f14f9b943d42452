import { getAddress, type JsonRpcProvider, type Wallet } from 'ethers'
import { claimDomain, signClaim } from '../../src/chain/claim'
import { RewardHarvest__factory, type RewardHarvest } from '../../src/chain/types'
import type { VestingAnswer } from '../../src/chain/vestingAnswer'
import type { BlockCache } from '../chain/blockCache'
import type { AllocationBook } from './allocations'
import { nextUnlock, vestedAt } from './schedule'

/** GET /vesting/address/:wallet: the shared answer shape; the service always names the reward token. */
export type VestingStatus = VestingAnswer & { rewardToken: string }

/**
 * Vesting status and signed claims. "Now" is the chain's latest block time, not the server's clock, so the
 * schedule and the contract agree (and time travel on a dev chain moves both).
 */
export class VestingService {
  private readonly harvest: RewardHarvest

  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly cache: BlockCache,
    private readonly book: AllocationBook,
    private readonly signer: Wallet,
    private readonly chainId: number,
    harvestAddress: string,
    private readonly rewardToken: string,
  ) {
    this.harvest = RewardHarvest__factory.connect(harvestAddress, provider)
  }

  async status(wallet: string): Promise<VestingStatus> {
    const user = getAddress(wallet.toLowerCase())
    const block = await this.cache.blockNumber()
    return this.cache.at(block, `vesting:${user}`, () => this.compute(user, block))
  }

  private async compute(user: string, block: number): Promise<VestingStatus> {
    const allocation = this.book.byAddress.get(user)
    const blockTag = block
    const [header, claimed, lastBlock] = await Promise.all([
      this.cache.at(block, 'header', () => this.provider.getBlock(block)),
      allocation ? this.harvest.claimed(user, this.rewardToken, { blockTag }) : Promise.resolve(0n),
      allocation ? this.harvest.getLastBlock(user, this.rewardToken, { blockTag }) : Promise.resolve(0n),
    ])
    const base = {
      total: '0',
      claimed: claimed.toString(),
      unlocked: '0',
      lastUpdateBlock: lastBlock.toString(),
      currentBlock: String(block),
      message: null,
      signature: null,
      rewardToken: this.rewardToken,
      next: null,
    }
    if (!allocation || !header) return base
    const now = header.timestamp
    const vested = vestedAt(allocation.amount, allocation.round, this.book.schedule, now)
    const unlocked = vested > claimed ? vested - claimed : 0n
    const next = nextUnlock(allocation.amount, allocation.round, this.book.schedule, now)
    const status: VestingStatus = {
      ...base,
      total: allocation.amount.toString(),
      unlocked: unlocked.toString(),
      next: next && { amount: next.amount.toString(), date: new Date(next.date * 1000).toISOString() },
    }
    // A claim must name a block above the last one claimed at; in that same block there is nothing to sign yet.
    if (unlocked === 0n || BigInt(block) <= lastBlock) return status
    const { message, signature } = await signClaim(this.signer, claimDomain(this.chainId, await this.harvest.getAddress()), {
      user,
      amount: unlocked,
      lastUpdateBlock: lastBlock,
      currentBlock: BigInt(block),
      rewardToken: this.rewardToken,
    })
    return { ...status, message, signature }
  }
}
