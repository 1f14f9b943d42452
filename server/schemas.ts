/** JSON-schema pieces the routes share (Fastify validates params and bodies with them). */
import type { FastifyServerOptions } from 'fastify'
import { getAddress } from 'ethers'

/**
 * An address: 0x and 40 hex digits, so anything longer is refused before the pattern is tried. Mixed case must be the
 * address's EIP-55 checksum (`eip55`, below); all lower-case or all upper-case carries no checksum and is taken as is.
 */
export const ADDRESS = { type: 'string', maxLength: 42, pattern: '^0x[0-9a-fA-F]{40}$', eip55: true } as const

/** Whether `address` (0x and 40 hex digits) is unchecksummed (one case) or mixed case with the right EIP-55 checksum. */
export function checksumHolds(address: string): boolean {
  const digits = address.slice(2)
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true
  try {
    return getAddress(address) === address
  } catch {
    return false
  }
}

const nullableString = { type: ['string', 'null'] } as const

/**
 * The answer of GET /vesting/address/:wallet (src/domain/vestingAnswer.ts). Fastify serialises the answer with it
 * instead of JSON.stringify, so a field not named here is left out of every answer.
 */
export const VESTING_REPLY = {
  type: 'object',
  required: ['total', 'claimed', 'unlocked', 'lastUpdateBlock', 'currentBlock', 'deadline', 'message', 'signature', 'schedule'],
  properties: {
    total: { type: 'string' },
    claimed: { type: 'string' },
    unlocked: { type: 'string' },
    lastUpdateBlock: { type: 'string' },
    currentBlock: { type: 'string' },
    deadline: nullableString,
    message: nullableString,
    signature: nullableString,
    rewardToken: { type: 'string' },
    next: {
      type: ['object', 'null'],
      required: ['amount', 'date'],
      properties: { amount: { type: 'string' }, date: { type: 'string' } },
    },
    /** Every unlock in date order, base units at an ISO date; the amounts add up to `total`. */
    schedule: {
      type: 'array',
      items: {
        type: 'object',
        required: ['date', 'amount'],
        properties: { date: { type: 'string' }, amount: { type: 'string' } },
      },
    },
  },
} as const

type KeywordCheck = ((schema: boolean, data: unknown) => boolean) & {
  errors?: { keyword: string; message: string; params: object }[]
}

const eip55: KeywordCheck = (enabled, data) => {
  eip55.errors = undefined
  // Shape errors (`pattern`) are reported by the pattern; this keyword only judges the case of a well-formed address.
  if (!enabled || typeof data !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(data) || checksumHolds(data)) return true
  eip55.errors = [
    {
      keyword: 'eip55',
      message: 'has mixed case but a wrong EIP-55 checksum: send it all lower-case or with its checksum',
      params: {},
    },
  ]
  return false
}

type AjvPlugin = Extract<NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number], (...args: never[]) => unknown>

/** An Ajv plugin (Fastify's `ajv.plugins`) that adds the `eip55` keyword of ADDRESS. */
export const eip55Keyword: AjvPlugin = (ajv) =>
  ajv.addKeyword({ keyword: 'eip55', type: 'string', schemaType: 'boolean', errors: true, validate: eip55 })
