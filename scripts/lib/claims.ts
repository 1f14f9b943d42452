/**
 * Signed vesting claims for the contract tests and the gas benchmark, made as the vesting API makes them (server/), on
 * a node that the test or benchmark drives itself.
 */
import type { Signer, TypedDataDomain } from 'ethers'
import { claimDomain, harvestArgs, signClaim, type Claim } from '../../src/domain/claim'
import type { RewardHarvest } from '../../src/chain/types'

/** What a claim is signed for: the harvest contract (connected to a node), the reward token and the trusted signer. */
export interface ClaimSetup {
  harvest: RewardHarvest
  rewardToken: string
  signer: Signer
}

/**
 * A claim of `amount` for `user` signed for the user's state now: the claimed total and last claim block the harvest
 * contract holds, the latest block, and an hour to the deadline; `over` replaces any field. Signed by the setup's
 * signer for its harvest contract on this chain unless `signer` or `domain` say otherwise. `args` is what harvest()
 * takes, and harvestStake() before the pool and the hold.
 */
export async function signedClaim(
  setup: ClaimSetup,
  user: string,
  amount: bigint,
  opts: { over?: Partial<Claim>; signer?: Signer; domain?: TypedDataDomain } = {},
) {
  const { harvest, rewardToken } = setup
  const provider = harvest.runner!.provider!
  const [claimedBefore, lastUpdateBlock] = await harvest.getClaimState(user, rewardToken)
  const latest = (await provider.getBlock('latest'))!
  const claim: Claim = {
    user,
    amount,
    lastUpdateBlock,
    currentBlock: BigInt(latest.number),
    claimedBefore,
    deadline: BigInt(latest.timestamp) + 3600n,
    rewardToken,
    ...opts.over,
  }
  const domain = opts.domain ?? claimDomain((await provider.getNetwork()).chainId, await harvest.getAddress())
  const { message, signature } = await signClaim(opts.signer ?? setup.signer, domain, claim)
  return { claim, message, signature, args: harvestArgs(claim, message, signature) }
}
