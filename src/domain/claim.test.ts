import { Wallet, verifyTypedData } from 'ethers'
import { CLAIM_TYPES, claimDigest, claimDomain, harvestArgs, signClaim, type Claim } from './claim'

describe('claim signing', () => {
  const wallet = Wallet.createRandom()
  const domain = claimDomain(31337, '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707')
  const claim: Claim = {
    user: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amount: 10n ** 18n,
    lastUpdateBlock: 0n,
    currentBlock: 42n,
    claimedBefore: 0n,
    deadline: 1_700_003_600n,
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

  it('binds the digest to the state it was signed for and to its deadline', () => {
    for (const change of [{ claimedBefore: 1n }, { lastUpdateBlock: 1n }, { currentBlock: 43n }, { deadline: 1_700_003_601n }]) {
      expect(claimDigest(domain, { ...claim, ...change })).not.toBe(claimDigest(domain, claim))
    }
  })

  it('lists the harvest arguments in the contract order', () => {
    expect(harvestArgs({ ...claim, claimedBefore: 5n }, '0xm', '0xs')).toEqual([
      10n ** 18n,
      0n,
      42n,
      5n,
      1_700_003_600n,
      '0xm',
      '0xs',
      claim.rewardToken,
    ])
  })
})
