import { TypedDataEncoder, type BigNumberish, type Signer, type TypedDataDomain } from 'ethers'

/**
 * EIP-712 type of a vesting claim; must match RewardHarvest.CLAIM_TYPEHASH. Besides what is paid it names the state
 * it was signed for (last claim block, claimed total before) and a deadline, so the contract can refuse a signature
 * from another branch of the chain or an older state.
 */
export const CLAIM_TYPES = {
  Claim: [
    { name: 'user', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'lastUpdateBlock', type: 'uint256' },
    { name: 'currentBlock', type: 'uint256' },
    { name: 'claimedBefore', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'rewardToken', type: 'address' },
  ],
}

export interface Claim {
  user: string
  amount: bigint
  /** The user's last claim block on chain; the claim moves it to `currentBlock`. */
  lastUpdateBlock: bigint
  currentBlock: bigint
  /** The user's claimed total on chain when signed; after the claim it is claimedBefore + amount. */
  claimedBefore: bigint
  /** Unix seconds (chain time) after which the contract refuses the claim. */
  deadline: bigint
  rewardToken: string
}

/** RewardHarvest's EIP-712 domain on `chainId` at `harvest`. */
export function claimDomain(chainId: bigint | number, harvest: string): TypedDataDomain {
  return { name: 'RewardHarvest', version: '1', chainId, verifyingContract: harvest }
}

/** The digest RewardHarvest expects as `message`. */
export function claimDigest(domain: TypedDataDomain, claim: Claim): string {
  return TypedDataEncoder.hash(domain, CLAIM_TYPES, claim)
}

/** Signs `claim` for `domain`; returns the harvest call's `message` and `signature`. */
export async function signClaim(
  signer: Signer,
  domain: TypedDataDomain,
  claim: Claim,
): Promise<{ message: string; signature: string }> {
  const signature = await signer.signTypedData(domain, CLAIM_TYPES, claim)
  return { message: claimDigest(domain, claim), signature }
}

/**
 * The arguments of harvest(amount, lastUpdateBlock, currentBlock, claimedBefore, deadline, message, signature,
 * rewardToken) in order; harvestStake takes the same followed by pool and hold.
 */
export function harvestArgs(
  claim: Record<'amount' | 'lastUpdateBlock' | 'currentBlock' | 'claimedBefore' | 'deadline', BigNumberish> & {
    rewardToken: string
  },
  message: string,
  signature: string,
) {
  return [
    claim.amount,
    claim.lastUpdateBlock,
    claim.currentBlock,
    claim.claimedBefore,
    claim.deadline,
    message,
    signature,
    claim.rewardToken,
  ] as const
}
