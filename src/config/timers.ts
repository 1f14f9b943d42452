/**
 * Every timer the app runs (docs/product.md §9), in one place; `setTimers` lets tests shorten them.
 */
export const timers = {
  WALLET_READY_POLL_MS: 200,
  WALLET_READY_TIMEOUT_MS: 10_000,
  /**
   * A remembered wallet that announces itself (EIP-6963) but has not yet: how long the eager reconnect waits for it.
   * Extensions announce as the page starts; one that takes longer is given up and the prompt shows.
   */
  WALLET_ANNOUNCE_WAIT_MS: 2_000,
  /** In a frame: how long the app waits for Safe{Wallet} to answer before it starts as a page of its own. */
  SAFE_APP_WAIT_MS: 1_500,
  RECEIPT_POLL_MS: 1_000,
  /**
   * A read or simulation answered from a block behind one the app has seen (a load balancer's lagging backend) is
   * asked again this often, this many times at most; after that the chain itself is taken to have gone back.
   */
  BEHIND_RETRY_MS: 750,
  BEHIND_ATTEMPTS: 40,
  /**
   * How often a Safe transaction waiting for its owners is asked about (Safe{Wallet}'s record, or the Safe's events):
   * owners take minutes or days, and each ask is a request to Safe's service or a log read.
   */
  SAFE_POLL_MS: 3_000,
  ALLOWANCE_POLL_MS: 1_000,
  /** How long to keep polling for an approval before giving the buttons back. */
  ALLOWANCE_POLL_FOR_MS: 120_000,
  NOTICE_REMOVE_AFTER_MS: 5_000,
  STAKING_REFRESH_MS: 15_000,
  /** After a claim, how often to re-read until the vesting API has seen it, and for how long at most. */
  VESTING_CATCH_UP_MS: 3_000,
  VESTING_CATCH_UP_FOR_MS: 120_000,
  /** The claim page shown again re-reads its figures only when they are older than this (a wallet's load shows it). */
  VESTING_FRESH_MS: 15_000,
  /**
   * A sent transaction the node does not know while its nonce is still free counts as dropped once it is this old
   * (ms): long enough for it to reach the node the app reads from, short enough to say so while the person waits.
   */
  TX_FORGOTTEN_MS: 90_000,
  /** Sent transactions are kept in the browser this long at most (ms); by then each has long reached its end. */
  TX_KEEP_MS: 7 * 24 * 3_600_000,
  /**
   * One JSON-RPC request (a whole batch) before it counts as failed and the next RPC URL is tried: a hanging node
   * must not keep skeletons on screen for ethers' default five minutes (issue #14).
   */
  RPC_TIMEOUT_MS: 6_000,
  /** After a failed read, the first retry and the longest wait between retries (backoff.ts doubles up to it). */
  RETRY_FIRST_MS: 2_000,
  RETRY_MAX_MS: 60_000,
  /** A dialog's network fee is quoted once its inputs have been still this long (typing an amount asks once). */
  FEE_QUOTE_PAUSE_MS: 300,
  /**
   * The Activity section re-reads the newest page this often while it is on screen, and every ACTIVITY_CATCH_UP_MS
   * while something is waiting for the index (a sent transaction not listed yet, or the index behind the chain).
   */
  ACTIVITY_REFRESH_MS: 15_000,
  ACTIVITY_CATCH_UP_MS: 3_000,
  /** A period of the pool's statistics read this recently is shown again as it is when chosen again (daily figures). */
  STATS_FRESH_MS: 60_000,
}

export type Timers = typeof timers

export function setTimers(overrides: Partial<Timers>): void {
  Object.assign(timers, overrides)
}

/**
 * Timers a build overrides (APP_TIMERS, a JSON object of the names above; the browser tests shorten the outage
 * timers with it). Unknown names and values that are not positive numbers are ignored.
 */
export function parseTimerOverrides(text: string | undefined): Partial<Timers> {
  if (!text) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return {}
  }
  if (!parsed || typeof parsed !== 'object') return {}
  const out: Partial<Timers> = {}
  for (const [name, value] of Object.entries(parsed))
    if (name in timers && typeof value === 'number' && Number.isFinite(value) && value > 0) out[name as keyof Timers] = value
  return out
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
  /** Events per page of the Activity section, and per request when "Export CSV" reads the whole history (the API's most). */
  ACTIVITY_PAGE_SIZE: 50,
  ACTIVITY_EXPORT_PAGE_SIZE: 200,
  /** Blocks the index may be behind the chain before the pages say so (a block or two is the normal delay). */
  INDEX_LAG_TOLERATED: 2,
}

export function setLists(overrides: Partial<typeof lists>): void {
  Object.assign(lists, overrides)
}
