import { ZeroAddress, type Signer } from 'ethers'
import { TimelockController__factory, type TimelockController } from '../../src/chain/types'
import type { System } from './system'

/** 48 hours: stakers see any owner change scheduled two days before it can happen. */
export const DEFAULT_TIMELOCK_DELAY = 48n * 3600n

export interface TimelockOptions {
  /** Seconds between scheduling an owner call and executing it. */
  delay?: bigint
  /** Who may schedule and cancel (default: the deployer). */
  proposers?: string[]
  /** Who may execute once the delay has passed (default: anyone, the zero address). */
  executors?: string[]
}

/**
 * Deploys an OpenZeppelin TimelockController with no admin and hands it the ownership of everything the deployer
 * owns: both pools, PoolsInfo, the factory (so new pools are owned by it too), RewardHarvest, the Reservoir and the
 * token. From then on every owner action is public for `delay` seconds before it can run. Call it last: wiring
 * (allowances, signers) must be done by the deployer first.
 */
export async function handOverToTimelock(sys: System, deployer: Signer, opts: TimelockOptions = {}): Promise<TimelockController> {
  const me = await deployer.getAddress()
  const timelock = await new TimelockController__factory(deployer).deploy(
    opts.delay ?? DEFAULT_TIMELOCK_DELAY,
    opts.proposers ?? [me],
    opts.executors ?? [ZeroAddress],
    ZeroAddress,
  )
  await timelock.waitForDeployment()
  const to = await timelock.getAddress()
  const owned = [sys.poolV1, sys.poolV2, sys.poolsInfo, sys.factory, sys.harvest, sys.reservoir, sys.token]
  for (const c of owned) await (await c.connect(deployer).transferOwnership(to)).wait()
  return timelock
}

/** The timelock settings from the environment (TIMELOCK_DELAY_SECONDS, TIMELOCK_PROPOSERS, TIMELOCK_EXECUTORS). */
export function timelockOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TimelockOptions {
  const list = (v: string | undefined) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined
  return {
    delay: env.TIMELOCK_DELAY_SECONDS ? BigInt(env.TIMELOCK_DELAY_SECONDS) : undefined,
    proposers: list(env.TIMELOCK_PROPOSERS),
    executors: list(env.TIMELOCK_EXECUTORS),
  }
}
