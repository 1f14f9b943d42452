/**
 * The answers of the API's activity index (server/activity, README.md "API service"), shared by the service that
 * makes them and the app that reads them (src/features/token/activity, src/features/stake/statsApi.ts).
 */

/** What a holder did, as the index lists it (docs/product.md §2.9). */
export type ActivityKind = 'claim' | 'claim-stake' | 'stake' | 'close'
export const ACTIVITY_KINDS: readonly ActivityKind[] = ['claim', 'claim-stake', 'stake', 'close']

/**
 * One event of a holder's history (`GET /activity/:address`). Amounts are base-unit decimal strings, `hold` seconds,
 * `time` the block's time (ISO 8601); a field that does not apply to the kind is null.
 */
export interface ActivityItem {
  kind: ActivityKind
  pool: string | null
  stakeId: string | null
  /** claim: claimed to the wallet; claim-stake and stake: staked; close: the stake's principal. */
  amount: string | null
  /** close only: what the close paid before its fee, the fee, and the bonus and reward given back. */
  amountOut: string | null
  fee: string | null
  forfeited: string | null
  hold: number | null
  txHash: string
  logIndex: number
  blockNumber: number
  time: string
}

/**
 * One bucket of a pool's statistics (`GET /stats/pool/:address`; a UTC day, or a week from Monday): the total staked
 * and the stakers at its end, the principal staked and closed in it and the early-close fees shared with holders in
 * it. Amounts are base-unit decimal strings; `time` the bucket's start (ISO).
 */
export interface StatPoint {
  time: string
  totalStaked: string
  stakers: number
  staked: string
  closed: string
  fees: string
}
