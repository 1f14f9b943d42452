import { createSelector } from '@reduxjs/toolkit'
import type { StakeRoot } from './slice'
import type { TokenRoot } from '../token/slice'
import type { WalletRoot } from '../wallet/slice'
import { APPROVE_AMOUNT, DAY, previewStake } from '../../domain/math'
import { formatDate } from '../../format/dates'
import { formatAmount, formatPercent, NO_FIGURE, formatCount } from '../../format/units'
import { selectAllowance, selectScheduledCalls, selectSymbol, selectTxPending } from '../token/selectors'
import { describeScheduled } from '../../format/poolTerms'
import { selectAddress, selectReadNetwork } from '../wallet/selectors'
import type { PoolInfo } from './slice'
import { stakeRow, type StakeRow } from './rows'
import { poolMath } from './poolMath'
import { summaryCurve } from './closeCurveView'
import { statsView } from './statsView'
import { closeAllMatured } from './closeAllMatured'
import { restakePlan, type RestakePlan } from './restakePlan'

/** What these selectors read: stake, token, wallet (docs/architecture.md §5). */
type State = StakeRoot & TokenRoot & WalletRoot

export const selectStake = (s: State) => s.stake
const selectRoutePoolId = (s: State) => s.stake.poolId
const selectUserStakes = (s: State) => s.stake.userStakes
/** The read of the stake list: idle, loading, ok or failed. */
export const selectListStatus = (s: State) => s.stake.listStatus
/** The chain's time at the last read (unix seconds) and the wall clock then (ms): a countdown runs from them. */
export const selectChainTime = (s: State) => s.stake.chainTime
export const selectReadAt = (s: State) => s.stake.readAt
/** The deposit in flight and why it did not go through. */
export const selectDeposit = (s: State) => s.stake.deposit
/** Why the last approval did not go through (null after a rejection or none). */
export const selectApproveError = (s: State) => s.stake.approveError
const selectClosing = (s: State) => s.stake.closing
/** The close in flight (the summary's spinner). */
export const selectClosePending = (s: State) => selectClosing(s).status === 'pending'
/** Why the last close did not go through, for the summary; null when it did not fail. */
export const selectCloseError = (s: State) => (selectClosing(s).status === 'failed' ? selectClosing(s).error : null)

const selectClosingAll = (s: State) => s.stake.closingAll
const selectRestaking = (s: State) => s.stake.restaking
/**
 * "Close all matured" is under way: its own send, or any close or restake this wallet sent that is still pending (one
 * found again after a reload too), which may hold the same stakes: a second send would only be refused.
 */
export const selectCloseAllPending = (s: State) =>
  selectClosingAll(s).status === 'pending' ||
  selectRestaking(s).status === 'pending' ||
  selectTxPending(s, 'unstake') ||
  selectTxPending(s, 'restake')
/** Why the last "Close all matured" did not go through, for its dialog; null when it did not fail. */
export const selectCloseAllError = (s: State) => (selectClosingAll(s).status === 'failed' ? selectClosingAll(s).error : null)

/** The pool the staking page is about: the route's id, else the default pool of the wallet's network. */
export const selectActivePoolId = createSelector(
  [selectRoutePoolId, selectReadNetwork],
  (routeId, network): number | null => routeId ?? network?.defaultPoolId ?? null,
)

/**
 * Keeps the previous result when a refresh computes the same thing again, so a 15 s reload that changed nothing
 * re-renders nothing. The results are small plain JSON, so comparing their text is cheap.
 */
const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)
const stable = { memoizeOptions: { resultEqualityCheck: sameJson } }
export const selectPool = (s: State) => s.stake.pool

/** The longest stake in days where the pool sets no maximum (docs/product.md §4.2). */
const DEFAULT_MAX_DAYS = 1095

// The pool as the shared math reads it (its own file, so pure helpers such as closeCurveView.ts share it).
export { poolMath }

/** Main info and badges: total staked, pool APR (version 1 with inflation set), total stakers. */
export const selectPoolView = createSelector(
  [selectStake, selectSymbol],
  (s, symbol) => {
    const p = s.pool
    const apr = p && p.version === 1 && BigInt(p.inflationPercent) > 0n ? `${formatPercent(p.inflationPercent)}%` : null
    return {
      // A failed first read shows dashes, not skeletons that never resolve (the catalogue shows no message for it).
      loading: p === null && s.status !== 'failed',
      version: p?.version ?? null,
      totalStaked: formatAmount(p?.totalStaked, { symbol }),
      apr,
      // The pool counts the addresses with an active stake itself: exact, and in the same read.
      holders: p ? formatCount(p.stakersCount) : NO_FIGURE,
      paused: p?.stakingPaused ?? false,
      // Unknown until read for this wallet: a skeleton while loading, a dash once a read failed; never 0.00.
      myTotal: formatAmount(s.totalStakedByUser, { symbol }),
      myTotalLoading: s.totalStakedByUser === null && s.status !== 'failed',
      listStatus: s.listStatus,
      listError: s.listError,
      moreStakes: s.moreStakes,
    }
  },
  stable,
)

/**
 * The staking page's outage (issue #14, docs/product.md §10): null while its reads
 * succeed; otherwise what could not be read, the figures still on screen (block and time of the last good read) and
 * when the paused auto-update tries again.
 */
export const selectStakeOutage = createSelector(
  [
    (s: State) => s.stake.status,
    (s: State) => s.stake.error,
    (s: State) => s.stake.pool !== null,
    (s: State) => s.stake.blockNumber,
    (s: State) => s.stake.readAt,
    (s: State) => s.stake.retryAt,
    (s: State) => s.stake.autoUpdate,
  ],
  (status, error, known, block, readAt, retryAt, autoUpdate) => {
    if (status !== 'failed') return null
    return {
      title: "Can't reach the network",
      reason: error,
      shown: known ? { block, readAt } : null,
      retryAt: autoUpdate === 'paused' ? retryAt : null,
      resumes: known
        ? 'Updates are paused and resume by themselves when the network answers.'
        : 'The page tries again by itself.',
    }
  },
)

/** The block and time of the figures on screen while they are current (the outage banner speaks otherwise). */
export const selectStakeFreshness = createSelector(
  [(s: State) => s.stake.status, (s: State) => s.stake.blockNumber, (s: State) => s.stake.readAt],
  (status, block, readAt) => (status === 'succeeded' && block !== null ? { block, readAt } : null),
)

/**
 * A selector of the stake list's rows: active stakes newest first, then the closed ones newest first (docs/product.md
 * §2.4). A row whose figures are what they were keeps its object, so its memoized component does not render again
 * when other rows change (a closed stake's row never changes; an active one's does as its figures move with the
 * block). Each selector made here remembers only its own last rows: a component makes one for itself (useMemo), so
 * two stores, or two lists, never share them.
 */
export function makeSelectStakeRows() {
  /** The rows this selector made last, by id, with their JSON. */
  let kept = new Map<number, { json: string; row: StakeRow }>()
  const keepUnchanged = (rows: StakeRow[]): StakeRow[] => {
    const next = new Map<number, { json: string; row: StakeRow }>()
    const out = rows.map((row) => {
      const json = JSON.stringify(row)
      const before = kept.get(row.id)
      const same = before && before.json === json ? before.row : row
      next.set(row.id, { json, row: same })
      return same
    })
    kept = next
    return out
  }
  return createSelector(
    [selectUserStakes, selectPool, selectChainTime, selectSymbol],
    (stakes, pool, now, symbol) => {
      if (!pool) return { active: [] as StakeRow[], closed: [] as StakeRow[] }
      const rows = keepUnchanged(stakes.map((e) => stakeRow(e, pool, now, symbol)))
      const newestFirst = (a: StakeRow, b: StakeRow) => b.createdAt - a.createdAt || b.id - a.id
      return {
        active: rows.filter((r) => r.active).sort(newestFirst),
        closed: rows.filter((r) => !r.active).sort(newestFirst),
      }
    },
    stable,
  )
}

/** The row of the stake whose closing summary is open (docs/product.md §2.5), null when none. */
export const selectSummaryRow = createSelector(
  [selectUserStakes, selectPool, selectChainTime, selectSymbol, (s: State) => s.stake.closing.id],
  (stakes, pool, now, symbol, id) => {
    const entry = stakes.find((e) => e.id === id)
    return entry && pool ? stakeRow(entry, pool, now, symbol) : null
  },
  stable,
)

/**
 * What closing the summary's stake pays on each day to its release (docs/product.md §2.5), at the chain time of the
 * read and the pool's rate then; null for a closed or matured stake, or none open.
 */
export const selectSummaryCurve = createSelector(
  [selectUserStakes, selectPool, selectChainTime, (s: State) => s.stake.closing.id],
  (stakes, pool, now, id) => {
    const entry = stakes.find((e) => e.id === id)
    return entry && pool ? summaryCurve(entry, pool, now) : null
  },
)

/**
 * What "Close all matured" closes and pays (docs/product.md §2.4): the stakes listed that are matured at the chain
 * time of the read, by id, and what each and all of them pay (closeAllMatured.ts); null when none is (or no pool is
 * read). Amounts with the token's symbol; `totalWei` in base units.
 */
export const selectCloseAllMatured = createSelector(
  [selectUserStakes, selectPool, selectChainTime, selectSymbol],
  (stakes, pool, now, symbol) => {
    if (!pool) return null
    const m = closeAllMatured(stakes, now)
    if (m.ids.length === 0) return null
    const amount = (wei: bigint) => formatAmount(wei, { symbol })
    return {
      ids: m.ids,
      count: m.ids.length,
      total: amount(m.total),
      totalWei: m.total.toString(),
      stakeAmount: amount(m.stakeAmount),
      bonusAndReward: amount(m.bonusAndReward),
      gains: amount(m.gains),
      // A matured stake's close takes no fee (docs/product.md §5.1).
      fee: amount(0n),
      stakes: m.stakes.map((x) => ({ id: x.id, received: amount(x.received) })),
    }
  },
  stable,
)

/** The matured stakes the restake dialog is about (docs/product.md §2.6a), by id. */
export const selectRestakeIds = (s: State) => selectRestaking(s).ids
/**
 * A restake is under way: its own send, or a restake or close this wallet sent that is still pending (perhaps from
 * before a reload), which may hold the same stakes: the restake waits for it, as "Close all matured" does.
 */
export const selectRestakePending = selectCloseAllPending
/** Why the last restake did not go through, for its dialog; null when it did not fail (a rejection is only a notice). */
export const selectRestakeError = (s: State) => (selectRestaking(s).status === 'failed' ? selectRestaking(s).error : null)

/**
 * The restake of the stakes `ids` for `days` days, from the list as read at its chain time (restakePlan.ts), for the
 * saga that sends it and quotes its fee; null when one of them is not a matured stake of the list (or no pool is read).
 * Bigints: computed when asked, never stored.
 */
export const selectRestakePlan =
  (ids: number[], days: number) =>
  (s: State): RestakePlan | null => {
    const pool = selectPool(s)
    return pool ? restakePlan(selectUserStakes(s), ids, pool, selectChainTime(s), days) : null
  }

/**
 * What the restake dialog shows for `days` days (docs/product.md §2.6a): the stakes it closes and what each and all of
 * them pay now (the new stake's amount, fixed), the pool as the new stake meets it, and the deposit dialog's preview of
 * a stake of that amount for those days with no referral (depositPreview). Null when the stakes are not all matured
 * and listed any more, or no pool is read.
 */
const selectRestakeView = createSelector(
  [selectUserStakes, selectPool, selectChainTime, selectSymbol, selectRestakeIds, (_s: State, days: number) => days],
  (stakes, pool, now, symbol, ids, days) => {
    const plan = pool ? restakePlan(stakes, ids, pool, now, days) : null
    if (!plan) return null
    const amount = (wei: bigint) => formatAmount(wei, { symbol })
    return {
      ids: plan.ids,
      count: plan.ids.length,
      amount: amount(plan.amount),
      amountWei: plan.amount.toString(),
      stakes: plan.stakes.map((x) => ({ id: x.id, received: amount(x.received) })),
      pool: plan.pool,
      preview: depositPreview(plan.pool, plan.amount, days, false, symbol),
    }
  },
  stable,
)

/** selectRestakeView for the days typed, as the dialog subscribes to it: `useAppSelector(selectRestakeOf(days))`. */
export const selectRestakeOf = (days: number) => (s: State) => selectRestakeView(s, days)

/** Days limits (docs/product.md §4.2): min 1, or the pool's referral minimum with a referral; max from the pool or 1095. */
export function daysLimits(pool: PoolInfo | null, hasReferral: boolean): { min: number; max: number } {
  const day = Number(DAY)
  const max = pool && pool.holdTimeMax > 0 ? Math.floor(pool.holdTimeMax / day) : DEFAULT_MAX_DAYS
  const refMin = pool ? Math.floor(pool.holdTimeRefMin / day) : 1
  return { min: hasReferral && refMin > 1 ? refMin : 1, max }
}

/**
 * What the deposit modal shows as the user types, from the shared math as the contract will compute it: the shares,
 * the bonus and the inflation reward the reservoir funds for this stake (with the token's symbol), and whether it
 * can fund them in full.
 */
export function depositPreview(pool: PoolInfo, amountWei: bigint, days: number, hasReferral: boolean, symbol = '') {
  const p = previewStake(poolMath(pool), amountWei, BigInt(days) * DAY, hasReferral && pool.version === 1)
  const wanted = p.bonusWanted + p.rewardWanted
  return {
    // A stake's shares are its principal, whatever the rate (docs/contracts.md, "Fees are shared by what was risked").
    baseShares: formatAmount(p.shares),
    referralBonus: `${formatPercent(p.referralBonusPercent)}%`,
    lengthBonus: `${formatPercent(p.lengthBonusPercent)}%`,
    totalShares: formatAmount(p.shares),
    shareOfPool: `${formatPercent(p.shareOfPool * 100n)}%`,
    bonus: formatAmount(p.bonus, { symbol }),
    reward: formatAmount(p.reward, { symbol }),
    /** Only version 1 pays inflation. */
    hasReward: BigInt(pool.inflationPercent) > 0n,
    atMaturity: formatAmount(p.atMaturity, { symbol }),
    /** The early withdrawal fee at the start (falls to 0 at the release), percent of the amount. */
    feePercent: `${formatPercent(pool.unHoldFee)}%`,
    /**
     * When the reservoir cannot fund all of the bonus and reward: what it funds of what the stake would get, and the
     * funded figures as the minimums to send once the person accepts them (base units). The pool refuses a stake that
     * asks for the full terms then, so this is a choice, not a footnote.
     */
    shortfall:
      p.bonus < p.bonusWanted || p.reward < p.rewardWanted
        ? {
            funded: formatAmount(p.bonus + p.reward, { symbol }),
            wanted: formatAmount(wanted, { symbol }),
            bonus: formatAmount(p.bonus, { symbol }),
            bonusWanted: formatAmount(p.bonusWanted, { symbol }),
            reward: formatAmount(p.reward, { symbol }),
            rewardWanted: formatAmount(p.rewardWanted, { symbol }),
            bonusCut: p.bonus < p.bonusWanted,
            rewardCut: p.reward < p.rewardWanted,
            minimums: { bonus: p.bonus.toString(), reward: p.reward.toString() },
          }
        : null,
  }
}

/**
 * Early-close fees the pool is still streaming to its stakers (version 1), as a line for the page, e.g. "1,234.56 PLT
 * of early-close fees being shared until Tue, 22 Dec 2026"; null when none (or less than a cent) is pending.
 */
export const selectFeeStreamNote = createSelector(
  [(s: State) => s.stake.pool?.feesStreaming ?? '0', (s: State) => s.stake.pool?.feeStreamEnd ?? 0, selectSymbol],
  (pending, end, symbol): string | null => {
    if (BigInt(pending) === 0n || end === 0 || formatAmount(pending) === '0.00') return null
    return `${formatAmount(pending, { symbol })} of early-close fees being shared until ${formatDate(end)}`
  },
)

/** The connected wallet's allowance to the page's pool (base units), null before it was read or without a pool. */
const selectPoolAllowance = (s: State) => {
  const pool = selectPool(s)
  return pool ? selectAllowance(s, pool.address) : null
}

/**
 * Whether the allowance to the pool covers a deposit of `amountWei` (base units; null while the amount is not a
 * number), which is what 'Approved' means (docs/product.md §3.3, §11): with no amount yet, any allowance counts. Derived
 * here, never stored, so a new amount, allowance or pool changes it at once. An allowance not read yet counts as none.
 */
export const selectApproval = createSelector(
  [selectPoolAllowance, selectSymbol, (_s: State, amountWei: string | null) => amountWei],
  (allowance, symbol, amountWei) => {
    const have = BigInt(allowance ?? '0')
    const need = amountWei === null ? 0n : BigInt(amountWei)
    const withSymbol = (wei: bigint) => formatAmount(wei, { symbol })
    return {
      approved: need > 0n ? have >= need : have > 0n,
      /** Some allowance, but less than this amount: Approve is offered again, for at least the amount. */
      short: need > 0n && have > 0n && have < need,
      allowanceText: withSymbol(have),
      /** The exact choice: this deposit's amount (base units and text), or null while there is no amount. */
      exact: need > 0n ? { amount: need.toString(), text: withSymbol(need) } : null,
      /** The spec's standing approval (1e28 base units), the default choice. */
      unlimited: { amount: APPROVE_AMOUNT.toString(), text: withSymbol(APPROVE_AMOUNT) },
    }
  },
)

/** selectApproval for one amount, as a component subscribes to it: `useAppSelector(selectApprovalOf(amountWei))`. */
export const selectApprovalOf = (amountWei: string | null) => (s: State) => selectApproval(s, amountWei)

/** An approval this wallet sent is still pending, perhaps from before a reload: the dialog waits for it, not a second one. */
export const selectApprovalInFlight = (s: State) => s.stake.approving || selectTxPending(s, 'approve')

/** Owner calls the timelock has scheduled for the page's pool, one line each (docs/product.md §2.6). */
export const selectPoolScheduled = createSelector(
  [selectPool, (s: State) => selectScheduledCalls(s, s.stake.pool?.address ?? null)],
  (pool, calls): string[] => (pool ? describeScheduled(calls, pool) : []),
  stable,
)

/**
 * Sign and stake (docs/product.md §4.6): offered when the connected wallet can sign a permit for this pool's token
 * (read for this wallet and pool when the dialog opened).
 */
export const selectCanSignPermit = (s: State): boolean => {
  const support = s.stake.permitSupport
  const pool = s.stake.pool
  const owner = selectAddress(s)
  return (
    !!support &&
    !!pool &&
    !!owner &&
    support.signable &&
    support.pool === pool.address.toLowerCase() &&
    support.owner === owner.toLowerCase()
  )
}

/** The signed permit for exactly `amountWei` from this wallet to this pool, or null: another amount signs again. */
export const selectPermitFor = (amountWei: string | null) => (s: State) => {
  const p = s.stake.permit
  const pool = s.stake.pool
  const owner = selectAddress(s)
  if (!p || !pool || !owner || amountWei === null) return null
  return p.amount === amountWei && p.pool === pool.address.toLowerCase() && p.owner === owner.toLowerCase() ? p : null
}

/** A permit signature is being asked of the wallet, and why the last one was not given (null after a decline). */
export const selectSigning = (s: State) => s.stake.signing
export const selectSignError = (s: State) => s.stake.signError

/** The statistics block's pool and period, and each period's read (the saga reads what is missing). */
export const selectStats = (s: State) => s.stake.stats
const selectStatsRange = (s: State) => s.stake.stats.range
const selectStatsRead = (s: State) => s.stake.stats.byRange[s.stake.stats.range]

/** The statistics block as it shows: charts' points, table, summary, notices (docs/product.md §2.10). */
export const selectStatsView = createSelector([selectStatsRead, selectStatsRange, selectSymbol], statsView)
