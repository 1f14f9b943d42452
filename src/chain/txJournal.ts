import type { BrowserEnv } from '../platform/browserEnv'
import { TX_KINDS, type TxKind } from './txKinds'

/**
 * Sent transactions not yet settled, kept in the browser (localStorage through BrowserEnv) so a reload, or a chain
 * switch and back (which reloads, docs/product.md §3.1), finds them again and follows them to their end (docs/product.md
 * §11). Everything here is plain data in and out; the sagas in tx.ts do the reading and writing.
 */
export interface JournalEntry {
  hash: string
  kind: TxKind
  chainId: number
  /** The sending account, lower case; with the nonce it tells a replacement (speed-up, cancel) from a drop. */
  from: string
  nonce: number
  /** What was sent, so a replacement that does the same call (a speed-up) is told from one that does not (a cancel). */
  to: string
  data: string
  /** Wall clock when it was sent (ms): old entries expire, and a forgotten one counts as dropped only after a while. */
  sentAt: number
  /** The latest block before it was sent: a replacement can only be mined after it. */
  fromBlock: number
  /**
   * `hash` is a Safe transaction's safeTxHash and `from` the Safe (docs/product.md §11.4): it is followed through the
   * Safe's owners to the chain transaction that executes it, and never counted as dropped while it waits.
   */
  safe?: true
}

type Storage = BrowserEnv['storage']

/** One key for every wallet and chain, so pruning sees all of it; entries name their chain and sender. */
export const JOURNAL_KEY = 'sentTransactions'

export interface JournalLimits {
  /** Entries older than this are dropped unread (ms). */
  keepMs: number
  /** At most this many entries are kept, the newest. */
  maxEntries: number
}

const HASH = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HEX = /^0x[0-9a-fA-F]*$/
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

/** The entry in `raw`, or null when it is not one (an older format, or edited by hand). */
export function parseEntry(raw: unknown): JournalEntry | null {
  if (!raw || typeof raw !== 'object') return null
  const e = raw as Record<string, unknown>
  const ok =
    typeof e.hash === 'string' &&
    HASH.test(e.hash) &&
    TX_KINDS.includes(e.kind as TxKind) &&
    isCount(e.chainId) &&
    typeof e.from === 'string' &&
    ADDRESS.test(e.from) &&
    isCount(e.nonce) &&
    typeof e.to === 'string' &&
    ADDRESS.test(e.to) &&
    typeof e.data === 'string' &&
    HEX.test(e.data) &&
    isCount(e.sentAt) &&
    isCount(e.fromBlock)
  if (!ok) return null
  return {
    hash: (e.hash as string).toLowerCase(),
    kind: e.kind as TxKind,
    chainId: e.chainId as number,
    from: (e.from as string).toLowerCase(),
    nonce: e.nonce as number,
    to: (e.to as string).toLowerCase(),
    data: (e.data as string).toLowerCase(),
    sentAt: e.sentAt as number,
    fromBlock: e.fromBlock as number,
    ...(e.safe === true ? { safe: true as const } : {}),
  }
}

/** Every kept entry still within the limits, oldest first; what cannot be read is left out, never thrown. */
export function readJournal(storage: Storage, now: number, limits: JournalLimits): JournalEntry[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(storage.get(JOURNAL_KEY) ?? '[]')
  } catch {
    return []
  }
  if (!Array.isArray(parsed)) return []
  const entries = parsed.map(parseEntry).filter((e): e is JournalEntry => e !== null && now - e.sentAt < limits.keepMs)
  return entries.sort((a, b) => a.sentAt - b.sentAt).slice(-limits.maxEntries)
}

/** Whether the browser kept it. */
function write(storage: Storage, entries: JournalEntry[]): boolean {
  if (entries.length > 0) return storage.set(JOURNAL_KEY, JSON.stringify(entries))
  storage.remove(JOURNAL_KEY)
  return true
}

/** The entries of one wallet on one chain (the ones a page connected to them follows). */
export function entriesFor(storage: Storage, chainId: number, from: string, now: number, limits: JournalLimits): JournalEntry[] {
  const who = from.toLowerCase()
  return readJournal(storage, now, limits).filter((e) => e.chainId === chainId && e.from === who)
}

/** Keeps `entry` (replacing one with its hash), pruning what expired or is past the bound. */
/** Keeps a sent transaction; false when the browser would not store it (the page then says so). */
export function remember(storage: Storage, entry: JournalEntry, now: number, limits: JournalLimits): boolean {
  const e = parseEntry(entry)
  if (!e) return false
  const rest = readJournal(storage, now, limits).filter((x) => x.hash !== e.hash)
  return write(storage, [...rest, e].slice(-limits.maxEntries))
}

/** The wallet replaced the transaction: follow the new hash from now on, after a reload too. */
export function rehash(storage: Storage, oldHash: string, hash: string, now: number, limits: JournalLimits) {
  const entries = readJournal(storage, now, limits)
  const old = oldHash.toLowerCase()
  if (!entries.some((e) => e.hash === old)) return
  write(
    storage,
    entries.map((e) => (e.hash === old ? { ...e, hash: hash.toLowerCase() } : e)),
  )
}

/** The transaction reached its end (mined, replaced, dropped): nothing left to follow. */
export function forget(storage: Storage, hash: string, now: number, limits: JournalLimits) {
  const h = hash.toLowerCase()
  const entries = readJournal(storage, now, limits)
  write(
    storage,
    entries.filter((e) => e.hash !== h),
  )
}
