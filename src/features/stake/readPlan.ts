import type { StakeState } from './slice'

/**
 * How the staking page's read is planned (loadPool in poolReads.ts carries it out). Pure: the same state and answers
 * always give the same plan, so every branch is unit-tested without a chain (readPlan.test.ts).
 */

/** How a read treats the stake list: read it afresh ('full'), or only when a stake was made or closed ('refresh'). */
export type ReadMode = 'full' | 'refresh'

/** What the page held when the read began. */
export type ShownState = Pick<
  StakeState,
  | 'pool'
  | 'listStatus'
  | 'userStakes'
  | 'userStakesCount'
  | 'totalStakedByUser'
  | 'nextOffset'
  | 'owner'
  | 'blockNumber'
  | 'behindReads'
>

/** The first round trip: what to ask for beside the pool's figures. */
export interface BatchPlan {
  /** Where the pool is believed to be before it answers: the last read of this pool, else the deployment record. */
  address: string | null
  /** Only a version 1 pool streams fees: its stream is read in the same batch. */
  streams: boolean
  /** A refresh of a list read before may bring its rows forward instead of reading them (see ListStep). */
  reuse: boolean
  /** Read the list's rows in the same batch (a full read of a pool whose address is known, with a wallet). */
  rowsInBatch: boolean
  /** Rows a list read asks for: at least a page, at least the rows shown, so Show more is not undone. */
  rowCount: number
}

export function planBatch(args: {
  mode: ReadMode
  poolId: number
  wallet: string | null
  shown: ShownState
  /** The pool as the deployment record lists it, if it does. */
  listed: { address: string; version: number } | undefined
  pageSize: number
}): BatchPlan {
  const { mode, poolId, wallet, shown, listed, pageSize } = args
  const known = shown.pool?.id === poolId ? shown.pool : null
  const address = known?.address ?? listed?.address ?? null
  const version = known?.version ?? listed?.version ?? null
  // A refresh can reuse only a list that was read, for its count and total to compare with.
  const reuse = mode === 'refresh' && shown.listStatus === 'ok' && shown.userStakesCount !== null
  const readBefore = shown.listStatus === 'ok' || shown.listStatus === 'failed' ? shown.userStakes.length : 0
  return {
    address,
    streams: address !== null && version === 1,
    reuse,
    rowsInBatch: address !== null && wallet !== null && !reuse,
    rowCount: Math.max(pageSize, readBefore),
  }
}

/** What the pool answered of the user's stakes: how many and how much (the Lens's pool read). */
export interface UserTotals {
  userStakesCount: string
  totalStakedByUser: string
}

/** What becomes of the list once the pool has answered. */
export type ListStep =
  /** No wallet: nothing to list. */
  | { kind: 'none' }
  /** The rows the first batch read (or none read, for a pool found elsewhere than believed: see 'readAgain'). */
  | { kind: 'asRead' }
  /** No stake made or closed: the rows shown are brought to the new block from their fixed terms. */
  | { kind: 'bringForward' }
  /** Only `added` stakes were made: read just their rows (they come first) and bring the rest forward. */
  | { kind: 'newRows'; added: number; nextOffset: string | null }
  /** Anything else: read the rows shown again. */
  | { kind: 'readAgain' }

/**
 * `samePool`: the pool answered at the address the batch believed. A stake count and a total both unchanged mean no
 * stake was made or closed (a close takes its amount off the total); a count grown by at most a page, only stakes
 * (newRowsOnly then checks the totals before trusting the rows).
 */
export function planList(args: {
  plan: BatchPlan
  wallet: string | null
  samePool: boolean
  shown: ShownState
  answered: UserTotals
  pageSize: number
}): ListStep {
  const { plan, wallet, samePool, shown, answered, pageSize } = args
  if (!wallet) return { kind: 'none' }
  if (plan.reuse && samePool) {
    if (shown.userStakesCount === answered.userStakesCount && shown.totalStakedByUser === answered.totalStakedByUser)
      return { kind: 'bringForward' }
    const added = Number(answered.userStakesCount) - Number(shown.userStakesCount)
    if (added > 0 && added <= pageSize)
      return {
        kind: 'newRows',
        added,
        nextOffset: shown.nextOffset === null ? null : (BigInt(shown.nextOffset) + BigInt(added)).toString(),
      }
  }
  return !samePool || plan.reuse ? { kind: 'readAgain' } : { kind: 'asRead' }
}

/**
 * A node behind the one that answered last would take the figures back to an older block without a word (a stake just
 * confirmed would vanish): such an answer is set aside, for the same pool and wallet, unless it is the third in a row
 * from behind, which means the chain itself went back (a restarted local chain, a reorganisation).
 */
export function answeredBehind(args: {
  shown: ShownState
  poolId: number
  samePool: boolean
  wallet: string | null
  block: number | null
}): boolean {
  const { shown, poolId, samePool, wallet, block } = args
  const sameView = samePool && shown.pool?.id === poolId && (shown.owner ?? '').toLowerCase() === (wallet ?? '').toLowerCase()
  return sameView && block !== null && shown.blockNumber !== null && block < shown.blockNumber && shown.behindReads < 2
}
