import { Signature, type Signer, type TypedDataDomain } from 'ethers'

/** EIP-2612's Permit type, as PlatformToken (OpenZeppelin ERC20Permit) hashes it. */
export const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
}

export interface Permit {
  owner: string
  spender: string
  value: bigint
  /** The token's nonces(owner) when signed: each permit uses the next one. */
  nonce: bigint
  /** Unix seconds (chain time) after which the token refuses it. */
  deadline: bigint
}

/** The token's EIP-712 domain: its name, version "1", the chain and its address. */
export function permitDomain(tokenName: string, chainId: bigint | number, token: string): TypedDataDomain {
  return { name: tokenName, version: '1', chainId, verifyingContract: token }
}

/** Signs `permit` for `domain`: the v, r, s that token.permit and the pools' stakeWithPermit take. */
export async function signPermit(
  signer: Signer,
  domain: TypedDataDomain,
  permit: Permit,
): Promise<{ v: number; r: string; s: string }> {
  const sig = Signature.from(await signer.signTypedData(domain, PERMIT_TYPES, permit))
  return { v: sig.v, r: sig.r, s: sig.s }
}
