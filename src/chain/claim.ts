import { TypedDataEncoder, type Signer, type TypedDataDomain } from 'ethers'

/** EIP-712 type of a vesting claim; must match RewardHarvest.CLAIM_TYPEHASH. */
export const CLAIM_TYPES = {
  Claim: [
    { name: 'user', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'lastUpdateBlock', type: 'uint256' },
    { name: 'currentBlock', type: 'uint256' },
    { name: 'rewardToken', type: 'address' },
  ],
}

export interface Claim {
  user: string
  amount: bigint
  lastUpdateBlock: bigint
  currentBlock: bigint
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
