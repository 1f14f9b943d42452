import type { PoolInfo } from './features/stake/slice'

/** Plain fixtures shared by unit and component tests (no DOM, no React). */
export const E18 = 10n ** 18n
export const DAY = 86_400
export const tokens = (n: bigint) => (n * E18).toString()

/** Hardhat account #0, the Development account. */
export const DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266'

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
  ...over,
})
