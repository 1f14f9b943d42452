import { fetchVestingInfo, parseVestingInfo } from './api'

const ANSWER = {
  total: '120000000000000000000000',
  claimed: '0',
  unlocked: '72000000000000000000000',
  lastUpdateBlock: '0',
  currentBlock: '52',
  deadline: '1795000000',
  message: '0x4e741460175a54fbf6b33fd20dd1fe992fa3c4490507c5ec054dcf016fd6126f',
  signature: '0x4237',
  rewardToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  next: { amount: '4800000000000000000000', date: '2026-12-07T10:00:00.000Z' },
  schedule: [
    { date: '2026-10-08T10:00:00.000Z', amount: '36000000000000000000000' },
    { date: '2026-11-07T10:00:00.000Z', amount: '36000000000000000000000' },
    { date: '2026-12-07T10:00:00.000Z', amount: '48000000000000000000000' },
  ],
}
const [TGE, MONTH1, LAST] = ANSWER.schedule

const respond = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch

describe('the vesting API answer', () => {
  it('takes the documented shape as it is', () => {
    expect(parseVestingInfo(ANSWER)).toEqual(ANSWER)
  })

  it('accepts an address without an allocation (no signature, no next) and block numbers sent as numbers', () => {
    const info = parseVestingInfo({
      ...ANSWER,
      unlocked: '0',
      deadline: null,
      message: null,
      signature: null,
      next: null,
      currentBlock: 52,
      total: '0',
      schedule: [],
    })
    expect(info).toMatchObject({ unlocked: '0', deadline: null, message: null, signature: null, next: null, currentBlock: '52' })
  })

  it.each([
    ['a negative amount', { total: '-1' }],
    ['a decimal amount', { unlocked: '1.5' }],
    ['an amount as an unsafe number', { unlocked: 2 ** 60 }],
    ['a missing field', { claimed: undefined }],
    ['a signature that is not hex', { signature: 'abc' }],
    ['a deadline that is not whole seconds', { deadline: '17e8' }],
    ['a reward token that is not an address', { rewardToken: '0x1234' }],
    ['a next without a date', { next: { amount: '1' } }],
    ['no schedule', { schedule: undefined }],
    ['a schedule that is not a list', { schedule: {} }],
    ['a schedule step without a date', { schedule: [TGE, MONTH1, { amount: LAST.amount }] }],
    ['a schedule step of a decimal amount', { schedule: [TGE, MONTH1, { ...LAST, amount: '1.5' }] }],
    ['a schedule out of date order', { schedule: [MONTH1, TGE, LAST] }],
    ['a schedule with two steps at one date', { schedule: [TGE, { ...MONTH1, date: TGE.date }, LAST] }],
    ['a schedule that does not add up to the total', { schedule: [TGE, MONTH1] }],
  ])('refuses %s', (_what, patch) => {
    expect(() => parseVestingInfo({ ...ANSWER, ...patch })).toThrow(/vesting API: bad/)
  })

  it('refuses a body that is not an object', () => {
    expect(() => parseVestingInfo(null)).toThrow()
    expect(() => parseVestingInfo('nope')).toThrow()
  })

  it('fetches {base}/address/{wallet} and fails on an error status', async () => {
    const calls: string[] = []
    const ok = (async (url: string) => {
      calls.push(url)
      return new Response(JSON.stringify(ANSWER))
    }) as unknown as typeof fetch
    await expect(fetchVestingInfo('http://api.test/vesting', '0xabc', ok)).resolves.toEqual(ANSWER)
    expect(calls).toEqual(['http://api.test/vesting/address/0xabc'])
    await expect(fetchVestingInfo('http://api.test/vesting', '0xabc', respond(500, { error: 'x' }))).rejects.toThrow('500')
  })
})
