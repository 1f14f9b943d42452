import { JsonRpcSigner, Signature, Wallet, getAddress, verifyTypedData, type TypedDataDomain } from 'ethers'
import { CLAIM_TYPES, claimDigest, type Claim } from '../src/domain/claim'
import { timedProvider } from './chain/client'
import { ServiceUnavailableError } from './chain/errors'

/** Signs vesting claims; where the key lives is the implementation's business. */
export interface ClaimSigner {
  readonly address: string
  readonly kind: 'key' | 'remote'
  sign(domain: TypedDataDomain, claim: Claim): Promise<{ message: string; signature: string }>
  close(): void
}

/** The key in VESTING_SIGNER_KEY, held in this process. */
export function keySigner(key: string): ClaimSigner {
  const wallet = new Wallet(key)
  return {
    address: wallet.address,
    kind: 'key',
    async sign(domain, claim) {
      return { message: claimDigest(domain, claim), signature: await wallet.signTypedData(domain, CLAIM_TYPES, claim) }
    },
    close() {},
  }
}

/**
 * A remote signer over JSON-RPC (`eth_signTypedData_v4`, as Clef and Web3Signer offer), so the key never sits in this
 * service's environment. Every signature it returns is checked to recover to the configured address before it is
 * handed out; a signer that is down, slow or answers with another key makes the request a 503, never a bad claim.
 */
export function remoteSigner(url: string, address: string, chainId: number, timeoutMs: number): ClaimSigner {
  // One call per request: signers such as Clef do not take JSON-RPC batches.
  const provider = timedProvider(url, chainId, timeoutMs, { batchMaxCount: 1 })
  const expected = getAddress(address)
  const signer = new JsonRpcSigner(provider, expected)
  const unavailable = (message: string, cause?: unknown) =>
    new ServiceUnavailableError('signer_unavailable', 'The claim signer is unavailable; try again shortly.', {
      cause: cause ?? new Error(message),
    })
  return {
    address: expected,
    kind: 'remote',
    async sign(domain, claim) {
      let raw: string
      try {
        raw = await signer.signTypedData(domain, CLAIM_TYPES, claim)
      } catch (err) {
        throw unavailable('remote signer failed', err)
      }
      let signature: string
      let recovered: string
      try {
        // Normalised to the 65-byte form with v = 27/28 that RewardHarvest's ECDSA.recover takes.
        signature = Signature.from(raw).serialized
        recovered = verifyTypedData(domain, CLAIM_TYPES, claim, signature)
      } catch (err) {
        throw unavailable('remote signer answered something that is not a signature', err)
      }
      if (recovered !== expected) throw unavailable(`remote signer signed with ${recovered}, not ${expected}`)
      return { message: claimDigest(domain, claim), signature }
    },
    close() {
      provider.destroy()
    },
  }
}
