import { createMemoryEnv } from '../platform/browserEnv'
import { entriesFor, forget, JOURNAL_KEY, readJournal, rehash, remember, type JournalEntry } from './txJournal'

const LIMITS = { keepMs: 1_000_000, maxEntries: 3 }
const A = '0x' + 'a'.repeat(40)
const B = '0x' + 'b'.repeat(40)
const hash = (n: number) => '0x' + n.toString(16).padStart(64, '0')

const entry = (n: number, over: Partial<JournalEntry> = {}): JournalEntry => ({
  hash: hash(n),
  kind: 'stake',
  chainId: 97,
  from: A,
  nonce: n,
  to: B,
  data: '0x12345678',
  sentAt: 1_000 + n,
  fromBlock: 10,
  ...over,
})

describe('transaction journal', () => {
  it('keeps entries per wallet and chain, follows a replacement and forgets what ended', () => {
    const { storage } = createMemoryEnv()
    remember(storage, entry(1), 2_000, LIMITS)
    remember(storage, entry(2, { chainId: 56 }), 2_000, LIMITS)
    remember(storage, entry(3, { from: B.toUpperCase().replace('0X', '0x') }), 2_000, LIMITS)
    expect(entriesFor(storage, 97, A.toUpperCase().replace('0X', '0x'), 2_000, LIMITS).map((e) => e.hash)).toEqual([hash(1)])
    rehash(storage, hash(1), hash(9), 2_000, LIMITS)
    expect(entriesFor(storage, 97, A, 2_000, LIMITS)).toEqual([entry(1, { hash: hash(9) })])
    forget(storage, hash(9), 2_000, LIMITS)
    expect(entriesFor(storage, 97, A, 2_000, LIMITS)).toEqual([])
    expect(readJournal(storage, 2_000, LIMITS)).toHaveLength(2)
  })

  it('is bounded: entries expire, and only the newest are kept', () => {
    const { storage } = createMemoryEnv()
    for (let n = 1; n <= 5; n++) remember(storage, entry(n), 2_000, LIMITS)
    expect(readJournal(storage, 2_000, LIMITS).map((e) => e.nonce)).toEqual([3, 4, 5])
    // Past keepMs since it was sent, an entry is gone; the last one left clears the key.
    expect(readJournal(storage, 1_003 + LIMITS.keepMs, LIMITS).map((e) => e.nonce)).toEqual([4, 5])
    forget(storage, hash(3), 2_000, LIMITS)
    forget(storage, hash(4), 2_000, LIMITS)
    forget(storage, hash(5), 2_000, LIMITS)
    expect(storage.get(JOURNAL_KEY)).toBeNull()
  })

  it('reads nothing from text it cannot trust, and skips entries that are not whole', () => {
    const { storage } = createMemoryEnv()
    storage.set(JOURNAL_KEY, '{not json')
    expect(readJournal(storage, 2_000, LIMITS)).toEqual([])
    storage.set(JOURNAL_KEY, JSON.stringify({ hash: hash(1) }))
    expect(readJournal(storage, 2_000, LIMITS)).toEqual([])
    storage.set(
      JOURNAL_KEY,
      JSON.stringify([entry(1), { ...entry(2), kind: 'mint' }, { ...entry(3), nonce: -1 }, { ...entry(4), to: 'x' }, null]),
    )
    expect(readJournal(storage, 2_000, LIMITS)).toEqual([entry(1)])
    // Remembering into an unreadable journal starts it again rather than failing.
    storage.set(JOURNAL_KEY, '{not json')
    remember(storage, entry(5), 2_000, LIMITS)
    expect(readJournal(storage, 2_000, LIMITS)).toEqual([entry(5)])
  })

  it("keeps a Safe transaction's mark, and reads an entry without one as a plain send", () => {
    const { storage } = createMemoryEnv()
    remember(storage, entry(1, { safe: true }), 2_000, LIMITS)
    remember(storage, entry(2), 2_000, LIMITS)
    const [safe, plain] = readJournal(storage, 2_000, LIMITS)
    expect(safe).toEqual(entry(1, { safe: true }))
    expect('safe' in plain).toBe(false)
    // Only `true` marks one: anything else written there by hand is ignored.
    storage.set(JOURNAL_KEY, JSON.stringify([{ ...entry(3), safe: 'yes' }]))
    expect(readJournal(storage, 2_000, LIMITS)).toEqual([entry(3)])
  })
})
