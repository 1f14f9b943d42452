/**
 * Vesting schedules, in bigint base units. A round unlocks `tgePercent` at TGE, `month1Percent` one month later,
 * and the rest in `months` equal monthly steps after that (step k at TGE + (k + 1) months). Cumulative amounts are
 * computed as rest * k / months so rounding never loses a wei: the last step unlocks exactly what is left.
 */

import { ROUNDS, type Round } from '../../src/domain/vestingRounds'

export { ROUNDS, type Round }

export interface Schedule {
  /** TGE, unix seconds. */
  tge: number
  /** Equal monthly steps after month 1. */
  months: number
  /** Length of a month in seconds. */
  monthSeconds: number
}

export interface NextUnlock {
  amount: bigint
  /** Unix seconds. */
  date: number
}

/** One unlock of a schedule: what unlocks at `date` (unix seconds). */
export type UnlockStep = NextUnlock

function parts(total: bigint, round: Round) {
  const { tgePercent, month1Percent } = ROUNDS[round]
  const atTge = (total * tgePercent) / 100n
  const atMonth1 = (total * month1Percent) / 100n
  return { atTge, atMonth1, rest: total - atTge - atMonth1 }
}

/** Monthly steps completed at `now` (0 .. months). */
function stepsDone(s: Schedule, now: number): number {
  const monthsSinceTge = Math.floor((now - s.tge) / s.monthSeconds)
  return Math.min(s.months, Math.max(0, monthsSinceTge - 1))
}

/** Amount of `total` vested at `now` (unix seconds). */
export function vestedAt(total: bigint, round: Round, s: Schedule, now: number): bigint {
  if (now < s.tge) return 0n
  const { atTge, atMonth1, rest } = parts(total, round)
  if (now < s.tge + s.monthSeconds) return atTge
  if (s.months === 0) return total
  return atTge + atMonth1 + (rest * BigInt(stepsDone(s, now))) / BigInt(s.months)
}

/** The next unlock after `now`, or null once everything is vested. */
export function nextUnlock(total: bigint, round: Round, s: Schedule, now: number): NextUnlock | null {
  const { atTge, atMonth1, rest } = parts(total, round)
  if (total === 0n) return null
  if (now < s.tge) return { amount: atTge, date: s.tge }
  if (now < s.tge + s.monthSeconds) {
    return { amount: s.months === 0 ? atMonth1 + rest : atMonth1, date: s.tge + s.monthSeconds }
  }
  const k = stepsDone(s, now)
  if (s.months === 0 || k >= s.months) return null
  const m = BigInt(s.months)
  return { amount: (rest * BigInt(k + 1)) / m - (rest * BigInt(k)) / m, date: s.tge + (k + 2) * s.monthSeconds }
}

/**
 * Every unlock of a wallet's allocations from TGE to the last, in date order: the TGE share, the month-1 share, then
 * the monthly steps, each the difference of the cumulative amounts vestedAt uses, so the steps add up to the
 * allocations' total to the wei and the running sum at each date is vestedAt there. All rounds of a book share its
 * dates, so allocations in several rounds merge into one step per date (one line per moment in the timeline, as a
 * claim takes whatever has unlocked). Steps of zero (a total too small to split into `months` parts) are left out:
 * nothing unlocks then.
 */
export function unlockSchedule(allocations: readonly { round: Round; amount: bigint }[], s: Schedule): UnlockStep[] {
  const byDate = new Map<number, bigint>()
  const add = (date: number, amount: bigint) => byDate.set(date, (byDate.get(date) ?? 0n) + amount)
  for (const { round, amount } of allocations) {
    const { atTge, atMonth1, rest } = parts(amount, round)
    add(s.tge, atTge)
    // Without monthly steps the rest unlocks with month 1, as vestedAt has it.
    add(s.tge + s.monthSeconds, s.months === 0 ? atMonth1 + rest : atMonth1)
    const m = BigInt(s.months)
    for (let k = 1; k <= s.months; k++) add(s.tge + (k + 1) * s.monthSeconds, (rest * BigInt(k)) / m - (rest * BigInt(k - 1)) / m)
  }
  return [...byDate]
    .filter(([, amount]) => amount > 0n)
    .sort(([a], [b]) => a - b)
    .map(([date, amount]) => ({ date, amount }))
}
