import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { VestingAnswer } from '../../chain/vestingAnswer'

/** What the vesting API answers (SPEC section 3), kept as it came. */
export type VestingInfo = VestingAnswer

type Status = 'idle' | 'pending' | 'succeeded' | 'failed'

export interface VestingState {
  info: VestingInfo
  /** The vesting read; 'failed' still leaves zeros in `info` (SPEC section 8: silently). */
  status: Status
  /** A claim (to the wallet or into a stake) in flight: buttons show it and stay disabled. */
  claim: { status: Status; kind: 'wallet' | 'stake' | null; error: string | null }
  /** Index of the harvest term picked in the chooser (the second by default, SPEC section 4). */
  selectedTerm: number
}

/** Also what a failed load leaves: total 0 and claimed 0 (SPEC section 8). */
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
}

export const DEFAULT_TERM_INDEX = 1

/** Dialog names of the claim-and-stake flow (opened through the wallet slice's modal state). */
export const CLAIM_WARNING_MODAL = 'claimWarning'
export const CLAIM_TERMS_MODAL = 'claimTerms'

export const initialVestingState: VestingState = {
  info: EMPTY_VESTING_INFO,
  status: 'idle',
  claim: { status: 'idle', kind: null, error: null },
  selectedTerm: DEFAULT_TERM_INDEX,
}

const vestingSlice = createSlice({
  name: 'vesting',
  initialState: initialVestingState,
  reducers: {
    /** Ask for a fresh vesting status (page shown, after a claim); the saga does the reading. */
    vestingRefreshRequested() {},
    vestingRequested(state) {
      state.status = 'pending'
    },
    vestingLoaded(state, action: PayloadAction<VestingInfo>) {
      state.info = action.payload
      state.status = 'succeeded'
    },
    vestingFailed(state) {
      state.info = EMPTY_VESTING_INFO
      state.status = 'failed'
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
  },
})

export const {
  vestingRefreshRequested,
  vestingRequested,
  vestingLoaded,
  vestingFailed,
  claimRequested,
  stakingRequested,
  claimSettled,
  termSelected,
} = vestingSlice.actions
export default vestingSlice.reducer
