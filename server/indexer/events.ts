import type { Interface } from 'ethers'
import { RewardHarvest__factory, StakingPoolBase__factory, StakingPoolFactory__factory } from '../../src/chain/types'
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
      // An address word with anything in its upper 12 bytes is no address (ethers' decoder refuses it too).
      if (f.address && !/^0{24}/.test(hex)) throw new Error(`${name}.${f.name}: not an address`)
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
  [factory, 'PoolCreated'],
]
const byTopic = new Map(READ.map(([i, name]) => [i.getEvent(name)!.topicHash, { name, decode: staticDecoder(i, name) }]))
/** topic0 of every event the index reads: one eth_getLogs filter for all of them. */
export const INDEXED_TOPICS = [...byTopic.keys()]

export interface Contracts {
  harvest: string
  token: string
  /** The deployment's factory: the pools it creates are the only ones read (RewardHarvest trusts no other). */
  factory: string
  /** Pools known before these logs (lower case). */
  pools: Iterable<string>
}

/** Largest hold (seconds) a row takes: a bigint column, and no pool term comes near it. */
const MAX_HOLD = BigInt(Number.MAX_SAFE_INTEGER)

type Decoded = { log: RawLog; name: string; a: Record<string, string> }

/**
 * The rows of one range's logs, in chain order, and the pools the factory created in it. Only the factory's pools
 * count: a registry listing comes from any whitelisted caller, and RewardHarvest too trusts only the factory's.
 * A claim and stake (HarvestStaked) emits Harvested and the pool's Staked in the same transaction: the activity lists
 * it once, as 'claim-stake', and keeps those two rows (the Harvested of its user and amount, the Staked of its pool and
 * stake id) for the statistics with no kind; any other claim or stake in that transaction is listed as itself. A log
 * whose fields do not fit (not a layout our contracts emit) is left out, never a stuck index. Unstaked rows get their
 * stake's principal and hold when written (IndexStore.write).
 */
export function rowsOf(
  logs: RawLog[],
  times: Map<number, number>,
  contracts: Contracts,
): { rows: EventRow[]; pools: { address: string; block: number }[] } {
  const harvestAddr = contracts.harvest.toLowerCase()
  const factoryAddr = contracts.factory.toLowerCase()
  const decoded: Decoded[] = []
  for (const log of logs) {
    const found = byTopic.get(log.topics[0])
    if (!found || log.removed) continue
    try {
      decoded.push({ log, name: found.name, a: found.decode(log) })
    } catch {
      continue
    }
  }
  const pools: { address: string; block: number }[] = []
  const known = new Set(contracts.pools)
  for (const { log, name, a } of decoded) {
    if (name !== 'PoolCreated' || log.address.toLowerCase() !== factoryAddr || known.has(a.pool)) continue
    known.add(a.pool)
    pools.push({ address: a.pool, block: Number(log.blockNumber) })
  }
  // The rows a claim and stake accounts for: its Harvested (by user and amount, once each) and its pool's Staked.
  const claimed = new Map<string, number>()
  const stakedByClaim = new Set<string>()
  for (const { log, name, a } of decoded) {
    if (name !== 'HarvestStaked' || log.address.toLowerCase() !== harvestAddr) continue
    const k = `${log.transactionHash}|${a.user}|${a.amount}`.toLowerCase()
    claimed.set(k, (claimed.get(k) ?? 0) + 1)
    stakedByClaim.add(`${log.transactionHash}|${a.pool}|${a.user}|${a.stakeId}`.toLowerCase())
  }
  const rows: EventRow[] = []
  for (const { log, name, a } of decoded) {
    const blockNumber = Number(log.blockNumber)
    const base = {
      block_number: blockNumber,
      log_index: Number(log.logIndex),
      tx_hash: log.transactionHash.toLowerCase(),
      event: name,
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
    const tx = log.transactionHash.toLowerCase()
    const fromPool = known.has(from)
    switch (name) {
      case 'Staked':
        if (!fromPool || BigInt(a.holdTime) > MAX_HOLD) break
        rows.push({
          ...base,
          kind: stakedByClaim.has(`${tx}|${from}|${a.user}|${a.id}`) ? null : 'stake',
          account: a.user,
          pool: from,
          stake_id: a.id,
          amount: a.amount,
          hold: Number(a.holdTime),
        })
        break
      case 'Unstaked':
        if (!fromPool) break
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
        if (!fromPool) break
        rows.push({ ...base, pool: from, amount: a.amount, to_holders: a.toHolders })
        break
      case 'Harvested': {
        // Claims of the platform token only: the activity's amounts are in its units.
        if (from !== harvestAddr || a.token !== contracts.token.toLowerCase()) break
        const k = `${tx}|${a.user}|${a.amount}`
        const ofClaimStake = (claimed.get(k) ?? 0) > 0
        if (ofClaimStake) claimed.set(k, claimed.get(k)! - 1)
        rows.push({ ...base, kind: ofClaimStake ? null : 'claim', account: a.user, amount: a.amount })
        break
      }
      case 'HarvestStaked':
        if (from !== harvestAddr || BigInt(a.hold) > MAX_HOLD) break
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
      case 'PoolCreated':
        if (from !== factoryAddr) break
        rows.push({ ...base, pool: a.pool })
        break
    }
  }
  return { rows, pools }
}
