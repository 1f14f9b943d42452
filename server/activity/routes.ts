import type { FastifyError, FastifyInstance } from 'fastify'
import { sql, type Kysely } from 'kysely'
import type { IndexTables } from '../db/schema'
import { ADDRESS } from '../schemas'
import type { IndexService } from '../indexer/service'
import { AnswerCache } from './answerCache'
import { decodeCursor, encodeCursor } from './cursor'
import { activityPage, INTERVALS, isIndexedPool, poolSpan, poolStats, type Interval } from './queries'

export const MAX_ACTIVITY_LIMIT = 200
/** Points one statistics answer may hold (400 above): about 2.7 years of days. */
export const MAX_STATS_POINTS = 1_000
/** Answers kept across requests (per index tip; see AnswerCache). */
const ANSWERS_KEPT = 5_000

const badRequest = (message: string) => Object.assign(new Error(message), { statusCode: 400, code: 'BAD_QUERY' }) as FastifyError
const notFound = (message: string) => Object.assign(new Error(message), { statusCode: 404, code: 'NOT_FOUND' }) as FastifyError

const ITEM = {
  type: 'object',
  properties: {
    kind: { type: 'string' },
    pool: { type: ['string', 'null'] },
    stakeId: { type: ['string', 'null'] },
    amount: { type: ['string', 'null'] },
    amountOut: { type: ['string', 'null'] },
    fee: { type: ['string', 'null'] },
    forfeited: { type: ['string', 'null'] },
    hold: { type: ['integer', 'null'] },
    txHash: { type: 'string' },
    logIndex: { type: 'integer' },
    blockNumber: { type: 'integer' },
    time: { type: 'string' },
  },
} as const
const PROGRESS = { indexedBlock: { type: 'integer' }, headBlock: { type: 'integer' }, lag: { type: 'integer' } } as const
const SECONDS = { type: 'string', pattern: '^[0-9]{1,11}$' } as const

/** GET /activity/:address and GET /stats/pool/:address, read from the index (server/indexer). */
export function registerActivityRoutes(
  app: FastifyInstance,
  index: IndexService,
  heads: { head(): Promise<{ number: number }> },
) {
  const answers = new AnswerCache(ANSWERS_KEPT)
  const tipOf = async (db: Kysely<IndexTables>) => {
    const row = await db.selectFrom('index_state').select(['tip_number', 'tip_hash']).where('id', '=', 1).executeTakeFirst()
    return row ? { number: Number(row.tip_number), hash: row.tip_hash } : { number: -1, hash: '' }
  }
  /**
   * `make`'s answer with the tip it was read at (the same before and after it, so nothing was written meanwhile),
   * through the cache; and how far that tip is behind the head.
   */
  const read = async <T extends object>(key: string, make: (db: Kysely<IndexTables>) => Promise<T>) => {
    const db = index.db()
    const [expected, head] = await Promise.all([index.tip(), heads.head().catch(() => null)])
    const { tip, answer } = await answers.get(expected, key, async () => {
      // The tip read before and after the answer: equal, the answer is the index at that tip; else read again.
      for (let tries = 0; ; tries++) {
        const before = await tipOf(db)
        const made = await make(db)
        const after = await tipOf(db)
        if ((before.number === after.number && before.hash === after.hash) || tries >= 4) return { tip: before, answer: made }
      }
    })
    const headBlock = Math.max(head?.number ?? tip.number, tip.number)
    return { ...answer, indexedBlock: tip.number, headBlock, lag: headBlock - tip.number }
  }

  app.get<{ Params: { address: string }; Querystring: { cursor?: string; limit?: string } }>(
    '/activity/:address',
    {
      schema: {
        params: { type: 'object', required: ['address'], properties: { address: ADDRESS } },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { cursor: { type: 'string', maxLength: 64 }, limit: { type: 'string', pattern: '^[0-9]{1,3}$' } },
        },
        response: {
          200: {
            type: 'object',
            properties: { items: { type: 'array', items: ITEM }, next: { type: ['string', 'null'] }, ...PROGRESS },
          },
        },
      },
      config: { dependsOn: ['index'] },
    },
    async (req) => {
      const limit = req.query.limit === undefined ? 50 : Number(req.query.limit)
      if (limit < 1 || limit > MAX_ACTIVITY_LIMIT) throw badRequest(`limit must be between 1 and ${MAX_ACTIVITY_LIMIT}.`)
      const after = req.query.cursor === undefined ? null : decodeCursor(req.query.cursor)
      if (req.query.cursor !== undefined && !after)
        throw badRequest('cursor is not one this service gave: start again without it.')
      const account = req.params.address.toLowerCase()
      return read(`a|${account}|${req.query.cursor ?? ''}|${limit}`, async (db) => {
        const p = await activityPage(db, account, after, limit)
        return { items: p.items, next: p.next ? encodeCursor(p.next) : null }
      })
    },
  )

  app.get<{ Params: { address: string }; Querystring: { interval?: Interval; from?: string; to?: string } }>(
    '/stats/pool/:address',
    {
      schema: {
        params: { type: 'object', required: ['address'], properties: { address: ADDRESS } },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { interval: { type: 'string', enum: Object.keys(INTERVALS) }, from: SECONDS, to: SECONDS },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              points: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    time: { type: 'string' },
                    totalStaked: { type: 'string' },
                    stakers: { type: 'integer' },
                    staked: { type: 'string' },
                    closed: { type: 'string' },
                    fees: { type: 'string' },
                  },
                },
              },
              ...PROGRESS,
            },
          },
        },
      },
      config: { dependsOn: ['index'] },
    },
    async (req) => {
      const interval = req.query.interval ?? 'day'
      const pool = req.params.address.toLowerCase()
      const key = `s|${pool}|${interval}|${req.query.from ?? ''}|${req.query.to ?? ''}`
      return read(key, async (db) => {
        if (!(await isIndexedPool(db, pool))) throw notFound(`${req.params.address} is not a staking pool the index knows.`)
        const indexedTime = await db
          .selectFrom('blocks')
          .select('time')
          .where('number', '<=', sql<number>`(select tip_number from index_state where id = 1)`)
          .orderBy('number', 'desc')
          .limit(1)
          .executeTakeFirst()
        const to = req.query.to !== undefined ? Number(req.query.to) : Number(indexedTime?.time ?? 0)
        const first = await poolSpan(db, pool)
        const from = req.query.from !== undefined ? Number(req.query.from) : (first ?? to)
        if (from > to) throw badRequest('from must not be after to.')
        if ((to - from) / INTERVALS[interval] + 1 > MAX_STATS_POINTS)
          throw badRequest(`At most ${MAX_STATS_POINTS} points an answer: use interval=week or a shorter range.`)
        return { points: await poolStats(db, pool, interval, from, to) }
      })
    },
  )
}
