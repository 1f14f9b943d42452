import { isAddress } from 'ethers'

import { ACTIVITY_KINDS, type ActivityItem, type ActivityKind } from '../../../domain/activityAnswer'

export { ACTIVITY_KINDS, type ActivityItem, type ActivityKind }

/** How far the index has read: its last block, the chain's head it saw, and the difference. */
export interface IndexPosition {
  indexedBlock: number
  headBlock: number
  lag: number
}

/** One page of a holder's history, newest first; `next` is the cursor of the older page, null on the last. */
export interface ActivityPage extends IndexPosition {
  items: ActivityItem[]
  next: string | null
}

/** Why a read of the index failed, worded for the page. `starting`: the service answered that its index is not up yet. */
export class IndexReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'down' | 'starting' | 'refused' | 'malformed',
  ) {
    super(message)
  }
}

const DIGITS = /^\d+$/
const HASH = /^0x[0-9a-fA-F]{64}$/
const INDEX_TIMEOUT_MS = 10_000

/** The service's root, from the network's vesting base (`{root}/vesting`), where the index's routes live too. */
export const serviceRoot = (vestingApiBase: string) => vestingApiBase.replace(/\/vesting\/?$/, '')

/**
 * GET with the vesting API's timeout; an answer that is not 200 becomes an IndexReadError that says why, in words a
 * person reads (a 503 while the index starts says so; a 400 is the app's fault and says the service refused it).
 */
export async function getIndexJson(url: string, service: string, fetchImpl: typeof fetch = fetch): Promise<unknown> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), INDEX_TIMEOUT_MS)
  let res: Response
  try {
    res = await fetchImpl(url, { signal: controller.signal })
  } catch (err) {
    const slow = (err as { name?: unknown })?.name === 'AbortError'
    throw new IndexReadError(
      slow ? `The ${service} service did not answer in time.` : `Can't reach the ${service} service.`,
      'down',
    )
  } finally {
    clearTimeout(timer)
  }
  const body: unknown = await res.json().catch(() => null)
  if (res.ok) return body
  const reason = (body as { reason?: unknown } | null)?.reason
  if (res.status === 503 && reason === 'index_starting')
    throw new IndexReadError(`The ${service} index is starting and has not read the chain yet.`, 'starting')
  if (res.status === 503) throw new IndexReadError(`The ${service} service can't reach the chain right now.`, 'down')
  if (res.status === 404) throw new IndexReadError(`The ${service} service does not know this address.`, 'refused')
  if (res.status >= 400 && res.status < 500)
    throw new IndexReadError(`The ${service} service refused the read (${res.status}).`, 'refused')
  throw new IndexReadError(`The ${service} service failed (${res.status}).`, 'down')
}

const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** indexedBlock, headBlock and lag, checked: whole numbers, lag never below 0. */
export function parseIndexPosition(b: Record<string, unknown>, service = 'activity'): IndexPosition {
  if (!count(b.indexedBlock) || !count(b.headBlock) || typeof b.lag !== 'number' || !Number.isSafeInteger(b.lag))
    throw malformed(service)
  return { indexedBlock: b.indexedBlock, headBlock: b.headBlock, lag: Math.max(0, b.lag) }
}

/** An answer of another shape than documented (another version of the service): refused whole. */
export const malformed = (service: string) =>
  new IndexReadError(`The ${service} service answered in an unknown shape.`, 'malformed')
const bad = () => malformed('activity')

function parseItem(raw: unknown): ActivityItem {
  const i = raw as Record<string, unknown> | null
  if (!i || typeof i !== 'object') throw bad()
  const amount = (k: string, pattern = DIGITS) => {
    const v = i[k]
    if (v === null || v === undefined) return null
    if (typeof v !== 'string' || !pattern.test(v)) throw bad()
    return v
  }
  const kind = i.kind as ActivityKind
  const pool = i.pool ?? null
  if (
    !ACTIVITY_KINDS.includes(kind) ||
    (pool !== null && (typeof pool !== 'string' || !isAddress(pool))) ||
    typeof i.txHash !== 'string' ||
    !HASH.test(i.txHash) ||
    !count(i.logIndex) ||
    !count(i.blockNumber) ||
    typeof i.time !== 'string' ||
    Number.isNaN(Date.parse(i.time)) ||
    (i.hold !== null && i.hold !== undefined && !count(i.hold))
  )
    throw bad()
  return {
    kind,
    pool: pool as string | null,
    stakeId: amount('stakeId'),
    amount: amount('amount'),
    amountOut: amount('amountOut'),
    fee: amount('fee'),
    forfeited: amount('forfeited'),
    hold: (i.hold as number | null | undefined) ?? null,
    txHash: i.txHash.toLowerCase(),
    logIndex: i.logIndex,
    blockNumber: i.blockNumber,
    time: i.time,
  }
}

/** A page as documented, checked field by field: an answer of another shape is a failure, never half let in. */
export function parseActivityPage(body: unknown): ActivityPage {
  const b = body as Record<string, unknown> | null
  if (!b || typeof b !== 'object' || !Array.isArray(b.items)) throw bad()
  const next = b.next ?? null
  if (next !== null && (typeof next !== 'string' || next === '')) throw bad()
  return { items: b.items.map(parseItem), next: next as string | null, ...parseIndexPosition(b) }
}

/** One page of `address`'s history: the newest, or the one after `cursor`. */
export async function fetchActivityPage(
  root: string,
  address: string,
  cursor: string | null,
  limit: number,
  fetchImpl: typeof fetch = fetch,
): Promise<ActivityPage> {
  const query = new URLSearchParams({ limit: String(limit), ...(cursor !== null ? { cursor } : {}) })
  return parseActivityPage(await getIndexJson(`${root}/activity/${address}?${query}`, 'activity', fetchImpl))
}
