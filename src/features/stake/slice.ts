import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import { txConfirmed } from '../../chain/txActions'
import type { IndexFailure } from '../token/slice'
import type { IndexPosition } from '../token/activity/api'
import type { StatPoint } from '../../domain/activityAnswer'

/**
 * Amounts are base-unit decimal strings; percentages 1e18-scaled strings; times unix seconds; hold times seconds
 * (docs/product.md §12.1). Everything comes from the Lens in one read, so a refresh is one JSON-RPC round trip.
 */
export interface PoolInfo {
  id: number
  address: string
  version: number
  totalStaked: string
  /** Pool shares in existence (the pool's ERC20 total supply). */
  totalShares: string
  /** 1e18 fixed point */
  rate: string
  inflationPercent: string
  refererBonusPercent: string
  timeBonusPercent: string
  unHoldFee: string
  holdTimeRefMin: number
  holdTimeMax: number
  reservoirAvailable: string
  stakingPaused: boolean
  /** Addresses with at least one active stake (the pool's own count): the page's total stakers. */
  stakersCount: number
  /**
   * Early-close fees still streaming to the holders (version 1, getFeeStream): base units not yet released, '0' when
   * none or not read; released linearly until `feeStreamEnd` (unix seconds, 0 when none).
   */
  feesStreaming: string
  feeStreamEnd: number
}

/**
 * A stake with the terms it was made under and what closing it pays now (active) or paid (closed). Amounts are
 * base-unit decimal strings; times unix seconds; closeTime 0 while active.
 */
export interface StakeEntry {
  id: number
  active: boolean
  stakeTime: number
  holdTime: number
  closeTime: number
  /** Principal. */
  stakeAmount: string
  /** Pool shares (0 once closed). */
  lpAmount: string
  /** Length/referral bonus, funded at stake time, paid only at maturity. */
  bonus: string
  /** Inflation over the whole hold, funded at stake time, earned linearly. */
  reward: string
  /** The stake's own early-withdrawal fee at the start, 1e18-scaled percent. */
  unHoldFee: string
  /** Fees earned from other stakers' early closes: so far if active, at the close if closed. */
  gains: string
  /**
   * The pool's rate when the stake was made (version 1; 1e18 in version 2, and '0' once closed): with the pool's rate
   * now it gives the gains, so a refresh brings an active stake's figures up to date without reading it again.
   */
  entryRate: string
  /** Before the fee: principal + reward earned + bonus if matured + gains. */
  amountOut: string
  fee: string
  /** Bonus and unearned reward an early close gives (or gave) back to the reservoir. */
  forfeited: string
}

type Status = 'idle' | 'pending' | 'succeeded' | 'failed'

/** The statistics block's periods (docs/product.md §2.10): the last 7 days, the last 30, and since the pool's start. */
export type StatsRange = '7d' | '30d' | 'all'

export type { StatPoint }

/** One period's read: the buckets, their size, how far the index had read, and a failure (the last points stay). */
export interface StatsRead {
  status: 'loading' | 'ok' | 'failed'
  error: string | null
  failure: IndexFailure | null
  interval: 'day' | 'week'
  points: StatPoint[]
  index: IndexPosition | null
  /** Wall clock ms of the answer on screen, null before any. */
  readAt: number | null
}

/** The statistics block: whose pool (lower case), the period chosen, and each period's read so far. */
export interface StatsState {
  pool: string | null
  range: StatsRange
  byRange: Partial<Record<StatsRange, StatsRead>>
}

/** The stake list's read: nothing read yet for this wallet and pool, under way, read, or failed (rows kept). */
export type ListStatus = 'idle' | 'loading' | 'ok' | 'failed'

export interface StakeState {
  /** Pool id from the route (/staking/:id); null means the network's default pool. */
  poolId: number | null
  pool: PoolInfo | null
  /** The chain's time at the last read (progress and fees are shown as of then), and the wall clock then (ms). */
  chainTime: number
  readAt: number
  /** The block the figures on screen were read at (null before the first read). */
  blockNumber: number | null
  /** Reads in a row that answered from a block before `blockNumber` and were set aside (a node behind the last one). */
  behindReads: number
  /**
   * Whose stakes the list holds (the wallet's, or the `?account=` address's): a read for anyone else drops the rows
   * first (listHolderChanged), a read for the same keeps them.
   */
  owner: string | null
  /** Active stakes, then those closed in the last six months (newest close first), as far as the pages read go. */
  userStakes: StakeEntry[]
  /** Whether the list goes on past what was read. */
  moreStakes: boolean
  /** Where 'Show more' continues the list (the Lens's `next`, a decimal string); null at its end. */
  nextOffset: string | null
  /** The stake list's read and why it failed; a failure keeps the rows already on screen. */
  listStatus: ListStatus
  listError: string | null
  /** Sum of the amounts of the user's active stakes (null until read for this wallet). */
  totalStakedByUser: string | null
  /** Stakes the user ever made in the pool: with the total staked, it tells a refresh whether the list changed. */
  userStakesCount: string | null
  userShares: string
  /** The pool read: 'failed' keeps the last figures on screen, marked with their block and age. */
  status: Status
  /** Why the last read failed, for the outage banner (null when it did not). */
  error: string | null
  /**
   * The 15 s auto-update: 'paused' after its first error (docs/product.md §3.9 stops it there), while it retries with
   * backoff and resumes by itself once the chain answers (issue #14, docs/product.md §10.1).
   */
  autoUpdate: 'off' | 'running' | 'paused'
  /** When the next retry of a paused auto-update is due (wall clock ms), null when none is scheduled. */
  retryAt: number | null
  deposit: { status: Status; error: string | null }
  /** Allowance approval in flight (sent, or polled until the chain shows it). */
  approving: boolean
  /** Why the last approval did not go through (a revert's reason, a dropped transaction); null after a rejection. */
  approveError: string | null
  /** The stake being closed (summary dialog), the close in flight, and why it did not go through. */
  closing: { id: number | null; status: Status; error: string | null }
  /** "Close all matured" (docs/product.md §2.4): its one unstake(ids) in flight, and why it did not go through. */
  closingAll: { status: Status; error: string | null }
  /**
   * Restake (docs/product.md §2.6a): the matured stakes the dialog restakes (one from its row or summary, every one from
   * "Close all matured"), its one restake(ids, ...) in flight, and why it did not go through.
   */
  restaking: { ids: number[]; status: Status; error: string | null }
  /**
   * Sign and stake (docs/product.md §4.6): whether this wallet can sign an EIP-2612 permit for this pool's token (it is
   * not a contract, and the token has permits), read when the deposit dialog opens; null until read.
   */
  permitSupport: { owner: string; pool: string; signable: boolean } | null
  /** The permit the wallet signed for the deposit on screen, its signing in flight, and why it was not signed. */
  permit: SignedPermit | null
  signing: boolean
  signError: string | null
  stats: StatsState
}

/**
 * An EIP-2612 permit the wallet signed for a deposit: `amount` (base units) of `owner`'s tokens to `pool`, good until
 * `deadline` (chain seconds), with its signature. Plain JSON: a deposit of another amount needs another permit.
 */
export interface SignedPermit {
  owner: string
  pool: string
  amount: string
  deadline: string
  v: number
  r: string
  s: string
}

/** The part of the store this slice owns: what its selectors read, typed without the whole store. */
export interface StakeRoot {
  stake: StakeState
}

/** A failed read: a short sentence for the banner. */
export interface ReadFailure {
  error: string
}

/** Clears what belongs to another wallet or pool: its rows are not this one's. */
function forgetList(state: StakeState) {
  state.userStakes = []
  state.moreStakes = false
  state.nextOffset = null
  state.listStatus = 'idle'
  state.listError = null
  state.totalStakedByUser = null
  state.userStakesCount = null
}

export const initialStakeState: StakeState = {
  poolId: null,
  pool: null,
  chainTime: 0,
  readAt: 0,
  blockNumber: null,
  behindReads: 0,
  owner: null,
  userStakes: [],
  moreStakes: false,
  nextOffset: null,
  listStatus: 'idle',
  listError: null,
  totalStakedByUser: null,
  userStakesCount: null,
  userShares: '0',
  status: 'idle',
  error: null,
  autoUpdate: 'off',
  retryAt: null,
  deposit: { status: 'idle', error: null },
  approving: false,
  approveError: null,
  closing: { id: null, status: 'idle', error: null },
  closingAll: { status: 'idle', error: null },
  restaking: { ids: [], status: 'idle', error: null },
  permitSupport: null,
  permit: null,
  signing: false,
  signError: null,
  stats: { pool: null, range: '30d', byRange: {} },
}

export interface PoolLoaded {
  pool: PoolInfo
  chainTime: number
  readAt: number
  /** The block of the read (absent in older fixtures: unknown). */
  blockNumber?: number
  /** The whole list as far as it is shown, or null when this read did not cover it (the rows on screen stay). */
  userStakes: StakeEntry[] | null
  /** The list continues past `userStakes`. */
  moreStakes: boolean
  /** Where the list continues (the Lens's `next`), null at its end. */
  nextOffset?: string | null
  totalStakedByUser: string
  userStakesCount?: string
  userShares: string
}

/**
 * Lower terms the person accepted because the reward reservoir cannot fund the full ones: the least bonus and reward
 * (base units) the stake may get, as the preview showed them.
 */
export interface DepositMinimums {
  bonus: string
  reward: string
}

/**
 * The terms a deposit's preview showed, which the stake is sent with as its bounds: the early-close fee at most
 * `maxFee` (1e18-scaled percent), the bonus and reward at least `minBonus` and `minReward` (base units). The pool
 * refuses a stake that would land on worse terms, naming the term (FeeAboveMax, BonusBelowMin, RewardBelowMin).
 */
export interface DepositTerms {
  maxFee: string
  minBonus: string
  minReward: string
}

/**
 * What the restake dialog sends (docs/product.md §2.6a): the matured stakes it shows, by id, the new term in whole days,
 * and the lower terms the person accepted when the reservoir runs short (null: the full terms or nothing). The saga
 * works out the amount and the bounds from the list as read, as the deposit's saga does from the pool on screen.
 */
export interface RestakeRequest {
  ids: number[]
  days: number
  minimums: DepositMinimums | null
}

/**
 * What the deposit form sends: amount in base units, whole days, a referral address or null, and the accepted lower
 * terms when the reservoir runs short (absent or null: the full terms or nothing). `terms`: the figures the preview
 * showed; absent or null, the saga takes them from the same preview of the pool on screen (depositTerms).
 */
export interface DepositRequest {
  amount: string
  days: number
  referral: string | null
  minimums?: DepositMinimums | null
  terms?: DepositTerms | null
  /**
   * A Safe's deposit (docs/product.md §11.4): approve exactly this amount (base units) in the same Safe transaction,
   * before the stake, so its owners confirm one batch and no allowance is left behind.
   */
  approveFirst?: string | null
}

const stakeSlice = createSlice({
  name: 'stake',
  initialState: initialStakeState,
  reducers: {
    /** The route's pool id (or null for the network default). */
    poolSelected(state, action: PayloadAction<number | null>) {
      if (state.poolId !== action.payload) forgetList(state)
      state.poolId = action.payload
    },
    stakingPageOpened() {},
    stakingPageClosed(state) {
      state.autoUpdate = 'off'
      state.retryAt = null
    },
    /** A manual reload (and restart of a stopped auto-update). */
    stakeRefreshRequested() {},
    poolRequested(state) {
      // A read after a failure keeps the failure on screen until it succeeds; only a first read shows loading.
      if (state.status === 'idle') state.status = 'pending'
      if (state.listStatus === 'idle') state.listStatus = 'loading'
    },
    /** The page reads another holder's stakes now (a wallet or `?account=` change): the last one's rows go. */
    listHolderChanged(state, action: PayloadAction<string | null>) {
      forgetList(state)
      state.owner = action.payload
    },
    poolLoaded(state, { payload }: PayloadAction<PoolLoaded>) {
      state.pool = payload.pool
      state.chainTime = payload.chainTime
      state.readAt = payload.readAt
      state.blockNumber = payload.blockNumber ?? state.blockNumber
      state.behindReads = 0
      if (payload.userStakes !== null) {
        state.userStakes = payload.userStakes
        state.moreStakes = payload.moreStakes
        state.nextOffset = payload.nextOffset ?? null
        state.listStatus = 'ok'
        state.listError = null
      }
      state.totalStakedByUser = payload.totalStakedByUser
      state.userStakesCount = payload.userStakesCount ?? null
      state.userShares = payload.userShares
      state.status = 'succeeded'
      state.error = null
    },
    /**
     * The node answered from a block before the figures on screen (another node behind a load balancer): its answer
     * is set aside and the newer figures stay; the chain did answer, so an outage is over.
     */
    poolReadBehind(state) {
      state.behindReads += 1
      if (state.status !== 'succeeded') state.status = 'succeeded'
      state.error = null
    },
    /** The pool read failed: the last figures stay, marked with their block and age (issue #14). */
    poolFailed(state, action: PayloadAction<ReadFailure>) {
      state.status = 'failed'
      state.error = action.payload.error
    },
    /** The stake list could not be read: its rows stay as they were, and the list says so (never the empty state). */
    stakesFailed(state, action: PayloadAction<ReadFailure>) {
      state.listStatus = 'failed'
      state.listError = action.payload.error
    },
    /** 'Show more': the next page is read and added; the rows already shown are not read again. */
    moreStakesRequested() {},
    /** A page that 'Show more' read: appended after the rows shown. */
    stakesPageLoaded(state, action: PayloadAction<{ rows: StakeEntry[]; nextOffset: string | null }>) {
      const seen = new Set(state.userStakes.map((e) => e.id))
      state.userStakes.push(...action.payload.rows.filter((e) => !seen.has(e.id)))
      state.nextOffset = action.payload.nextOffset
      state.moreStakes = action.payload.nextOffset !== null
      state.listStatus = 'ok'
      state.listError = null
    },
    autoUpdateChanged(state, action: PayloadAction<{ mode: StakeState['autoUpdate']; retryAt?: number | null }>) {
      state.autoUpdate = action.payload.mode
      state.retryAt = action.payload.retryAt ?? null
    },
    depositRequested(state, _action: PayloadAction<DepositRequest>) {
      state.deposit = { status: 'pending', error: null }
    },
    /** The same deposit in one signature: an EIP-2612 permit for the amount, then the pool's stakeWithPermit. */
    depositWithPermitRequested(state, _action: PayloadAction<DepositRequest>) {
      state.deposit = { status: 'pending', error: null }
    },
    depositSettled(state, action: PayloadAction<{ ok: boolean; error: string | null }>) {
      state.deposit = { status: action.payload.ok ? 'succeeded' : 'failed', error: action.payload.error }
    },
    depositReset(state) {
      state.deposit = { status: 'idle', error: null }
      state.approveError = null
      state.permit = null
      state.signing = false
      state.signError = null
    },
    permitSupportLoaded(state, action: PayloadAction<{ owner: string; pool: string; signable: boolean }>) {
      state.permitSupport = action.payload
    },
    /** Sign a permit for `amount` (base units) to the pool on screen: the first step of Sign and stake. */
    permitSignRequested(state, _action: PayloadAction<{ amount: string }>) {
      state.signing = true
      state.signError = null
    },
    /** The wallet signed (the permit), or did not (why; null after a decline, which is only a notice). */
    permitSigned(state, action: PayloadAction<{ permit: SignedPermit | null; error: string | null }>) {
      state.signing = false
      state.signError = action.payload.error
      if (action.payload.permit) state.permit = action.payload.permit
    },
    allowanceCheckRequested() {},
    /** Approve `amount` (base units) for the pool: the deposit's exact amount, or the spec's 1e28. */
    approveRequested(state, _action: PayloadAction<{ amount: string }>) {
      state.approving = true
      state.approveError = null
    },
    approveSettled(state, action: PayloadAction<{ error: string | null }>) {
      state.approving = false
      state.approveError = action.payload.error
    },
    stakeSummaryOpened(state, action: PayloadAction<number>) {
      state.closing = { id: action.payload, status: 'idle', error: null }
    },
    unstakeRequested(state, action: PayloadAction<number>) {
      state.closing = { id: action.payload, status: 'pending', error: null }
    },
    unstakeSettled(state, action: PayloadAction<{ ok: boolean; error: string | null }>) {
      state.closing.status = action.payload.ok ? 'succeeded' : 'failed'
      state.closing.error = action.payload.error
    },
    /** The "Close all matured" dialog opens: the last attempt's outcome is not this one's. */
    closeAllMaturedOpened(state) {
      state.closingAll = { status: 'idle', error: null }
    },
    /** Close the matured stakes `ids` (the ones the dialog showed) in one unstake(ids). */
    closeAllMaturedRequested(state, _action: PayloadAction<{ ids: number[] }>) {
      state.closingAll = { status: 'pending', error: null }
    },
    closeAllMaturedSettled(state, action: PayloadAction<{ ok: boolean; error: string | null }>) {
      state.closingAll = { status: action.payload.ok ? 'succeeded' : 'failed', error: action.payload.error }
    },
    /** The restake dialog opens for the matured stakes `ids`: the last attempt's outcome is not this one's. */
    restakeOpened(state, action: PayloadAction<{ ids: number[] }>) {
      state.restaking = { ids: action.payload.ids, status: 'idle', error: null }
    },
    /** Restake the stakes the dialog shows for the days chosen, in one restake(ids, hold, maxFee, minBonus, minReward). */
    restakeRequested(state, _action: PayloadAction<RestakeRequest>) {
      state.restaking.status = 'pending'
      state.restaking.error = null
    },
    restakeSettled(state, action: PayloadAction<{ ok: boolean; error: string | null }>) {
      state.restaking.status = action.payload.ok ? 'succeeded' : 'failed'
      state.restaking.error = action.payload.error
    },
    /** The statistics block shows `pool`: another pool's figures go; its saga reads the period chosen. */
    statsShown({ stats }, { payload }: PayloadAction<{ pool: string }>) {
      const pool = payload.pool.toLowerCase()
      if (stats.pool !== pool) Object.assign(stats, { pool, byRange: {} })
    },
    statsRangeChosen({ stats }, { payload }: PayloadAction<StatsRange>) {
      stats.range = payload
    },
    /** Retry after a failure. */
    statsRefreshRequested() {},
    statsRequested({ stats }, { payload }: PayloadAction<{ pool: string; range: StatsRange }>) {
      if (payload.pool !== stats.pool) return
      // A retry keeps the failure (and any points) on screen until it succeeds.
      stats.byRange[payload.range] ??= {
        status: 'loading',
        error: null,
        failure: null,
        interval: 'day',
        points: [],
        index: null,
        readAt: null,
      }
    },
    /** `at`: when it was read (wall clock ms), from the saga. An answer for a pool no longer shown is dropped. */
    statsLoaded(
      { stats },
      {
        payload: p,
      }: PayloadAction<{
        pool: string
        range: StatsRange
        interval: 'day' | 'week'
        points: StatPoint[]
        index: IndexPosition
        at: number
      }>,
    ) {
      if (p.pool !== stats.pool) return
      stats.byRange[p.range] = {
        status: 'ok',
        error: null,
        failure: null,
        interval: p.interval,
        points: p.points,
        index: p.index,
        readAt: p.at,
      }
    },
    statsFailed(
      { stats },
      { payload: p }: PayloadAction<{ pool: string; range: StatsRange; error: string; failure: IndexFailure }>,
    ) {
      const read = stats.byRange[p.range]
      if (p.pool !== stats.pool || !read) return
      Object.assign(read, { status: 'failed', error: p.error, failure: p.failure })
    },
  },
  extraReducers: (b) => {
    // A confirmed stake, close or restake restarts a paused auto-update (a manual action, docs/product.md §3.9).
    b.addCase(txConfirmed, (state, { payload }) => {
      if (
        state.autoUpdate === 'paused' &&
        (payload.kind === 'stake' || payload.kind === 'unstake' || payload.kind === 'restake')
      ) {
        state.autoUpdate = 'running'
        state.retryAt = null
      }
    })
  },
})

export const {
  poolSelected,
  listHolderChanged,
  stakingPageOpened,
  stakingPageClosed,
  stakeRefreshRequested,
  poolRequested,
  poolLoaded,
  poolFailed,
  poolReadBehind,
  stakesFailed,
  stakesPageLoaded,
  moreStakesRequested,
  autoUpdateChanged,
  depositRequested,
  depositWithPermitRequested,
  depositSettled,
  depositReset,
  permitSupportLoaded,
  permitSignRequested,
  permitSigned,
  allowanceCheckRequested,
  approveRequested,
  approveSettled,
  stakeSummaryOpened,
  unstakeRequested,
  unstakeSettled,
  closeAllMaturedOpened,
  closeAllMaturedRequested,
  closeAllMaturedSettled,
  restakeOpened,
  restakeRequested,
  restakeSettled,
  statsShown,
  statsRangeChosen,
  statsRefreshRequested,
  statsRequested,
  statsLoaded,
  statsFailed,
} = stakeSlice.actions
export default stakeSlice.reducer
