import { BlockCache, type ChainEvent, type Head, type HeadSource } from './blockCache'

/** A scripted chain: `heads` is what `latest()` answers next; `canonical` maps numbers to hashes. */
function chain(genesis = '0xg1') {
  const state = {
    genesis,
    head: { number: 10, hash: '0xa10', parentHash: '0xa9', timestamp: 1000 } as Head,
    canonical: new Map<number, string>([[10, '0xa10']]),
    latestCalls: 0,
  }
  const source: HeadSource = {
    latest: async () => {
      state.latestCalls++
      return state.head
    },
    genesisHash: async () => state.genesis,
    blockHashAt: async (n) => state.canonical.get(n) ?? null,
  }
  const move = (head: Head) => {
    state.head = head
    state.canonical.set(head.number, head.hash)
  }
  return { state, source, move }
}

describe('BlockCache', () => {
  it('shares one head fetch between concurrent callers and refetches after the ttl (0: every new burst)', async () => {
    const { state, source } = chain()
    const cache = new BlockCache(source, 0, 10)
    const got = await Promise.all(Array.from({ length: 50 }, () => cache.head()))
    expect(new Set(got.map((h) => h.hash))).toEqual(new Set(['0xa10']))
    expect(state.latestCalls).toBe(1)
    await cache.head()
    expect(state.latestCalls).toBe(2)
  })

  it('reads once per block hash and key, and retries a failed read', async () => {
    const { source, move } = chain()
    const cache = new BlockCache(source, 0, 10)
    let reads = 0
    const read = async () => ++reads
    const h10 = await cache.head()
    expect(await cache.at(h10, 'a', read)).toBe(1)
    expect(await cache.at(h10, 'a', read)).toBe(1)
    move({ number: 11, hash: '0xa11', parentHash: '0xa10', timestamp: 1001 })
    const h11 = await cache.head()
    expect(await cache.at(h11, 'a', read)).toBe(2)
    await expect(cache.at(h11, 'b', () => Promise.reject(new Error('rpc down')))).rejects.toThrow('rpc down')
    expect(await cache.at(h11, 'b', read)).toBe(3)
  })

  it('never serves an entry of another block with the same number (a reorg), and says so', async () => {
    const { state, source, move } = chain()
    const events: ChainEvent[] = []
    const cache = new BlockCache(source, 0, 10, (e) => events.push(e))
    const h10 = await cache.head()
    expect(await cache.at(h10, 'claimed', async () => 'branch A')).toBe('branch A')
    // Same height, another parent: the block at 10 the cache knew is gone.
    move({ number: 10, hash: '0xb10', parentHash: '0xb9', timestamp: 1003 })
    const b10 = await cache.head()
    expect(await cache.at(b10, 'claimed', async () => 'branch B')).toBe('branch B')
    expect(events.map((e) => e.kind)).toEqual(['reorg'])
    expect(cache.epoch).toBe(1)
    // The dropped block: still answered for a request that holds it, but nothing is kept for it.
    expect(await cache.at(h10, 'claimed', async () => 'read again')).toBe('read again')
    expect(cache.size).toBe(1)
    expect(state.latestCalls).toBe(2)
  })

  it('keeps the parent block on a plain advance, and drops it on a changed parent hash', async () => {
    const { source, move, state } = chain()
    const cache = new BlockCache(source, 0, 10)
    const h10 = await cache.head()
    await cache.at(h10, 'x', async () => 1)
    move({ number: 11, hash: '0xa11', parentHash: '0xa10', timestamp: 1001 })
    const h11 = await cache.head()
    await cache.at(h11, 'x', async () => 2)
    expect(cache.size).toBe(2)
    expect(cache.epoch).toBe(0)
    // Block 12 on another branch: its parent is not the 11 the cache holds, and 11 is no longer canonical.
    state.canonical.set(11, '0xb11')
    move({ number: 12, hash: '0xb12', parentHash: '0xb11', timestamp: 1002 })
    await cache.head()
    expect(cache.size).toBe(0)
    expect(cache.epoch).toBe(1)
  })

  it('treats a jump of several blocks on the same chain as an advance, not a reorg', async () => {
    const { source, move } = chain()
    const events: ChainEvent[] = []
    const cache = new BlockCache(source, 0, 10, (e) => events.push(e))
    await cache.head()
    move({ number: 11, hash: '0xa11', parentHash: '0xa10', timestamp: 1001 })
    move({ number: 12, hash: '0xa12', parentHash: '0xa11', timestamp: 1002 })
    await cache.head()
    expect(events).toEqual([])
    expect(cache.epoch).toBe(0)
  })

  it('drops everything when the genesis changes (the node was restarted)', async () => {
    const { state, source, move } = chain()
    const events: ChainEvent[] = []
    const cache = new BlockCache(source, 0, 10, (e) => events.push(e))
    const h10 = await cache.head()
    await cache.at(h10, 'claimed', async () => 120_000)
    state.genesis = '0xg2'
    state.canonical.clear()
    move({ number: 10, hash: '0xc10', parentHash: '0xc9', timestamp: 900 })
    const c10 = await cache.head()
    expect(events.map((e) => e.kind)).toEqual(['restart'])
    expect(await cache.at(c10, 'claimed', async () => 0)).toBe(0)
  })

  it('keeps the newer head when a lagging backend answers an older one: no event, nothing dropped, never back', async () => {
    const { state, source, move } = chain()
    const events: ChainEvent[] = []
    const cache = new BlockCache(source, 0, 10, (e) => events.push(e))
    move({ number: 11, hash: '0xa11', parentHash: '0xa10', timestamp: 1001 })
    move({ number: 12, hash: '0xa12', parentHash: '0xa11', timestamp: 1002 })
    const h12 = await cache.head()
    await cache.at(h12, 'claimed', async () => 'after the claim')
    // A backend two blocks behind answers `latest`; the chain (another backend) still holds 12.
    state.head = { number: 10, hash: '0xa10', parentHash: '0xa9', timestamp: 1000 }
    expect((await cache.head()).hash).toBe('0xa12')
    // The same, when the backend asked for block 12 does not know it yet either.
    state.canonical.delete(12)
    expect((await cache.head()).hash).toBe('0xa12')
    expect(await cache.at(h12, 'claimed', async () => 'read again')).toBe('after the claim')
    expect(events).toEqual([])
    expect(cache.epoch).toBe(0)
  })

  it('still sees a node restarted below the current head (another genesis)', async () => {
    const { state, source } = chain()
    const events: ChainEvent[] = []
    const cache = new BlockCache(source, 0, 10, (e) => events.push(e))
    await cache.head()
    state.genesis = '0xg2'
    state.canonical = new Map([[3, '0xc3']])
    state.head = { number: 3, hash: '0xc3', parentHash: '0xc2', timestamp: 900 }
    expect((await cache.head()).hash).toBe('0xc3')
    expect(events.map((e) => e.kind)).toEqual(['restart'])
  })

  it('bounds the entries of one block: the least recently used go first', async () => {
    const { source } = chain()
    const cache = new BlockCache(source, 0, 100)
    const h = await cache.head()
    for (let i = 0; i < 5_000; i++) await cache.at(h, `wallet:${i}`, async () => i)
    expect(cache.size).toBe(100)
    expect(await cache.at(h, 'wallet:4999', async () => -1)).toBe(4999)
    expect(await cache.at(h, 'wallet:0', async () => -1)).toBe(-1)
  })
})
