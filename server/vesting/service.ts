import { claimDomain } from '../../src/domain/claim'
import { RewardHarvest__factory } from '../../src/chain/types'
import { hasClaim, type VestingAnswer } from '../../src/domain/vestingAnswer'
import { HeadMoved, type BlockCache, type Head } from '../chain/blockCache'
import type { ChainClient } from '../chain/client'
import type { ClaimSigner } from '../signer'
import type { AllocationBook } from './allocations'
import { nextUnlock, unlockSchedule, vestedAt, type UnlockStep } from './schedule'

/** GET /vesting/address/:wallet: the shared answer shape; the service always names the reward token. */
export type VestingStatus = VestingAnswer & { rewardToken: string }

const HARVEST = RewardHarvest__factory.createInterface()

/** An unlock as the answer carries it: base units as a decimal string, the date as ISO (UTC). */
const asJson = (step: UnlockStep) => ({ amount: step.amount.toString(), date: new Date(step.date * 1000).toISOString() })

/**
 * Vesting status and signed claims. "Now" is the chain's latest block time, not the server's clock, so the
 * schedule and the contract agree (and time travel on a dev chain moves both).
 *
 * An answer is made for one block, named by hash: the claimed total and last claim block are read in exactly that
 * block, and the signature commits to them (RewardHarvest pays only while they still hold) and to a deadline. If the
 * block stops being canonical while the answer is made (the read fails, or the cache saw a reorg or a restart), the
 * service re-reads at the new head before it signs anything, so it never hands out a claim for another branch.
 */
export class VestingService {
  private readonly domain
  /** Allocations by lower-case address: a request costs no checksum (keccak) to find its wallet. */
  private readonly byLowerCase: Map<string, string>

  constructor(
    private readonly chain: ChainClient,
    private readonly cache: BlockCache,
    private readonly book: AllocationBook,
    private readonly signer: ClaimSigner,
    chainId: number,
    private readonly harvest: string,
    private readonly rewardToken: string,
    private readonly claimTtlSeconds: number,
  ) {
    this.domain = claimDomain(chainId, harvest)
    this.byLowerCase = new Map([...book.byAddress.keys()].map((a) => [a.toLowerCase(), a]))
  }

  async status(wallet: string): Promise<VestingStatus> {
    const user = this.byLowerCase.get(wallet.toLowerCase())
    // A wallet without allocation needs no chain read: its answer is not worth a cache entry either.
    if (!user) return this.empty(await this.cache.head())
    // On an idle chain the head can stay the same for longer than a claim lives: the signed answer is remade a few
    // times per lifetime, so what is served always has at least 3/4 of it left (the chain read stays one per block).
    const slotSeconds = Math.max(1, Math.floor(this.claimTtlSeconds / 4))
    const slot = Math.floor(Date.now() / 1000 / slotSeconds)
    return (await this.cache.atHead(`vesting:${user}:${slot}`, (head) => this.compute(user, head, slot * slotSeconds))).value
  }

  private empty(head: Head): VestingStatus {
    return {
      total: '0',
      claimed: '0',
      unlocked: '0',
      lastUpdateBlock: '0',
      currentBlock: String(head.number),
      deadline: null,
      message: null,
      signature: null,
      rewardToken: this.rewardToken,
      next: null,
      schedule: [],
    }
  }

  /** `user`'s claimed total and last claim block in exactly the block `head`, read once per block. */
  private claimState(user: string, head: Head): Promise<[bigint, bigint]> {
    return this.cache.at(head, `state:${user}`, async () => {
      const data = HARVEST.encodeFunctionData('getClaimState', [user, this.rewardToken])
      const [claimed, lastBlock] = HARVEST.decodeFunctionResult(
        'getClaimState',
        await this.chain.callAt(head, this.harvest, data),
      )
      return [claimed as bigint, lastBlock as bigint]
    })
  }

  private async compute(user: string, head: Head, slotStart: number): Promise<VestingStatus> {
    const allocation = this.book.byAddress.get(user)!
    const epoch = this.cache.epoch
    const [claimed, lastBlock] = await this.claimState(user, head)
    const now = head.timestamp
    const vested = vestedAt(allocation.amount, allocation.round, this.book.schedule, now)
    const unlocked = vested > claimed ? vested - claimed : 0n
    const next = nextUnlock(allocation.amount, allocation.round, this.book.schedule, now)
    const status: VestingStatus = {
      ...this.empty(head),
      total: allocation.amount.toString(),
      claimed: claimed.toString(),
      unlocked: unlocked.toString(),
      lastUpdateBlock: lastBlock.toString(),
      next: next && asJson(next),
      schedule: unlockSchedule([allocation], this.book.schedule).map(asJson),
    }
    // Nothing to claim (the one rule, shared with the app): nothing unlocked, or no block above the last claim yet.
    if (!hasClaim(unlocked, BigInt(head.number), lastBlock)) return status
    if (this.cache.epoch !== epoch) throw new HeadMoved()
    // Chain time decides on chain; the wall clock only matters when the chain is idle and its last block is old.
    const deadline = BigInt(Math.max(now, slotStart) + this.claimTtlSeconds)
    const { message, signature } = await this.signer.sign(this.domain, {
      user,
      amount: unlocked,
      lastUpdateBlock: lastBlock,
      currentBlock: BigInt(head.number),
      claimedBefore: claimed,
      deadline,
      rewardToken: this.rewardToken,
    })
    if (this.cache.epoch !== epoch) throw new HeadMoved()
    return { ...status, deadline: deadline.toString(), message, signature }
  }
}
