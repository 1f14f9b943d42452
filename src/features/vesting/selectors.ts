import { createSelector } from '@reduxjs/toolkit'
import { answerClaimArgs } from '../../domain/vestingAnswer'
import { describeScheduled } from '../../format/poolTerms'
import type { VestingRoot } from './slice'
import type { TokenRoot } from '../token/slice'
import type { WalletRoot } from '../wallet/slice'
import { DAY, rewardFraction, termApr } from '../../domain/math'
import { ROUNDS, ROUND_NAMES } from '../../domain/vestingRounds'
import { formatDate } from '../../format/dates'
import { formatAmount, formatPercent } from '../../format/units'
import type { CalendarEvent } from '../../kit/calendar'
import { selectScheduledCalls, selectSymbol, selectTxPending } from '../token/selectors'
import { claimOrStake } from './claimOrStake'
import { monthTicks, unlockTimeline, type StepState } from './timeline'

/** What these selectors read: vesting, token, wallet (docs/architecture.md §5). */
type State = VestingRoot & TokenRoot & WalletRoot

export const selectVesting = (s: State) => s.vesting
export const selectVestingInfo = (s: State) => s.vesting.info
/** Whose status the page holds (the wallet's or the `?account=` address's). */
export const selectVestingHolder = (s: State) => s.vesting.holder
/** The claim page was left: its automatic retries stop. */
export const selectClaimPageLeft = (s: State) => s.vesting.claimPageLeft
const selectLastClaimedBlock = (s: State) => s.vesting.lastClaimedBlock
const selectHarvestTerms = (s: State) => s.vesting.harvestTerms
const selectHarvestInflation = (s: State) => s.vesting.harvestInflationPercent
const selectTermIndex = (s: State) => s.vesting.selectedTerm
/** The pool a claim is staked into (the network's default pool), null before the chain read named it. */
export const selectHarvestPool = (s: State) => s.vesting.harvestPool
/** A claim this wallet sent is still pending, perhaps from before a reload (docs/product.md §11). */
const selectClaimInFlight = (s: State) => selectTxPending(s, 'claim') || selectTxPending(s, 'claimStake')

/** The next-claim line (docs/product.md §2.7): the next unlock, the last claim left, or everything claimed. */
export type NextClaimLine =
  { kind: 'next'; amount: string; date: string } | { kind: 'last'; amount: string } | { kind: 'all' } | null

/** Why the claim buttons are disabled, for the line under them; null when they are enabled. */
export type ClaimBlock = 'loading' | 'claiming' | 'unavailable' | 'nothing' | 'stale' | null

/**
 * Whether a claim can be sent (docs/product.md §4.5, §3.8): something is unlocked and signed, and the claim starts from the
 * block of the wallet's last claim on chain; otherwise RewardHarvest would refuse it as stale.
 */
export const selectClaimBlock = createSelector(
  [selectVesting, selectLastClaimedBlock, selectClaimInFlight],
  (v, lastClaimed, inFlight): ClaimBlock => {
    // A second claim with the same signature while one is pending could only fail on chain, at the person's cost.
    if (v.claim.status === 'pending' || inFlight) return 'claiming'
    if (v.status === 'idle' || v.status === 'pending') return 'loading'
    // The figures are not current (the outage banner says why): no claim is sent from them.
    if (v.status === 'failed' || v.chainStatus === 'failed') return 'unavailable'
    if (answerClaimArgs(v.info) === null) return 'nothing'
    if (lastClaimed === null || v.info.lastUpdateBlock !== lastClaimed) return 'stale'
    return null
  },
)

export const selectCanClaim = (s: State) => selectClaimBlock(s) === null

export const selectNextClaimLine = createSelector([selectVestingInfo, selectSymbol], (info, symbol): NextClaimLine => {
  if (info.next) return { kind: 'next', amount: formatAmount(info.next.amount, { symbol }), date: formatDate(info.next.date) }
  if (BigInt(info.unlocked) > 0n) return { kind: 'last', amount: formatAmount(info.unlocked, { symbol }) }
  if (BigInt(info.total) > 0n && BigInt(info.claimed) >= BigInt(info.total)) return { kind: 'all' }
  return null
})

/**
 * The next unlock as a calendar event (docs/product.md §2.7): "Unlock of 4,800.00 PLT" at its moment; null when no
 * unlock is ahead, or before the token's symbol is read (the event names the token).
 */
export const selectNextUnlockEvent = createSelector(
  [selectVestingInfo, selectSymbol],
  (info, symbol): (CalendarEvent & { label: string }) | null => {
    if (!info.next || symbol === '') return null
    const amount = formatAmount(info.next.amount, { symbol })
    const start = Math.floor(Date.parse(info.next.date) / 1000)
    return {
      title: `Unlock of ${amount}`,
      start,
      fileName: `unlock-${info.next.date.slice(0, 10)}`,
      label: `Add to calendar: unlock of ${amount} on ${formatDate(start)}`,
    }
  },
)

export const selectClaimView = createSelector([selectVesting, selectSymbol], (v, symbol) => {
  // Nothing answered yet: placeholders while loading, dashes once a read failed; never zeros passed off as figures.
  const unknown = v.loadedAt === null
  const text = (wei: string) => formatAmount(unknown ? null : wei, { symbol })
  return {
    /** Placeholders until the first answer; a refresh keeps the figures on screen. */
    loading: unknown && v.status !== 'failed',
    unknown,
    available: text(v.info.unlocked),
    total: text(v.info.total),
    claimed: text(v.info.claimed),
    claiming: v.claim.status === 'pending' ? v.claim.kind : null,
    error: v.claim.status === 'failed' ? v.claim.error : null,
    /** Which button the failure belongs to: the wallet link shows it on the page, claim-and-stake in its chooser. */
    failedKind: v.claim.status === 'failed' ? v.claim.kind : null,
  }
})

/**
 * The claim page's outage (issue #14, docs/product.md §10.1): null while the vesting API and the chain answer;
 * otherwise which one cannot be reached, the answer still shown (its block and age) and when the page tries again.
 */
export const selectVestingOutage = createSelector([selectVesting], (v) => {
  const api = v.status === 'failed'
  if (!api && v.chainStatus !== 'failed') return null
  return {
    title: api ? "Can't reach the vesting service" : "Can't reach the network",
    reason: api ? v.error : v.chainError,
    shown: v.loadedAt !== null ? { block: Number(v.info.currentBlock) || null, readAt: v.loadedAt } : null,
    retryAt: v.retryAt,
    resumes:
      v.loadedAt !== null ? 'Claims are paused; the page updates by itself when it answers.' : 'The page tries again by itself.',
  }
})

/** The three schedules as the spec words them: 'TGE 30% + 1st month 30%'. */
export const VESTING_SCHEDULES = ROUND_NAMES.map((round) => ({
  round,
  text: `TGE ${ROUNDS[round].tgePercent}% + 1st month ${ROUNDS[round].month1Percent}%`,
}))

/** The claim-and-stake terms: days, percent bonus and APR (`31536000 / hold * bonus`) from the shared math. */
export const selectTermOptions = createSelector([selectHarvestTerms], (terms) =>
  terms.map((t, index) => ({
    index,
    hold: t.hold,
    days: Number(BigInt(t.hold) / DAY),
    bonus: formatPercent(t.bonus),
    apr: formatPercent(termApr(BigInt(t.hold), BigInt(t.bonus))),
  })),
)

/** The picked term: the second by default, the last one when fewer are offered. */
export const selectSelectedTerm = createSelector([selectTermOptions, selectTermIndex], (options, index) =>
  options.length === 0 ? null : options[Math.min(index, options.length - 1)],
)

/**
 * The inflation reward a claim staked for each harvest term earns in the harvest pool besides the term's bonus, as
 * a percent of the amount (version 1: inflation over the term's hold, funded when it is staked), by hold in
 * seconds; empty when the pool pays none or its inflation is not known.
 */
export const selectHarvestTermRewards = createSelector(
  [selectHarvestTerms, selectHarvestInflation],
  (terms, inflation): Record<number, string> => {
    if (inflation === null || BigInt(inflation) === 0n) return {}
    return Object.fromEntries(terms.map((t) => [t.hold, formatPercent(rewardFraction(BigInt(inflation), BigInt(t.hold)) * 100n)]))
  },
)

/** Owner calls the timelock has scheduled for the claim-and-stake pool, for the term chooser (docs/product.md §2.7). */
export const selectHarvestScheduled = createSelector(
  [(s: State) => selectScheduledCalls(s, s.vesting.harvestPool), selectHarvestTerms, selectHarvestInflation],
  (calls, harvestTerms, inflation): string[] =>
    describeScheduled(calls, { harvestTerms, ...(inflation !== null ? { inflationPercent: inflation } : {}) }),
)

/**
 * Claim or stake, side by side (docs/product.md §2.7): the unlocked amount claimed to the wallet now, or staked under
 * each harvest term, as of when the vesting answer was read; null before an answer and while nothing is unlocked.
 */
export const selectClaimOrStake = createSelector(
  [
    selectVestingInfo,
    (s: State) => s.vesting.loadedAt,
    selectHarvestTerms,
    selectHarvestInflation,
    (s: State) => s.vesting.harvestUnHoldFee,
    selectSymbol,
  ],
  (info, loadedAt, terms, inflationPercent, unHoldFee, symbol) =>
    loadedAt === null
      ? null
      : claimOrStake({
          unlocked: info.unlocked,
          terms,
          inflationPercent,
          unHoldFee,
          now: Math.floor(loadedAt / 1000),
          symbol,
        }),
)

const STEP_STATE: Record<StepState, string> = {
  claimed: 'Claimed',
  partlyClaimed: 'Partly claimed',
  claimable: 'Claimable',
  locked: 'Locked',
}

/**
 * The unlock timeline at the wall clock's `wallNow` (ms; docs/product.md §2.7): the split of the allocation today,
 * each unlock with its date, amount, running total and standing, and the chart's points and axis. "Today" is the
 * chain's clock (the last read block's time, moved on by the wall clock since), as the API's figures and the stake
 * countdowns are, so the split agrees with "Available for claim" on a dev chain that runs ahead; the wall clock only
 * before a chain read. Null before the first answer and for a wallet without unlocks. Read it with
 * selectTimelineAt(wallNow).
 */
const selectTimeline = createSelector(
  [selectVesting, selectSymbol, (_s: State, wallNow: number) => wallNow],
  (v, symbol, wallNow) => {
    if (v.loadedAt === null || v.info.schedule.length === 0) return null
    const clock = v.chainClock
    const now = Math.floor(clock ? clock.chainTime + (wallNow - clock.readAt) / 1000 : wallNow / 1000)
    const t = unlockTimeline(v.info.schedule, v.info.claimed, now)
    const amount = (wei: string) => formatAmount(wei, { symbol })
    return {
      now,
      today: formatDate(now),
      symbol,
      split: { claimed: amount(t.split.claimed), claimable: amount(t.split.claimable), locked: amount(t.split.locked) },
      // Figures without the symbol: the table names it once in its headers.
      rows: t.steps.map((s) => ({
        at: s.at,
        date: formatDate(s.at),
        amount: formatAmount(s.amount),
        cumulative: formatAmount(s.cumulative),
        state: s.state,
        stateText: STEP_STATE[s.state],
      })),
      points: t.points,
      domain: t.domain,
      // At most 4 month labels ("Dec 2026"): they fit a phone's width.
      ticks: monthTicks(t.domain, 4),
    }
  },
)

/** selectTimeline at `wallNow` (ms), as a component subscribes to it: `useAppSelector(selectTimelineAt(wallNow))`. */
export const selectTimelineAt = (wallNow: number) => (s: State) => selectTimeline(s, wallNow)

export type TimelineView = NonNullable<ReturnType<typeof selectTimeline>>
