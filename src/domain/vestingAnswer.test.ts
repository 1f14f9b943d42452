import { answerClaimArgs, hasClaim, type VestingAnswer } from './vestingAnswer'

const SIGNED: VestingAnswer = {
  total: '1000',
  claimed: '100',
  unlocked: '50',
  lastUpdateBlock: '7',
  currentBlock: '9',
  deadline: '1800000000',
  message: '0x' + '11'.repeat(32),
  signature: '0x' + '22'.repeat(65),
  rewardToken: '0x00000000000000000000000000000000000000aa',
  next: null,
  schedule: [{ date: '2026-10-08T10:00:00.000Z', amount: '1000' }],
}

describe('nothing to claim: one rule for the service and the app', () => {
  it('needs something unlocked and a block above the last claim block', () => {
    expect(hasClaim(1n, 8n, 7n)).toBe(true)
    expect(hasClaim(0n, 8n, 7n)).toBe(false)
    expect(hasClaim(1n, 7n, 7n)).toBe(false)
    expect(hasClaim(1n, 6n, 7n)).toBe(false)
  })

  it('gives harvest(...) arguments in the contract order for a signed answer', () => {
    expect(answerClaimArgs(SIGNED)).toEqual([
      '50',
      '7',
      '9',
      '100',
      '1800000000',
      SIGNED.message,
      SIGNED.signature,
      SIGNED.rewardToken,
    ])
  })

  it('gives none for an answer with nothing unlocked, nothing signed, or signed at the last claim block', () => {
    for (const over of [
      { unlocked: '0' },
      { signature: null },
      { message: null },
      { deadline: null },
      { rewardToken: null },
      { currentBlock: '7' },
    ])
      expect(answerClaimArgs({ ...SIGNED, ...over })).toBeNull()
  })
})
