import { Wallet, verifyTypedData } from 'ethers'
import { CLAIM_TYPES, claimDigest, claimDomain, signClaim } from './claim'

describe('claim signing', () => {
  const wallet = Wallet.createRandom()
  const domain = claimDomain(31337, '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707')
  const claim = {
    user: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amount: 10n ** 18n,
    lastUpdateBlock: 0n,
    currentBlock: 42n,
    rewardToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  }

  it('signs the EIP-712 claim so the signer is recoverable', async () => {
    const { message, signature } = await signClaim(wallet, domain, claim)
    expect(message).toBe(claimDigest(domain, claim))
    expect(verifyTypedData(domain, CLAIM_TYPES, claim, signature)).toBe(wallet.address)
  })

  it('binds the digest to the chain and the contract', () => {
    expect(claimDigest({ ...domain, chainId: 97 }, claim)).not.toBe(claimDigest(domain, claim))
    expect(claimDigest({ ...domain, verifyingContract: claim.user }, claim)).not.toBe(claimDigest(domain, claim))
  })
})
