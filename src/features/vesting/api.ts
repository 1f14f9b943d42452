import { isAddress } from 'ethers'
import type { VestingInfo } from './slice'

const DIGITS = /^\d+$/
const VESTING_TIMEOUT_MS = 10_000

/**
 * GET {base}/address/{wallet}, checked field by field: anything that is not the documented shape is treated as a
 * failure (the caller keeps what it showed and says the API failed, docs/product.md §10.1), never let into the store
 * half-parsed.
 */
export async function fetchVestingInfo(base: string, wallet: string, fetchImpl: typeof fetch = fetch): Promise<VestingInfo> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), VESTING_TIMEOUT_MS)
  try {
    const res = await fetchImpl(`${base}/address/${wallet}`, { signal: controller.signal })
    if (!res.ok) throw new Error(`vesting API answered ${res.status}`)
    return parseVestingInfo(await res.json())
  } finally {
    clearTimeout(timer)
  }
}

export function parseVestingInfo(body: unknown): VestingInfo {
  const b = body as Record<string, unknown>
  const digits = (k: string) => {
    const v = b?.[k]
    const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v
    if (typeof s !== 'string' || !DIGITS.test(s)) throw new Error(`vesting API: bad ${k}`)
    return s
  }
  const optionalDigits = (k: string) => (b?.[k] === null || b?.[k] === undefined ? null : digits(k))
  const hex = (k: string) => {
    const v = b?.[k]
    if (v === null || v === undefined) return null
    if (typeof v !== 'string' || !/^0x[0-9a-fA-F]+$/.test(v)) throw new Error(`vesting API: bad ${k}`)
    return v
  }
  const rewardToken = b?.rewardToken
  if (rewardToken !== null && rewardToken !== undefined && (typeof rewardToken !== 'string' || !isAddress(rewardToken)))
    throw new Error('vesting API: bad rewardToken')
  const next = b?.next as { amount?: unknown; date?: unknown } | null | undefined
  let parsedNext: VestingInfo['next'] = null
  if (next) {
    if (
      typeof next.amount !== 'string' ||
      !DIGITS.test(next.amount) ||
      typeof next.date !== 'string' ||
      Number.isNaN(Date.parse(next.date))
    )
      throw new Error('vesting API: bad next')
    parsedNext = { amount: next.amount, date: next.date }
  }
  const total = digits('total')
  return {
    total,
    claimed: digits('claimed'),
    unlocked: digits('unlocked'),
    lastUpdateBlock: digits('lastUpdateBlock'),
    currentBlock: digits('currentBlock'),
    deadline: optionalDigits('deadline'),
    message: hex('message'),
    signature: hex('signature'),
    rewardToken: (rewardToken as string | null | undefined) ?? null,
    next: parsedNext,
    schedule: parseSchedule(b?.schedule, total),
  }
}

/**
 * The unlock schedule as documented (docs/product.md §12.4): steps of whole base units at ISO dates, strictly in date
 * order, adding up to `total` exactly. The timeline draws it as it is, so a list that breaks any of this is refused
 * with the rest of the answer rather than drawn wrong.
 */
function parseSchedule(value: unknown, total: string): VestingInfo['schedule'] {
  if (!Array.isArray(value)) throw new Error('vesting API: bad schedule')
  let sum = 0n
  let last = -Infinity
  const steps = value.map((step: { date?: unknown; amount?: unknown } | null) => {
    const date = typeof step?.date === 'string' ? Date.parse(step.date) : NaN
    if (typeof step?.amount !== 'string' || !DIGITS.test(step.amount) || !(date > last))
      throw new Error('vesting API: bad schedule')
    last = date
    sum += BigInt(step.amount)
    return { date: step.date as string, amount: step.amount }
  })
  if (sum !== BigInt(total)) throw new Error('vesting API: bad schedule')
  return steps
}
