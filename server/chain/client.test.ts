import { isBlockUnknown, throttleDelayMs, whileBlockUnknown } from './client'

describe('reads behind a load balancer', () => {
  it('backs off a 429 by doubling from 250 ms to 8 s, or by the Retry-After seconds the node asked for', () => {
    const low = () => 0
    const high = () => 1
    expect([0, 1, 2, 5, 9].map((a) => throttleDelayMs(a, undefined, low))).toEqual([125, 250, 500, 4_000, 4_000])
    expect([0, 1, 2, 5, 9].map((a) => throttleDelayMs(a, undefined, high))).toEqual([250, 500, 1_000, 8_000, 8_000])
    expect(throttleDelayMs(0, '2', low)).toBe(2_000)
    expect(throttleDelayMs(0, '3600', low)).toBe(30_000)
    expect(throttleDelayMs(0, 'Wed, 21 Oct 2026 07:28:00 GMT', low)).toBe(125)
  })

  it('knows the words nodes use for a block they have not reached, and nothing else', () => {
    expect(isBlockUnknown({ error: { code: -32000, message: 'header not found' } })).toBe(true)
    expect(isBlockUnknown({ info: { error: { message: 'Unknown block' } } })).toBe(true)
    expect(isBlockUnknown(new Error('execution reverted'))).toBe(false)
    expect(isBlockUnknown({ code: 'ECONNREFUSED' })).toBe(false)
  })

  it('asks again while the block is unknown, gives up after the attempts, and passes other errors at once', async () => {
    let calls = 0
    const lagsTwice = async () => {
      if (++calls <= 2) throw { error: { message: 'header not found' } }
      return 'state at the block'
    }
    await expect(whileBlockUnknown(lagsTwice, 8, 1)).resolves.toBe('state at the block')
    expect(calls).toBe(3)
    calls = 0
    const alwaysBehind = async () => {
      calls++
      throw { error: { message: 'header not found' } }
    }
    await expect(whileBlockUnknown(alwaysBehind, 4, 1)).rejects.toMatchObject({ error: { message: 'header not found' } })
    expect(calls).toBe(4)
    calls = 0
    const down = async () => {
      calls++
      throw new Error('connect ECONNREFUSED')
    }
    await expect(whileBlockUnknown(down, 8, 1)).rejects.toThrow('ECONNREFUSED')
    expect(calls).toBe(1)
  })
})
