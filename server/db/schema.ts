/**
 * The index's tables. Block numbers and log indexes are bigint/integer; amounts are numeric(78,0) read back as decimal
 * strings, so no figure ever passes through a float. PGlite and node-postgres return bigint differently (a number and
 * a string), so readers pass them through Number().
 */
export interface IndexTables {
  /** One row (id 1): which chain and deployment the index belongs to, and the last block read (the tip). */
  index_state: {
    id: number
    chain_id: number
    start_block: number
    genesis_hash: string
    tip_number: number | string
    tip_hash: string
  }
  /** Hashes of blocks the index has read (the end of each range and every block with an event): where a reorg forked. */
  blocks: { number: number | string; hash: string; time: number | string }
  /** Pools found in the registry's and the factory's events (and the deployment record's, at block 0). */
  pools: { address: string; block_number: number | string }
  events: {
    block_number: number | string
    log_index: number
    tx_hash: string
    /** The event's name: Staked, Unstaked, Harvested, HarvestStaked, FeesReleased, PoolCreated, PoolAdded. */
    event: string
    /** What the activity list calls it ('claim', 'claim-stake', 'stake', 'close'), or null when it lists it under another. */
    kind: string | null
    account: string | null
    pool: string | null
    stake_id: string | null
    amount: string | null
    amount_out: string | null
    fee: string | null
    forfeited: string | null
    hold: number | string | null
    /** FeesReleased: the part shared with the holders. */
    to_holders: string | null
    time: number | string
  }
}
