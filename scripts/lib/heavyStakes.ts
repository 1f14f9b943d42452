/**
 * Gives one address thousands of stakes quickly, for the browser tests and `npm run bench:rpc`: a HeavyStaker
 * contract (contracts/test/HeavyStaker.sol) stakes for its own address, 100 stakes a transaction (the node caps a
 * transaction at 2^24 gas), and closes them in ranges. A mix of closes long ago, closes of the last 180 days and
 * active stakes is made with the node's time travel (evm_increaseTime), so the chain's clock moves on by
 * OLD_CLOSE_AGE_DAYS when there are old closes. The app reads the staker's list with a wallet that speaks for the
 * contract's address (scripts/lib/testWallet.ts).
 */
import { JsonRpcProvider } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { HeavyStaker__factory, type HeavyStaker } from '../../src/chain/types'

const E18 = 10n ** 18n
const DAY = 86_400n
/** Stakes a transaction: about 150k gas each keeps a transaction under the node's 2^24 cap. */
const STAKES_PER_TX = 100
/** How long before the newest stakes the old ones were closed: past the list's 180-day window. */
export const OLD_CLOSE_AGE_DAYS = 200

export interface StakeMix {
  /** Stakes closed OLD_CLOSE_AGE_DAYS ago (the list never shows them). */
  oldClosed: number
  /** Stakes closed just now (the list shows them after the active ones). */
  recentClosed: number
  /** Stakes still open. */
  active: number
  /** Hold time of every stake, in days (30 unless told). */
  holdDays?: number
}

export interface HeavyStakes {
  /** The address that holds the stakes (the HeavyStaker contract). */
  address: string
  heavy: HeavyStaker
  pool: string
  /** How long making them took, in ms. */
  ms: number
  /** Makes `count` more active stakes (one transaction). */
  stakeMore: (count: number) => Promise<void>
  destroy: () => void
}

export const mixTotal = (m: StakeMix) => m.oldClosed + m.recentClosed + m.active

/**
 * Deploys a HeavyStaker from `funder` (an unlocked node account), funds it with 1 token a stake (plus room for
 * stakeMore) and makes the mix in the record's default pool: the old closes first, then the time travel, then the
 * recent closes, then the active stakes (the stake ids follow that order, from 0).
 */
export async function giveHeavyStakes(
  chainUrl: string,
  record: DeploymentRecord,
  funder: string,
  mix: StakeMix,
): Promise<HeavyStakes> {
  const started = Date.now()
  const provider = new JsonRpcProvider(chainUrl, 31337, { staticNetwork: true, cacheTimeout: -1 })
  const owner = await provider.getSigner(funder)
  const heavy = await new HeavyStaker__factory(owner).deploy()
  const address = await heavy.getAddress()
  const pool = record.pools.find((p) => p.id === record.defaultPoolId)!.address
  const token = record.contracts.token
  const hold = BigInt(mix.holdDays ?? 30) * DAY
  await (await contracts.token(token, owner).transfer(address, BigInt(mixTotal(mix) + 100) * E18)).wait()

  const stake = async (count: number) => {
    for (let done = 0; done < count; done += STAKES_PER_TX) {
      const n = Math.min(STAKES_PER_TX, count - done)
      await (await heavy.stakeMany(pool, token, E18, hold, n, { gasLimit: 16_000_000 })).wait()
    }
  }
  let perClose = 0
  const close = async (from: number, to: number) => {
    if (to <= from) return
    if (perClose === 0) {
      // Closes per transaction: as many as fit under the cap, from the gas of a first range of 50.
      const n = Math.min(50, to - from)
      const gas = await heavy.closeRange.estimateGas(pool, from, from + n)
      perClose = Math.max(1, Math.floor((15_000_000 * n) / Number(gas)))
    }
    for (let at = from; at < to; at += perClose)
      await (await heavy.closeRange(pool, at, Math.min(to, at + perClose), { gasLimit: 16_000_000 })).wait()
  }

  if (mix.oldClosed > 0) {
    await stake(mix.oldClosed)
    await close(0, mix.oldClosed)
    await provider.send('evm_increaseTime', [OLD_CLOSE_AGE_DAYS * 86_400])
    await provider.send('evm_mine', [])
  }
  await stake(mix.recentClosed + mix.active)
  await close(mix.oldClosed, mix.oldClosed + mix.recentClosed)
  return {
    address,
    heavy,
    pool,
    ms: Date.now() - started,
    stakeMore: stake,
    destroy: () => provider.destroy(),
  }
}
