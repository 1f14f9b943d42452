import { harvestArgs } from './claim'

/**
 * GET {vesting api base}/address/{wallet} as JSON (docs/product.md §7.2, §12.4): amounts and block numbers are
 * base-unit decimal strings, `next` the next unlock (ISO date) or null, `schedule` every unlock. One shape for the
 * service that answers and the app that reads.
 */
export interface VestingAnswer {
  total: string
  claimed: string
  unlocked: string
  lastUpdateBlock: string
  currentBlock: string
  /**
   * Unix seconds after which the signed claim is refused (null when nothing is signed). The claim commits to
   * `claimed` and `lastUpdateBlock` as they were at `currentBlock`: harvest(unlocked, lastUpdateBlock, currentBlock,
   * claimed, deadline, message, signature, rewardToken).
   */
  deadline: string | null
  message: string | null
  signature: string | null
  /** null only in the app's empty status, before or instead of an answer. */
  rewardToken: string | null
  next: { amount: string; date: string } | null
  /**
   * Every unlock from TGE to the last, in date order (ISO dates), none of zero; the amounts add up to `total` exactly.
   * Empty for a wallet without an allocation.
   */
  schedule: UnlockStep[]
}

/** One step of the unlock schedule: `amount` (base units) unlocks at `date` (ISO, UTC). */
export interface UnlockStep {
  date: string
  amount: string
}

/**
 * The one rule for "nothing to claim" (docs/product.md §4.5): a claim needs something unlocked, and a block above the
 * wallet's last claim block to be signed at (RewardHarvest refuses any other). The service signs only when it holds;
 * the app sends only an answer that passes it and carries the signature.
 */
export function hasClaim(unlocked: bigint, currentBlock: bigint, lastUpdateBlock: bigint): boolean {
  return unlocked > 0n && currentBlock > lastUpdateBlock
}

/** harvest(...)'s arguments for the claim an answer carries, or null when it carries none (nothing to claim). */
export function answerClaimArgs(a: VestingAnswer): ReturnType<typeof harvestArgs> | null {
  if (!a.message || !a.signature || !a.deadline || !a.rewardToken) return null
  if (!hasClaim(BigInt(a.unlocked), BigInt(a.currentBlock), BigInt(a.lastUpdateBlock))) return null
  return harvestArgs(
    {
      amount: a.unlocked,
      lastUpdateBlock: a.lastUpdateBlock,
      currentBlock: a.currentBlock,
      claimedBefore: a.claimed,
      deadline: a.deadline,
      rewardToken: a.rewardToken,
    },
    a.message,
    a.signature,
  )
}
