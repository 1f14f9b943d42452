/**
 * Every timer the app runs (SPEC section 9), in one place; `setTimers` lets tests shorten them.
 */
export const timers = {
  WALLET_READY_POLL_MS: 200,
  WALLET_READY_TIMEOUT_MS: 10_000,
  RECEIPT_POLL_MS: 1_000,
  ALLOWANCE_POLL_MS: 1_000,
  /** How long to keep polling for an approval before giving the buttons back. */
  ALLOWANCE_POLL_FOR_MS: 120_000,
  NOTICE_REMOVE_AFTER_MS: 5_000,
  STAKING_REFRESH_MS: 15_000,
  /** After a claim, how often to re-read until the vesting API has seen it, and for how long at most. */
  VESTING_CATCH_UP_MS: 3_000,
  VESTING_CATCH_UP_FOR_MS: 120_000,
  /**
   * A sent transaction the node does not know while its nonce is still free counts as dropped once it is this old
   * (ms): long enough for it to reach the node the app reads from, short enough to say so while the person waits.
   */
  TX_FORGOTTEN_MS: 90_000,
  /** Sent transactions are kept in the browser this long at most (ms); by then each has long reached its end. */
  TX_KEEP_MS: 7 * 24 * 3_600_000,
}

export type Timers = typeof timers

export function setTimers(overrides: Partial<Timers>): void {
  Object.assign(timers, overrides)
}

/**
 * Sizes of what the app reads at once. The stake list reads `STAKE_PAGE_SIZE` rows per page shown, all in one Lens
 * call (getUnstakeDataPage), so a refresh costs the same gas however many stakes a user ever made; 'Show more' adds
 * a page. 50 rows cost well under the nodes' eth_call gas caps.
 */
export const lists = {
  STAKE_PAGE_SIZE: 50,
  /** Sent transactions kept in the browser at most (all wallets and chains), the newest. */
  TX_KEPT_MAX: 50,
}

export function setLists(overrides: Partial<typeof lists>): void {
  Object.assign(lists, overrides)
}
