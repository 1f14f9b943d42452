import type { ScheduledCall } from '../domain/governance'
import { formatDateTime } from './dates'
import { formatAmount, formatPercent } from './units'

/**
 * A pool's terms as people about to stake read them (docs/product.md §2.6): owner calls scheduled for it,
 * "From 26 Nov 2026 14:00 UTC: early-close fee 100%" (a setParameters call names only what it changes), and what
 * changed between two reads, "early-close fee 10% → 100%".
 */

/** A pool's figures as the store holds them, to name only what a scheduled call changes. */
export interface PoolTermsNow {
  unHoldFee?: string
  timeBonusPercent?: string
  refererBonusPercent?: string
  inflationPercent?: string
  holdTimeRefMin?: number
  holdTimeMax?: number
  stakingPaused?: boolean
  harvestTerms?: { hold: number; bonus: string }[]
}

const DAY = 86_400
const days = (seconds: unknown) => `${Math.floor(Number(seconds) / DAY)} days`
const percent = (scaled: unknown) => `${formatPercent(String(scaled), 2).replace(/\.00$/, '')}%`

/** setParameters fields: their names for people and how their value reads. */
const PARAMETERS: Record<string, { label: string; value: (v: unknown) => string }> = {
  unHoldFee: { label: 'early-close fee', value: percent },
  timeBonusPercent: { label: 'length bonus at the longest hold', value: percent },
  refererBonusPercent: { label: 'referral bonus', value: percent },
  inflationPercent: { label: 'inflation', value: (v) => `${percent(v)} a year` },
  holdTimeRefMin: { label: 'shortest hold with a referral', value: days },
  holdTimeMax: { label: 'longest hold', value: days },
  refererMinStake: { label: 'least stake of a referer', value: (v) => formatAmount(String(v)) },
}

function sameValue(now: unknown, next: unknown): boolean {
  return now !== undefined && String(now) === String(next)
}

/** What one scheduled call changes, or null when it changes nothing the pool's figures show. */
function changes(call: ScheduledCall, now: PoolTermsNow): string | null {
  if (call.fn === 'setParameters') {
    const params = (call.args.params ?? Object.values(call.args)[0] ?? {}) as Record<string, unknown>
    const parts = Object.entries(params)
      .filter(([k, v]) => k in PARAMETERS && !sameValue(now[k as keyof PoolTermsNow], v))
      .map(([k, v]) => `${PARAMETERS[k].label} ${PARAMETERS[k].value(v)}`)
    return parts.length ? parts.join(', ') : null
  }
  if (call.fn === 'setHarvestTerms') {
    const terms = (Object.values(call.args)[0] ?? []) as { hold: unknown; bonus: unknown }[]
    const same =
      now.harvestTerms !== undefined &&
      now.harvestTerms.length === terms.length &&
      now.harvestTerms.every((t, i) => sameValue(t.hold, terms[i].hold) && sameValue(t.bonus, terms[i].bonus))
    if (same) return null
    const text = terms.map((t) => `${days(t.hold)} +${percent(t.bonus)}`).join(', ')
    return `claim-and-stake terms ${text || 'none'}`
  }
  if (call.fn === 'setStakingPaused') return Object.values(call.args)[0] ? 'new stakes paused' : 'new stakes resumed'
  return call.fn ? `the owner calls ${call.fn}` : 'an owner call this app cannot read'
}

/** One line per scheduled call that changes something, soonest first. */
export function describeScheduled(calls: ScheduledCall[], now: PoolTermsNow): string[] {
  return calls.flatMap((c) => {
    const what = changes(c, now)
    return what ? [`From ${formatDateTime(c.readyAt)}: ${what}`] : []
  })
}

/** The terms a stake is made on, as the deposit preview reads them from the pool. */
const STAKE_TERMS = ['unHoldFee', 'timeBonusPercent', 'refererBonusPercent', 'inflationPercent'] as const

/**
 * What changed in a pool's stake terms between two reads, e.g. "early-close fee 10% → 100%": the deposit dialog says
 * so when the figures it showed are no longer the pool's (docs/product.md §2.6).
 */
export function describeTermChanges(before: PoolTermsNow, after: PoolTermsNow): string[] {
  return STAKE_TERMS.filter((k) => before[k] !== undefined && after[k] !== undefined && before[k] !== after[k]).map(
    (k) => `${PARAMETERS[k].label} ${PARAMETERS[k].value(before[k])} → ${PARAMETERS[k].value(after[k])}`,
  )
}
