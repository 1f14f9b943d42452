import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import { txConfirmed } from '../../chain/txActions'
import { walletChanged } from '../wallet/slice'

/** The token's name and symbol, the wallet balance and, from a read of the current pool, the allowance to it. */
export interface TokenFigures {
  name: string
  symbol: string
  balance: string
  allowance?: string
}

/**
 * Amounts are base-unit decimal strings; percentages 1e18-scaled strings; times unix seconds; hold times seconds
 * (SPEC section 3). Everything comes from the Lens in one read, so a refresh is one JSON-RPC round trip.
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
  /** Before the fee: principal + reward earned + bonus if matured + gains. */
  amountOut: string
  fee: string
  /** Bonus and unearned reward an early close gives (or gave) back to the reservoir. */
  forfeited: string
}

export interface HarvestTerm {
  /** seconds */
  hold: number
  bonus: string
}

type Status = 'idle' | 'pending' | 'succeeded' | 'failed'

export interface StakeState {
  /** Pool id from the route (/staking/:id); null means the network's default pool. */
  poolId: number | null
  pool: PoolInfo | null
  /** The chain's time at the last read (progress and fees are shown as of then), and the wall clock then (ms). */
  chainTime: number
  readAt: number
  /** Active stakes, then those closed in the last six months (newest close first), as far as the pages read go. */
  userStakes: StakeEntry[]
  /** How many pages of the stake list the page reads (each refresh reads them in one Lens call); 'Show more' adds one. */
  stakePages: number
  /** Whether the list goes on past what was read. */
  moreStakes: boolean
  /** Sum of the amounts of the user's active stakes. */
  totalStakedByUser: string
  userShares: string
  status: Status
  /** The 15 s auto-update: stops at its first error until the page is opened again or the user acts. */
  autoUpdate: 'off' | 'running' | 'stopped'
  deposit: { status: Status; error: string | null }
  /** Allowance approval in flight (sent, or polled until the chain shows it). */
  approving: boolean
  /** Why the last approval did not go through (a revert's reason, a dropped transaction); null after a rejection. */
  approveError: string | null
  /** The stake being closed (summary dialog), the close in flight, and why it did not go through. */
  closing: { id: number | null; status: Status; error: string | null }
  /** Claim-and-stake terms of `harvestPool` (the network's default pool). */
  harvestTerms: HarvestTerm[]
  harvestPool: string | null
  /**
   * Inflation a year (1e18-scaled percent) that a claim staked in `harvestPool` earns on top of its term's bonus
   * (version 1 pools; '0' in version 2); null until the read that brings the terms names it.
   */
  harvestInflationPercent: string | null
  /** RewardHarvest.getLastBlock for the wallet: the block its last claim named (decimal string). */
  lastClaimedBlock: string | null
}

/** Dialog names of the staking page (opened through the wallet slice's modal state). */
export const DEPOSIT_MODAL = 'deposit'
export const STAKE_SUMMARY_MODAL = 'stakeSummary'

export const initialStakeState: StakeState = {
  poolId: null,
  pool: null,
  chainTime: 0,
  readAt: 0,
  userStakes: [],
  stakePages: 1,
  moreStakes: false,
  totalStakedByUser: '0',
  userShares: '0',
  status: 'idle',
  autoUpdate: 'off',
  deposit: { status: 'idle', error: null },
  approving: false,
  approveError: null,
  closing: { id: null, status: 'idle', error: null },
  harvestTerms: [],
  harvestPool: null,
  harvestInflationPercent: null,
  lastClaimedBlock: null,
}

export interface PoolLoaded {
  pool: PoolInfo
  chainTime: number
  readAt: number
  userStakes: StakeEntry[] | null
  /** The list continues past `userStakes`. */
  moreStakes: boolean
  totalStakedByUser: string
  userShares: string
  /** The token figures from the same read, with the allowance to this pool; null without a wallet. */
  token: TokenFigures | null
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
 * What the deposit form sends: amount in base units, whole days, a referral address or null, and the accepted lower
 * terms when the reservoir runs short (absent or null: the full terms or nothing).
 */
export interface DepositRequest {
  amount: string
  days: number
  referral: string | null
  minimums?: DepositMinimums | null
}

const stakeSlice = createSlice({
  name: 'stake',
  initialState: initialStakeState,
  reducers: {
    /** The route's pool id (or null for the network default). */
    poolSelected(state, action: PayloadAction<number | null>) {
      if (state.poolId !== action.payload) state.stakePages = 1
      state.poolId = action.payload
    },
    stakingPageOpened() {},
    stakingPageClosed(state) {
      state.autoUpdate = 'off'
    },
    /** A manual reload (and restart of a stopped auto-update). */
    stakeRefreshRequested() {},
    poolRequested(state) {
      if (state.status !== 'succeeded') state.status = 'pending'
    },
    poolLoaded(state, { payload }: PayloadAction<PoolLoaded>) {
      state.pool = payload.pool
      state.chainTime = payload.chainTime
      state.readAt = payload.readAt
      // An unstake-data read failure shows an empty list (SPEC section 8).
      state.userStakes = payload.userStakes ?? []
      state.moreStakes = payload.userStakes !== null && payload.moreStakes
      state.totalStakedByUser = payload.totalStakedByUser
      state.userShares = payload.userShares
      state.status = 'succeeded'
    },
    poolFailed(state) {
      state.status = 'failed'
    },
    /** 'Show more': the next read covers one more page of the stake list. */
    moreStakesRequested(state) {
      if (state.moreStakes) state.stakePages += 1
    },
    autoUpdateChanged(state, action: PayloadAction<StakeState['autoUpdate']>) {
      state.autoUpdate = action.payload
    },
    depositRequested(state, _action: PayloadAction<DepositRequest>) {
      state.deposit = { status: 'pending', error: null }
    },
    depositSettled(state, action: PayloadAction<{ ok: boolean; error: string | null }>) {
      state.deposit = { status: action.payload.ok ? 'succeeded' : 'failed', error: action.payload.error }
    },
    depositReset(state) {
      state.deposit = { status: 'idle', error: null }
      state.approveError = null
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
    harvestTermsLoaded(state, action: PayloadAction<{ pool: string; terms: HarvestTerm[]; inflationPercent?: string }>) {
      state.harvestPool = action.payload.pool
      state.harvestTerms = action.payload.terms
      state.harvestInflationPercent = action.payload.inflationPercent ?? null
    },
    lastClaimedBlockLoaded(state, action: PayloadAction<string | null>) {
      state.lastClaimedBlock = action.payload
    },
  },
  extraReducers: (b) => {
    // Another wallet starts from the first page of its own list.
    b.addCase(walletChanged, (state, { payload }) => {
      if (payload.account !== null) state.stakePages = 1
    })
    // A confirmed stake or close restarts a stopped auto-update (a manual action, SPEC section 4).
    b.addCase(txConfirmed, (state, { payload }) => {
      if (state.autoUpdate === 'stopped' && (payload.kind === 'stake' || payload.kind === 'unstake')) state.autoUpdate = 'running'
    })
  },
})

export const {
  poolSelected,
  stakingPageOpened,
  stakingPageClosed,
  stakeRefreshRequested,
  poolRequested,
  poolLoaded,
  poolFailed,
  moreStakesRequested,
  autoUpdateChanged,
  depositRequested,
  depositSettled,
  depositReset,
  allowanceCheckRequested,
  approveRequested,
  approveSettled,
  stakeSummaryOpened,
  unstakeRequested,
  unstakeSettled,
  harvestTermsLoaded,
  lastClaimedBlockLoaded,
} = stakeSlice.actions
export default stakeSlice.reducer
