import fc from 'fast-check'
import { partsOf } from './indexer'
import type { EventRow } from './events'

const row = (block: number, logIndex: number): EventRow => ({
  block_number: block,
  log_index: logIndex,
  tx_hash: '0x',
  event: 'Staked',
  kind: 'stake',
  account: '0x',
  pool: '0x',
  stake_id: '0',
  amount: '1',
  amount_out: null,
  fee: null,
  forfeited: null,
  hold: 0,
  to_holders: null,
  time: 0,
})

describe('partsOf: a range cut into transactions', () => {
  it('keeps every row once, in order, never splits a block, and ends at the range end', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        (perBlock, size, extra) => {
          const rows = perBlock.flatMap((n, b) => Array.from({ length: n }, (_, i) => row(b + 1, i)))
          const to = perBlock.length + extra
          const blocks = perBlock
            .map((_, b) => ({ number: b + 1, hash: `0x${b + 1}`, time: 0 }))
            .concat({ number: to, hash: '0xend', time: 0 })
          const pools = [{ address: '0xp', block: Math.min(3, to) }]
          const parts = partsOf(rows, pools, blocks, to, size)
          expect(parts.flatMap((p) => p.rows)).toEqual(rows)
          expect(parts[parts.length - 1].end).toBe(to)
          expect(parts.flatMap((p) => p.blocks)).toEqual(blocks)
          expect(parts.flatMap((p) => p.pools)).toEqual(pools)
          for (const [i, p] of parts.entries()) {
            for (const r of p.rows) expect(Number(r.block_number)).toBeLessThanOrEqual(p.end)
            if (i > 0) for (const r of p.rows) expect(Number(r.block_number)).toBeGreaterThan(parts[i - 1].end)
            // A part stops at the first block boundary at or past `size` rows.
            const biggestBlock = Math.max(0, ...perBlock)
            expect(p.rows.length).toBeLessThan(size + biggestBlock)
          }
        },
      ),
    )
  })
})
