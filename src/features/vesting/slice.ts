import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { VestingAnswer } from '../../domain/vestingAnswer'

/** What the vesting API answers (docs/product.md §12.4), kept as it came. */
export type VestingInfo = VestingAnswer

type Status = 'idle' | 'pending' | 'succeeded' | 'failed'

/** A claim-and-stake term of the harvest pool (docs/product.md §12.3). */
export interface HarvestTerm {
  /** seconds */
  hold: number
  bonus: string
}

export interface VestingState {
  info: VestingInfo
  /**
   * The vesting API read. 'failed' keeps the last answer in `info` (zeros only before any answer, and then the page
   * shows the figures as unavailable, never as zeros: issue #14, docs/product.md §10).
   */
  status: Status
  /** Why the last API read failed, and when the answer on screen was read (wall clock ms; null before any). */
  error: string | null
  loadedAt: number | null
  /** The chain reads beside it (last claimed block, harvest terms, token): 'failed' blocks the claim and says why. */
  chainStatus: Status
  chainError: string | null
  /**
   * The chain's clock as the last chain read found it: the latest block's time (unix seconds) and when it was read
   * (wall clock ms). The timeline's "today" runs on it, as the API's figures do (a dev chain may be ahead of the wall
   * clock); null before a read.
   */
  chainClock: { chainTime: number; readAt: number } | null
  /** When the next automatic retry after a failure is due (wall clock ms), null when none is scheduled. */
  retryAt: number | null
  /**
   * The claim page is not on screen (left, or not opened yet): its automatic retries stop, or never start (it reads
   * again when shown). A wallet connecting on the staking page reads the claim figures too, and an outage then must
   * not leave a retry loop running for a page nobody sees.
   */
  claimPageLeft: boolean
  /** A claim (to the wallet or into a stake) in flight: buttons show it and stay disabled. */
  claim: { status: Status; kind: 'wallet' | 'stake' | null; error: string | null }
  /** Index of the harvest term picked in the chooser (the second by default, docs/product.md §2.7). */
  selectedTerm: number
  /** Claim-and-stake terms of `harvestPool` (the network's default pool), from the chain read beside the API's. */
  harvestTerms: HarvestTerm[]
  harvestPool: string | null
  /**
   * Inflation a year (1e18-scaled percent) that a claim staked in `harvestPool` earns on top of its term's bonus
   * (version 1 pools; '0' in version 2); null until the read that brings the terms names it.
   */
  harvestInflationPercent: string | null
  /**
   * The early-close fee (1e18-scaled percent) a claim staked in `harvestPool` starts with, read with the terms; null
   * until read. Claim-and-stake sends it as the stake's highest fee.
   */
  harvestUnHoldFee: string | null
  /** RewardHarvest.getLastBlock for the wallet: the block its last claim named (decimal string). */
  lastClaimedBlock: string | null
  /** Whose status `info` and `lastClaimedBlock` are: the wallet's, or the `?account=` address's. */
  holder: string | null
}

/** The part of the store this slice owns: what its selectors read, typed without the whole store. */
export interface VestingRoot {
  vesting: VestingState
}

/** The info before any answer; the page shows it as unavailable, not as zeros (docs/product.md §10). */
export const EMPTY_VESTING_INFO: VestingInfo = {
  total: '0',
  claimed: '0',
  unlocked: '0',
  lastUpdateBlock: '0',
  currentBlock: '0',
  deadline: null,
  message: null,
  signature: null,
  rewardToken: null,
  next: null,
  schedule: [],
}

export const DEFAULT_TERM_INDEX = 1

export const initialVestingState: VestingState = {
  info: EMPTY_VESTING_INFO,
  status: 'idle',
  error: null,
  loadedAt: null,
  chainStatus: 'idle',
  chainError: null,
  chainClock: null,
  retryAt: null,
  claimPageLeft: true,
  claim: { status: 'idle', kind: null, error: null },
  selectedTerm: DEFAULT_TERM_INDEX,
  harvestTerms: [],
  harvestPool: null,
  harvestInflationPercent: null,
  harvestUnHoldFee: null,
  lastClaimedBlock: null,
  holder: null,
}

const vestingSlice = createSlice({
  name: 'vesting',
  initialState: initialVestingState,
  reducers: {
    /** Ask for a fresh vesting status (page shown, after a claim); the saga does the reading. */
    vestingRefreshRequested() {},
    claimPageOpened(state) {
      state.claimPageLeft = false
    },
    claimPageClosed(state) {
      state.claimPageLeft = true
    },
    /** The page reads another holder now (a wallet or `?account=` change): the last one's figures go, not shown as theirs. */
    vestingHolderChanged(state, action: PayloadAction<string | null>) {
      state.info = EMPTY_VESTING_INFO
      state.status = 'idle'
      state.error = null
      state.loadedAt = null
      state.chainStatus = 'idle'
      state.chainError = null
      state.lastClaimedBlock = null
      state.claim = { status: 'idle', kind: null, error: null }
      state.holder = action.payload
    },
    vestingRequested(state) {
      // A retry after a failure keeps the failure on screen until it succeeds.
      if (state.status !== 'failed') state.status = 'pending'
    },
    /** `at`: when the answer was read (ms), from the saga: a reducer never reads the clock, so a replay matches. */
    vestingLoaded(state, action: PayloadAction<{ info: VestingInfo; at: number }>) {
      state.info = action.payload.info
      state.status = 'succeeded'
      state.error = null
      state.loadedAt = action.payload.at
      state.retryAt = null
    },
    /** The API did not answer (or answered nonsense): the last answer stays on screen, marked with its age. */
    vestingFailed(state, action: PayloadAction<{ error: string }>) {
      state.status = 'failed'
      state.error = action.payload.error
    },
    /** `clock`: the latest block's time and when it was read (ms), from the saga; a failed read keeps the last one. */
    vestingChainRead(state, action: PayloadAction<{ error: string | null; clock?: { chainTime: number; readAt: number } }>) {
      state.chainStatus = action.payload.error === null ? 'succeeded' : 'failed'
      state.chainError = action.payload.error
      if (action.payload.clock) state.chainClock = action.payload.clock
    },
    vestingRetryScheduled(state, action: PayloadAction<number | null>) {
      state.retryAt = action.payload
    },
    /** Claim to the wallet: harvest(...). */
    claimRequested(state) {
      state.claim = { status: 'pending', kind: 'wallet', error: null }
    },
    /** Claim and stake with a term's hold in seconds: harvestStake(..., pool, hold). */
    stakingRequested(state, _action: PayloadAction<{ hold: number }>) {
      state.claim = { status: 'pending', kind: 'stake', error: null }
    },
    claimSettled(state, action: PayloadAction<{ ok: boolean; error: string | null }>) {
      state.claim = { status: action.payload.ok ? 'succeeded' : 'failed', kind: state.claim.kind, error: action.payload.error }
    },
    termSelected(state, action: PayloadAction<number>) {
      state.selectedTerm = action.payload
    },
    harvestTermsLoaded(
      state,
      action: PayloadAction<{ pool: string; terms: HarvestTerm[]; inflationPercent?: string; unHoldFee?: string }>,
    ) {
      state.harvestPool = action.payload.pool
      state.harvestTerms = action.payload.terms
      state.harvestInflationPercent = action.payload.inflationPercent ?? null
      state.harvestUnHoldFee = action.payload.unHoldFee ?? null
    },
    lastClaimedBlockLoaded(state, action: PayloadAction<string | null>) {
      state.lastClaimedBlock = action.payload
    },
  },
})

export const {
  vestingRefreshRequested,
  claimPageOpened,
  claimPageClosed,
  vestingRequested,
  vestingHolderChanged,
  vestingLoaded,
  vestingFailed,
  vestingChainRead,
  vestingRetryScheduled,
  claimRequested,
  stakingRequested,
  claimSettled,
  termSelected,
  harvestTermsLoaded,
  lastClaimedBlockLoaded,
} = vestingSlice.actions
export default vestingSlice.reducer
