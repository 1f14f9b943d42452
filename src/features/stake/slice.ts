import { createSlice, type PayloadAction } from '@reduxjs/toolkit'

/** Amounts are base-unit decimal strings; percentages 1e18-scaled strings; times unix seconds (SPEC section 3). */
export interface PoolRef {
  factory: string
  pool: string
  stakeToken: string
  implAndTerms: string
}

export interface PoolData {
  stakeToken: string
  tokenSymbol: string
  totalStaked: string
  totalShares: string
  rate: string
  allUserStakesAmount: string
  walletStakeTokenBalance: string
}

export interface StakeEntry {
  id: number
  active: boolean
  stakeTime: number
  holdTime: number
  stakeAmount: string
  lpAmount: string
  closeRate: string
}

export interface UnstakeSummary {
  stakeId: number
  amountOut: string
  fee: string
}

export interface HarvestTerm {
  /** seconds */
  hold: number
  bonus: string
}

export interface StakeState {
  /** Pool id from the route (/staking/:id); null means the network's default pool. */
  poolId: number | null
  pool: PoolRef | null
  poolData: PoolData | null
  mainInfo: { totalStaked: string; totalGenerated: string }
  userStakes: StakeEntry[]
  unstake: UnstakeSummary[]
  totalCurrentStakeAmount: string
  /** 1e18 fixed point */
  rate: string
  /** days */
  holdPeriod: { min: number; max: number }
  inflationPercent: string
  summary: { refBonus: string; lengthBonus: string }
  /** Claim-and-stake terms of `harvestPool` (the network's default pool). */
  harvestTerms: HarvestTerm[]
  harvestPool: string | null
  /** RewardHarvest.getLastBlock for the wallet: the block its last claim named (decimal string). */
  lastClaimedBlock: string | null
  status: 'idle' | 'pending' | 'succeeded' | 'failed'
  error: string | null
}

export const DEFAULT_RATE = '1000000000000000000'

export const initialStakeState: StakeState = {
  poolId: null,
  pool: null,
  poolData: null,
  mainInfo: { totalStaked: '0', totalGenerated: '0' },
  userStakes: [],
  unstake: [],
  totalCurrentStakeAmount: '0',
  rate: DEFAULT_RATE,
  holdPeriod: { min: 1, max: 1095 },
  inflationPercent: '0',
  summary: { refBonus: '0', lengthBonus: '0' },
  harvestTerms: [],
  harvestPool: null,
  lastClaimedBlock: null,
  status: 'idle',
  error: null,
}

const stakeSlice = createSlice({
  name: 'stake',
  initialState: initialStakeState,
  reducers: {
    /** The route's pool id (or null for the network default). */
    poolSelected(state, action: PayloadAction<number | null>) {
      state.poolId = action.payload
    },
    harvestTermsLoaded(state, action: PayloadAction<{ pool: string; terms: HarvestTerm[] }>) {
      state.harvestPool = action.payload.pool
      state.harvestTerms = action.payload.terms
    },
    lastClaimedBlockLoaded(state, action: PayloadAction<string | null>) {
      state.lastClaimedBlock = action.payload
    },
  },
})

export const { poolSelected, harvestTermsLoaded, lastClaimedBlockLoaded } = stakeSlice.actions
export default stakeSlice.reducer
