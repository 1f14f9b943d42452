/**
 * GET {vesting api base}/address/{wallet} as JSON (docs/product.md §7.2, §12.4): amounts and block numbers are
 * base-unit decimal strings, `next` the next unlock (ISO date) or null. One shape for the service that answers and the
 * app that reads.
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
}
