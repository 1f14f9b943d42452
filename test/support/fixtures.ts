import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { ONE, unstakePreview } from '../../src/domain/math'
import { stakeTerms } from '../../src/features/stake/refresh'
import type { PoolInfo, StakeEntry } from '../../src/features/stake/slice'
import type { Allowances } from '../../src/features/token/slice'

/** Plain fixtures shared by unit and component tests (no React; recordCookieWrites needs a jsdom test). */
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

/** A deployment record on `chainId` with placeholder addresses ('0xT' the token, '0xL' the Lens, ...). */
export const testRecord = (chainId: number, over: Partial<DeploymentRecord> = {}): DeploymentRecord => ({
  chainId,
  network: 'x',
  startBlock: 1,
  deployedAt: 1,
  deployer: '0x0',
  contracts: {
    token: '0xT',
    reservoir: '0xR',
    poolsInfo: '0xP',
    factory: '0xF',
    harvest: '0xH',
    lens: '0xL',
    implV1: '0x1',
    implV2: '0x2',
  },
  pools: [{ id: 0, address: '0xA', version: 2 }],
  defaultPoolId: 1,
  vestingSigner: '0x9',
  ...over,
})

/** Every cookie the page writes to document.cookie from now on, passed on unchanged to jsdom's cookie jar. */
export function recordCookieWrites(): string[] {
  const writes: string[] = []
  const real = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => real.get!.call(document),
    set: (v: string) => {
      writes.push(v)
      real.set!.call(document, v)
    },
  })
  return writes
}
