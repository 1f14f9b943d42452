import { BlockCache } from './blockCache'

describe('BlockCache', () => {
  it('shares one block-number fetch between concurrent callers', async () => {
    let calls = 0
    const cache = new BlockCache(async () => {
      calls++
      return 7
    }, 0)
    const got = await Promise.all(Array.from({ length: 50 }, () => cache.blockNumber()))
    expect(new Set(got)).toEqual(new Set([7]))
    expect(calls).toBe(1)
  })

  it('refetches once the ttl has passed (ttl 0: every new burst)', async () => {
    let n = 0
    const cache = new BlockCache(async () => ++n, 0)
    expect(await cache.blockNumber()).toBe(1)
    expect(await cache.blockNumber()).toBe(2)
  })

  it('reads once per block and key, and retries a failed read', async () => {
    const cache = new BlockCache(async () => 1, 0, 2)
    let reads = 0
    const read = async () => ++reads
    expect(await cache.at(5, 'a', read)).toBe(1)
    expect(await cache.at(5, 'a', read)).toBe(1)
    expect(await cache.at(6, 'a', read)).toBe(2)
    await expect(cache.at(6, 'b', () => Promise.reject(new Error('rpc down')))).rejects.toThrow('rpc down')
    expect(await cache.at(6, 'b', read)).toBe(3)
  })
})
