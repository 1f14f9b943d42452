/**
 * The unlock timeline of the claim page (docs/product.md §2.7), as pure figures: the schedule the vesting API answers
 * (every unlock, in date order, adding up to the total) read against what was claimed and the moment `now`. The
 * selectors format it; the components only draw it. Amounts are base-unit decimal strings, times unix seconds.
 */
import type { UnlockStep } from '../../domain/vestingAnswer'

/**
 * Where an unlock stands now. Claims take the oldest unlocked tokens first, so the claimed total covers steps from
 * the first: the step it ends in is partly claimed.
 */
export type StepState = 'claimed' | 'partlyClaimed' | 'claimable' | 'locked'

export interface TimelineStep {
  /** unix seconds */
  at: number
  amount: string
  /** Unlocked by this step, it included. */
  cumulative: string
  state: StepState
}

/** The allocation split at `now`; the three add up to the total. */
export interface TimelineSplit {
  claimed: string
  /** Unlocked and not yet claimed. */
  claimable: string
  /** Unlocks after `now`. */
  locked: string
}

/**
 * One point of the chart's stacked step areas: from `at` on, until the next point, the allocation unlocked so far in
 * three bands (whole tokens, for drawing only: never shown as a figure). `step` is the index of the unlock it draws,
 * absent for the two points that frame the chart.
 */
export interface ChartPoint {
  at: number
  claimed: number
  claimable: number
  locked: number
  step?: number
}

export interface Timeline {
  steps: TimelineStep[]
  split: TimelineSplit
  points: ChartPoint[]
  /** The x axis: from before the first unlock (or `now`) to after the last (or `now`), unix seconds. */
  domain: [number, number]
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000)
const min = (a: bigint, b: bigint) => (a < b ? a : b)
const max = (a: bigint, b: bigint) => (a > b ? a : b)

/** Base units as whole tokens, for drawing (a float loses digits no chart can show). */
function tokens(baseUnits: bigint, decimals: number): number {
  const unit = 10n ** BigInt(decimals)
  return Number(baseUnits / unit) + Number(baseUnits % unit) / Number(unit)
}

/**
 * The timeline of `schedule` for a wallet that has claimed `claimed` (base units), at `now` (unix seconds). A claimed
 * total above what the schedule has unlocked by `now` (the chain's clock ahead of this one) counts as claimed, never
 * as a negative claimable.
 */
export function unlockTimeline(schedule: UnlockStep[], claimed: string, now: number, decimals = 18): Timeline {
  const total = schedule.reduce((sum, s) => sum + BigInt(s.amount), 0n)
  const done = min(BigInt(claimed), total)
  let cumulative = 0n
  let unlocked = 0n
  const steps = schedule.map((s): TimelineStep => {
    const at = seconds(s.date)
    const before = cumulative
    cumulative += BigInt(s.amount)
    if (at <= now) unlocked = cumulative
    const state: StepState = cumulative <= done ? 'claimed' : at > now ? 'locked' : before >= done ? 'claimable' : 'partlyClaimed'
    return { at, amount: s.amount, cumulative: cumulative.toString(), state }
  })
  // Known to be out of the lock: unlocked by now, or claimed already.
  const free = max(unlocked, done)
  const split: TimelineSplit = {
    claimed: done.toString(),
    claimable: (unlocked > done ? unlocked - done : 0n).toString(),
    locked: (total - free).toString(),
  }
  const band = (cum: bigint, step?: number): Omit<ChartPoint, 'at'> => ({
    claimed: tokens(min(cum, done), decimals),
    claimable: tokens(min(cum, free) - min(cum, done), decimals),
    locked: tokens(cum - min(cum, free), decimals),
    ...(step === undefined ? {} : { step }),
  })
  if (steps.length === 0) return { steps, split, points: [], domain: [now, now] }
  // A margin of one average step (a month at least) on either side, so the first rise and the last level show.
  const first = Math.min(steps[0].at, now)
  const last = Math.max(steps[steps.length - 1].at, now)
  const margin = Math.max((last - first) / Math.max(steps.length, 1), 30 * 86_400)
  const domain: [number, number] = [Math.floor(first - margin), Math.ceil(last + margin)]
  const points: ChartPoint[] = [
    { at: domain[0], ...band(0n) },
    ...steps.map((s, i) => ({ at: s.at, ...band(BigInt(s.cumulative), i) })),
    { at: domain[1], ...band(total) },
  ]
  return { steps, split, points, domain }
}

/**
 * Ticks for the time axis: the first of a month (UTC), every `every` months so that at most `most` fit in `domain`.
 */
export function monthTicks(domain: [number, number], most: number): number[] {
  const start = new Date(domain[0] * 1000)
  const months = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth()
  const span = months(new Date(domain[1] * 1000)) - months(start) + 1
  const every = Math.max(1, Math.ceil(span / Math.max(1, most)))
  const ticks: number[] = []
  for (let m = months(start) + 1; ; m += every) {
    const at = Date.UTC(Math.floor(m / 12), m % 12, 1) / 1000
    if (at > domain[1]) return ticks
    ticks.push(at)
  }
}
