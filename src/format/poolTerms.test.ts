import { formatDateTime } from './dates'
import { describeScheduled, describeTermChanges } from './poolTerms'
import type { ScheduledCall } from '../domain/governance'

const E18 = 10n ** 18n
const AT = Date.UTC(2026, 10, 26, 14, 0) / 1000
const params = (over: Record<string, string> = {}) => ({
  inflationPercent: (400n * E18).toString(),
  refererBonusPercent: (5n * E18).toString(),
  timeBonusPercent: (30n * E18).toString(),
  unHoldFee: (10n * E18).toString(),
  holdTimeRefMin: String(30 * 86_400),
  holdTimeMax: String(1095 * 86_400),
  ...over,
})
const now = {
  inflationPercent: (400n * E18).toString(),
  refererBonusPercent: (5n * E18).toString(),
  timeBonusPercent: (30n * E18).toString(),
  unHoldFee: (10n * E18).toString(),
  holdTimeRefMin: 30 * 86_400,
  holdTimeMax: 1095 * 86_400,
}
const call = (fn: string | null, args: Record<string, unknown>, readyAt = AT): ScheduledCall => ({
  id: '0x01',
  readyAt,
  fn,
  args,
})

describe('scheduled owner calls, as people read them', () => {
  it('dates in UTC with the hour', () => {
    expect(formatDateTime(AT)).toBe('26 Nov 2026 14:00 UTC')
  })

  it('names only what a setParameters changes', () => {
    expect(describeScheduled([call('setParameters', { params: params({ unHoldFee: (100n * E18).toString() }) })], now)).toEqual([
      'From 26 Nov 2026 14:00 UTC: early-close fee 100%',
    ])
    expect(
      describeScheduled(
        [
          call('setParameters', {
            params: params({ unHoldFee: (100n * E18).toString(), timeBonusPercent: '0', inflationPercent: '0' }),
          }),
        ],
        now,
      ),
    ).toEqual(['From 26 Nov 2026 14:00 UTC: inflation 0% a year, length bonus at the longest hold 0%, early-close fee 100%'])
  })

  it('says nothing of a call that changes nothing, and lists the rest soonest first as given', () => {
    const later = AT + 86_400
    expect(
      describeScheduled(
        [
          call('setParameters', { params: params() }),
          call('setStakingPaused', { paused: true }, later),
          call('setHarvestTerms', { terms: [{ hold: String(30 * 86_400), bonus: (5n * E18).toString() }] }, later),
        ],
        now,
      ),
    ).toEqual(['From 27 Nov 2026 14:00 UTC: new stakes paused', 'From 27 Nov 2026 14:00 UTC: claim-and-stake terms 30 days +5%'])
  })

  it('shows every field when the current figures are unknown, and an unknown call by name', () => {
    expect(describeScheduled([call('setParameters', { params: params() })], {})[0]).toContain('early-close fee 10%')
    expect(describeScheduled([call('sweep', {}), call(null, {})], now)).toEqual([
      'From 26 Nov 2026 14:00 UTC: the owner calls sweep',
      'From 26 Nov 2026 14:00 UTC: an owner call this app cannot read',
    ])
  })
})

describe('stake terms that changed between two reads', () => {
  it('names each term with its old and new value, and nothing when they are the same', () => {
    const after = { ...now, unHoldFee: (100n * E18).toString(), timeBonusPercent: '0' }
    expect(describeTermChanges(now, after)).toEqual(['early-close fee 10% → 100%', 'length bonus at the longest hold 30% → 0%'])
    expect(describeTermChanges(now, { ...now })).toEqual([])
    expect(describeTermChanges({}, after)).toEqual([])
  })
})
