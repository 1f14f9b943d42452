import { parsePoolStats } from './statsApi'
import { statsFrom } from './statsSagas'
import type { StatPoint, StatsRead } from './slice'
import { fillBuckets, statsView } from './statsView'

const E18 = 10n ** 18n
const t = (n: bigint) => (n * E18).toString()
const day = (d: number) => new Date(Date.UTC(2027, 0, d)).toISOString()
const point = (d: number, total: bigint, stakers: number, over: Partial<StatPoint> = {}): StatPoint => ({
  time: day(d),
  totalStaked: t(total),
  stakers,
  staked: '0',
  closed: '0',
  fees: '0',
  ...over,
})
const read = (points: StatPoint[], over: Partial<StatsRead> = {}): StatsRead => ({
  status: 'ok',
  error: null,
  failure: null,
  interval: 'day',
  points,
  index: { indexedBlock: 900, headBlock: 900, lag: 0 },
  readAt: 1,
  ...over,
})

describe('the pool statistics', () => {
  it('fills the days the index had nothing for: totals carry over, nothing staked, closed or shared', () => {
    const filled = fillBuckets([point(1, 100n, 1, { staked: t(100n) }), point(4, 250n, 2, { staked: t(150n) })], 'day')
    expect(filled.map((p) => [p.time, p.totalStaked, p.stakers, p.staked])).toEqual([
      [day(1), t(100n), 1, t(100n)],
      [day(2), t(100n), 1, '0'],
      [day(3), t(100n), 1, '0'],
      [day(4), t(250n), 2, t(150n)],
    ])
  })

  it('sums up a period: the total at its end and its change, the stakers, the fees shared in it', () => {
    const v = statsView(
      read([
        point(1, 1_100n, 3, { staked: t(100n) }),
        point(2, 900n, 2, { closed: t(200n), fees: t(5n) }),
        point(3, 950n, 3, { staked: t(50n), fees: t(1n) }),
      ]),
      '7d',
      'PLT',
    )
    expect(v.summary).toEqual({
      totalStaked: '950.00 PLT',
      change: '-50.00 PLT over the last 7 days',
      stakers: '3',
      fees: '6.00 PLT over the last 7 days',
    })
    expect(v.chart.map((p) => [p.label, p.totalStaked, p.stakers, p.fees])).toEqual([
      ['1 Jan', 1100, 3, 0],
      ['2 Jan', 900, 2, 5],
      ['3 Jan', 950, 3, 1],
    ])
    expect(v.table[1]).toMatchObject({ date: 'Sat, 2 Jan 2027', closed: '200.00', fees: '5.00' })
    expect([v.notice, v.empty, v.loading]).toEqual([null, null, false])
  })

  it('says the service is down or the index behind, and calls a period empty only when caught up', () => {
    expect(statsView(undefined, '30d', 'PLT').loading).toBe(true)
    const down = statsView(
      read([], { status: 'failed', failure: 'down', error: "Can't reach the statistics service." }),
      '30d',
      'PLT',
    )
    expect([down.notice?.kind, down.empty]).toEqual(['down', null])
    const behind = statsView(read([], { index: { indexedBlock: 900, headBlock: 950, lag: 50 } }), 'all', 'PLT')
    expect(behind.notice?.title).toBe('The statistics are 50 blocks behind the chain')
    expect(behind.empty).toBe('Nothing indexed for this pool up to block 900 yet.')
    expect(statsView(read([]), 'all', 'PLT').empty).toBe('No stakes in this pool yet.')
  })

  it('asks for 7 or 30 days with today on the chain’s clock, from a UTC midnight', () => {
    const now = Date.UTC(2027, 0, 31, 15, 30) / 1000
    expect(new Date(statsFrom('7d', now) * 1000).toISOString()).toBe('2027-01-25T00:00:00.000Z')
    expect(new Date(statsFrom('30d', now) * 1000).toISOString()).toBe('2027-01-02T00:00:00.000Z')
  })

  it('takes the documented answer and refuses another shape', () => {
    const body = { points: [point(1, 5n, 1), point(2, 6n, 1)], indexedBlock: 9, headBlock: 10, lag: 1 }
    expect(parsePoolStats(body)).toEqual(body)
    expect(() => parsePoolStats({ ...body, points: [point(2, 5n, 1), point(1, 6n, 1)] })).toThrow('unknown shape')
    expect(() => parsePoolStats({ ...body, points: [{ ...point(1, 5n, 1), fees: '-1' }] })).toThrow('unknown shape')
  })
})
