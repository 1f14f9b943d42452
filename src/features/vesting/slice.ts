import { createSlice } from '@reduxjs/toolkit'

/** What the vesting API answers (SPEC section 3); amounts are base-unit decimal strings. */
export interface VestingInfo {
  total: string
  claimed: string
  unlocked: string
  lastUpdateBlock: number
  currentBlock: number
  message: string | null
  signature: string | null
  rewardToken: string | null
  next: { amount: string; date: string } | null
}

export interface VestingState {
  info: VestingInfo
  status: 'idle' | 'pending' | 'succeeded' | 'failed'
  error: string | null
}

/** Also what a failed load leaves: total 0 and claimed 0 (SPEC section 8). */
export const EMPTY_VESTING_INFO: VestingInfo = {
  total: '0',
  claimed: '0',
  unlocked: '0',
  lastUpdateBlock: 0,
  currentBlock: 0,
  message: null,
  signature: null,
  rewardToken: null,
  next: null,
}

export const initialVestingState: VestingState = { info: EMPTY_VESTING_INFO, status: 'idle', error: null }

const vestingSlice = createSlice({
  name: 'vesting',
  initialState: initialVestingState,
  reducers: {},
})

export default vestingSlice.reducer
