import type { Interface } from 'ethers'
import {
  PoolsInfo__factory,
  RewardHarvest__factory,
  StakingPoolBase__factory,
  StakingPoolFactory__factory,
} from '../../src/chain/types'
import type { IndexTables } from '../db/schema'

/** A log as eth_getLogs answers it (hex quantities). */
export interface RawLog {
  address: string
  topics: string[]
  data: string
  blockNumber: string
  blockHash: string
  transactionHash: string
  logIndex: string
  removed?: boolean
}

export type EventRow = IndexTables['events']

const pool = StakingPoolBase__factory.createInterface()
const harvest = RewardHarvest__factory.createInterface()
const registry = PoolsInfo__factory.createInterface()
const factory = StakingPoolFactory__factory.createInterface()

/**
 * A decoder of one event whose fields are all one-word static types (address, uint): each field is a topic or a word
 * of the data, read by its position in the ABI. ethers' general decoder costs about 300 µs a log; this a few.
 */
function staticDecoder(i: Interface, name: string) {
  const fragment = i.getEvent(name)!
  let topic = 1
  let word = 0
  const fields = fragment.inputs.map((input) => {
    if (input.type !== 'address' && !/^uint\d*$/.test(input.type)) throw new Error(`${name}.${input.name}: not a one-word type`)
    return {
      name: input.name,
      address: input.type === 'address',
      topic: input.indexed ? topic++ : -1,
      word: input.indexed ? -1 : word++,
    }
  })
  return (log: RawLog): Record<string, string> => {
    const out: Record<string, string> = {}
    for (const f of fields) {
      const hex = f.topic >= 0 ? (log.topics[f.topic] ?? '').slice(2) : log.data.slice(2 + f.word * 64, 2 + (f.word + 1) * 64)
      if (hex.length !== 64) throw new Error(`${name}: log too short`)
      out[f.name] = f.address ? '0x' + hex.slice(24).toLowerCase() : BigInt('0x' + hex).toString()
    }
    return out
  }
}

const READ: [Interface, string][] = [
  [pool, 'Staked'],
  [pool, 'Unstaked'],
  [pool, 'FeesReleased'],
  [harvest, 'Harvested'],
  [harvest, 'HarvestStaked'],
  [registry, 'PoolAdded'],
  [factory, 'PoolCreated'],
]
const byTopic = new Map(READ.map(([i, name]) => [i.getEvent(name)!.topicHash, { name, decode: staticDecoder(i, name) }]))
/** topic0 of every event the index reads: one eth_getLogs filter for all of them. */
export const INDEXED_TOPICS = [...byTopic.keys()]

export interface Contracts {
  harvest: string
  token: string
  registries: string[]
}

/**
 * The rows of one range's logs, in chain order, and the pools its registry and factory events name. A claim and stake
 * (HarvestStaked) emits Harvested and the pool's Staked in the same transaction: the activity lists it once, as
 * 'claim-stake', and keeps the other two rows for the statistics with no kind. Unstaked rows get their stake's
 * principal and hold later, from its Staked row (IndexStore.write).
 */
export function rowsOf(
  logs: RawLog[],
  times: Map<number, number>,
  contracts: Contracts,
): { rows: EventRow[]; pools: { address: string; block: number }[] } {
  const rows: EventRow[] = []
  const pools: { address: string; block: number }[] = []
  const harvestAddr = contracts.harvest.toLowerCase()
  const registries = new Set(contracts.registries.map((a) => a.toLowerCase()))
  // Transactions with a claim and stake: their Harvested and Staked rows are not listed on their own.
  const claimStakes = new Set<string>()
  for (const log of logs) {
    const found = byTopic.get(log.topics[0])
    if (found?.name === 'HarvestStaked' && log.address.toLowerCase() === harvestAddr && log.topics.length > 1) {
      claimStakes.add(`${log.transactionHash}:0x${log.topics[1].slice(26)}`.toLowerCase())
    }
  }
  for (const log of logs) {
    const found = byTopic.get(log.topics[0])
    if (!found || log.removed) continue
    let a: Record<string, string>
    try {
      a = found.decode(log)
    } catch {
      // Not the layout our contracts emit (nothing of ours can make such a log): left out, never a stuck index.
      continue
    }
    const blockNumber = Number(log.blockNumber)
    const base = {
      block_number: blockNumber,
      log_index: Number(log.logIndex),
      tx_hash: log.transactionHash.toLowerCase(),
      event: found.name,
      kind: null,
      account: null,
      pool: null,
      stake_id: null,
      amount: null,
      amount_out: null,
      fee: null,
      forfeited: null,
      hold: null,
      to_holders: null,
      time: times.get(blockNumber) ?? 0,
    } satisfies EventRow
    const from = log.address.toLowerCase()
    const inClaimStake = (user: string) => claimStakes.has(`${log.transactionHash}:${user}`.toLowerCase())
    switch (found.name) {
      case 'Staked':
        rows.push({
          ...base,
          kind: inClaimStake(a.user) ? null : 'stake',
          account: a.user,
          pool: from,
          stake_id: a.id,
          amount: a.amount,
          hold: Number(a.holdTime),
        })
        break
      case 'Unstaked':
        rows.push({
          ...base,
          kind: 'close',
          account: a.user,
          pool: from,
          stake_id: a.id,
          amount_out: a.amountOut,
          fee: a.fee,
          forfeited: a.forfeited,
        })
        break
      case 'FeesReleased':
        rows.push({ ...base, pool: from, amount: a.amount, to_holders: a.toHolders })
        break
      case 'Harvested':
        // Claims of the platform token only: the activity's amounts are in its units.
        if (from !== harvestAddr || a.token !== contracts.token.toLowerCase()) break
        rows.push({
          ...base,
          kind: inClaimStake(a.user) ? null : 'claim',
          account: a.user,
          amount: a.amount,
        })
        break
      case 'HarvestStaked':
        if (from !== harvestAddr) break
        rows.push({
          ...base,
          kind: 'claim-stake',
          account: a.user,
          pool: a.pool,
          stake_id: a.stakeId,
          amount: a.amount,
          hold: Number(a.hold),
        })
        break
      case 'PoolAdded':
      case 'PoolCreated':
        if (!registries.has(from)) break
        rows.push({ ...base, pool: a.pool })
        pools.push({ address: a.pool, block: blockNumber })
        break
    }
  }
  return { rows, pools }
}
