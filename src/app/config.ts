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
}

export type Timers = typeof timers

export function setTimers(overrides: Partial<Timers>): void {
  Object.assign(timers, overrides)
}
