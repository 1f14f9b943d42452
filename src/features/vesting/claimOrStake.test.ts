import { DAY, ONE } from '../../domain/math'
import { claimOrStake, type ClaimOrStakeInput } from './claimOrStake'
import { harvestBounds } from './sagas'
import { initialVestingState } from './slice'

const T = (n: bigint) => (n * ONE).toString()
const D = Number(DAY)
/** Wed, 18 Nov 2026 */
const NOW = 1_795_000_000

const input = (over: Partial<ClaimOrStakeInput> = {}): ClaimOrStakeInput => ({
  unlocked: T(72_000n),
  // Out of order on purpose: the comparison lists them shortest first.
  terms: [
    { hold: 90 * D, bonus: T(20n) },
    { hold: 30 * D, bonus: T(5n) },
    { hold: 180 * D, bonus: T(40n) },
  ],
  inflationPercent: T(400n),
  unHoldFee: T(100n),
  now: NOW,
  symbol: 'PLT',
  ...over,
})

describe('claim or stake', () => {
  it('compares the wallet now with each term: at the release, APR, release date and break-even day', () => {
    const view = claimOrStake(input())!
    expect(view.amount).toBe('72,000.00 PLT')
    expect(view.feePercent).toBe('100.00%')
    const rows = view.options.map((o) => [o.title, o.atRelease, o.apr, o.releaseDate, o.breakEvenDate, o.breakEvenDays])
    expect(rows).toEqual([
      ['Claim to your wallet', '72,000.00 PLT', '0.00%', 'Wed, 18 Nov 2026', 'Wed, 18 Nov 2026', 0],
      // 72,000 + a 5% bonus of 3,600 + 400% a year for 30 days, 23,671.23; a close pays (amount + reward) × elapsed /
      // hold after the 100% fee, which reaches 72,000 after 22.6 days.
      ['Stake 30 days', '99,271.23 PLT', '460.83%', 'Fri, 18 Dec 2026', 'Fri, 11 Dec 2026', 23],
      ['Stake 90 days', '157,413.69 PLT', '481.11%', 'Tue, 16 Feb 2027', 'Sun, 3 Jan 2027', 46],
      ['Stake 180 days', '242,827.39 PLT', '481.11%', 'Mon, 17 May 2027', 'Mon, 18 Jan 2027', 61],
    ])
    expect(view.options[1]).toMatchObject({
      key: String(30 * D),
      terms: '+5.00% bonus + 32.87% inflation reward',
      aprParts: 'bonus 60.83% + inflation 400.00%',
      gain: '27,271.23 PLT',
    })
    expect(view.options[0]).toMatchObject({ key: 'wallet', terms: null, aprParts: null, gain: '0.00 PLT' })
  })

  it('stakes on exactly the bonus and reward that claim-and-stake sends as its minimums', () => {
    const view = claimOrStake(input())!
    const v = { ...initialVestingState, harvestTerms: input().terms, harvestInflationPercent: T(400n), harvestUnHoldFee: T(100n) }
    for (const t of input().terms) {
      const bounds = harvestBounds(v, 72_000n * ONE, t.hold)
      const option = view.options.find((o) => o.key === String(t.hold))!
      expect(option.atReleaseWei).toBe((72_000n * ONE + bounds.minBonus + bounds.minReward).toString())
    }
  })

  it('in a pool without inflation: the bonus alone, and break-even only at the release under a 100% fee', () => {
    const view = claimOrStake(input({ inflationPercent: '0' }))!
    const thirty = view.options[1]
    expect([thirty.atRelease, thirty.apr, thirty.aprParts, thirty.terms]).toEqual([
      '75,600.00 PLT',
      '60.83%',
      null,
      '+5.00% bonus',
    ])
    expect([thirty.breakEvenDays, thirty.breakEvenDate]).toEqual([30, thirty.releaseDate])
  })

  it('with no early-close fee a stake breaks even today; an unknown fee counts as the highest, 100%', () => {
    expect(claimOrStake(input({ unHoldFee: '0' }))!.options.map((o) => o.breakEvenDays)).toEqual([0, 0, 0, 0])
    expect(claimOrStake(input({ unHoldFee: null }))!.feePercent).toBe('100.00%')
    expect(claimOrStake(input({ unHoldFee: null }))!.options[1].breakEvenDays).toBe(23)
  })

  it('has nothing to compare while nothing is unlocked, and only the wallet without terms', () => {
    expect(claimOrStake(input({ unlocked: '0' }))).toBeNull()
    expect(claimOrStake(input({ terms: [] }))!.options.map((o) => o.key)).toEqual(['wallet'])
  })
})
