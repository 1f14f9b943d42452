import { ONE, unstakePreview } from './domain/math'
import { stakeTerms } from './features/stake/refresh'
import type { PoolInfo, StakeEntry } from './features/stake/slice'
import type { Allowances } from './features/token/slice'

/** Plain fixtures shared by unit and component tests (no DOM, no React). */
export const E18 = 10n ** 18n
export const DAY = 86_400
export const tokens = (n: bigint) => (n * E18).toString()

/** Hardhat account #0, the Development account. */
export const DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266'

/** The Development account's allowances on the local chain, as the token slice keeps them (spender → base units). */
export const devAllowances = (bySpender: Record<string, string>, chainId = 31337): Allowances => ({
  owner: DEV_ADDRESS.toLowerCase(),
  chainId,
  bySpender: Object.fromEntries(Object.entries(bySpender).map(([spender, amount]) => [spender.toLowerCase(), amount])),
})

/** A version 1 pool at rate 1 with the demo parameters (400% inflation, 5% referral, 30% length bonus, 100% fee). */
export const testPool = (over: Partial<PoolInfo> = {}): PoolInfo => ({
  id: 1,
  address: '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd',
  version: 1,
  totalStaked: tokens(1_000n),
  totalShares: tokens(1_000n),
  rate: E18.toString(),
  inflationPercent: tokens(400n),
  refererBonusPercent: tokens(5n),
  timeBonusPercent: tokens(30n),
  unHoldFee: tokens(100n),
  holdTimeRefMin: 30 * DAY,
  holdTimeMax: 1095 * DAY,
  reservoirAvailable: tokens(1_000_000n),
  stakingPaused: false,
  stakersCount: 5,
  feesStreaming: '0',
  feeStreamEnd: 0,
  ...over,
})

/** 15 Jan 2027 08:00 UTC: when test stakes are made. */
export const T0 = 1_800_000_000

/**
 * A version 1 stake as the Lens lists it: by default 1,000 staked at T0 for 100 days at rate 1 with a 100 bonus and
 * a 400 reward, with what closing it pays at `at` with the pool's rate at `rate` (from the shared math the contracts
 * follow). A closed stake (active false) gives its figures at `at` = its close time, plus the gains it kept.
 */
export function testStake(over: Partial<StakeEntry> = {}, at = T0 + 25 * DAY, rate = (11n * ONE) / 10n): StakeEntry {
  const e = {
    id: 3,
    active: true,
    stakeTime: T0,
    holdTime: 100 * DAY,
    closeTime: 0,
    stakeAmount: tokens(1_000n),
    lpAmount: tokens(1_100n),
    bonus: tokens(100n),
    reward: tokens(400n),
    unHoldFee: tokens(100n),
    gains: '0',
    entryRate: ONE.toString(),
    ...over,
  }
  const c = unstakePreview(stakeTerms(e, e.active ? BigInt(e.entryRate) : ONE), rate, BigInt(at))
  return {
    ...e,
    gains: e.active ? c.gains.toString() : e.gains,
    amountOut: (e.active ? c.amountOut : c.amountOut + BigInt(e.gains)).toString(),
    fee: c.fee.toString(),
    forfeited: c.forfeited.toString(),
  }
}
