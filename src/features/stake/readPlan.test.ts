import { initialStakeState } from './slice'
import { answeredBehind, planBatch, planList, type BatchPlan, type ShownState } from './readPlan'
import { testPool, testStake } from '../../../test/support/fixtures'

const PAGE = 20
const WALLET = '0x00000000000000000000000000000000000000aa'
const POOL = testPool({ id: 1, address: '0x00000000000000000000000000000000000000b1', version: 1 })
const LISTED = { address: '0x00000000000000000000000000000000000000c1', version: 2 }

/** The page after a good read of pool 1 for WALLET: 3 stakes listed, 300 staked, at block 100. */
const shownRead = (over: Partial<ShownState> = {}): ShownState => ({
  ...initialStakeState,
  pool: POOL,
  listStatus: 'ok',
  userStakes: [testStake({ id: 2 }), testStake({ id: 1 }), testStake({ id: 0 })],
  userStakesCount: '3',
  totalStakedByUser: '300',
  nextOffset: null,
  owner: WALLET,
  blockNumber: 100,
  behindReads: 0,
  ...over,
})

describe('planBatch: what the first round trip asks for', () => {
  it('a first read takes the address and version from the deployment record, and reads a page of rows in the batch', () => {
    const plan = planBatch({ mode: 'full', poolId: 7, wallet: WALLET, shown: initialStakeState, listed: LISTED, pageSize: PAGE })
    expect(plan).toEqual({ address: LISTED.address, streams: false, reuse: false, rowsInBatch: true, rowCount: PAGE })
  })

  it('prefers the last read of the same pool to the record, and streams fees only for version 1', () => {
    const plan = planBatch({ mode: 'full', poolId: 1, wallet: WALLET, shown: shownRead(), listed: LISTED, pageSize: PAGE })
    expect(plan).toMatchObject({ address: POOL.address, streams: true })
    // Another pool's last read says nothing about this one.
    expect(
      planBatch({ mode: 'full', poolId: 2, wallet: WALLET, shown: shownRead(), listed: LISTED, pageSize: PAGE }),
    ).toMatchObject({
      address: LISTED.address,
      streams: false,
    })
  })

  it('a pool nobody knows: no rows and no stream in the batch (the list follows once the pool answers)', () => {
    const plan = planBatch({
      mode: 'full',
      poolId: 9,
      wallet: WALLET,
      shown: initialStakeState,
      listed: undefined,
      pageSize: PAGE,
    })
    expect(plan).toEqual({ address: null, streams: false, reuse: false, rowsInBatch: false, rowCount: PAGE })
  })

  it('without a wallet no rows are read', () => {
    expect(
      planBatch({ mode: 'full', poolId: 1, wallet: null, shown: shownRead(), listed: LISTED, pageSize: PAGE }).rowsInBatch,
    ).toBe(false)
  })

  it('a refresh reuses a list read before, and reads no rows in the batch', () => {
    const plan = planBatch({ mode: 'refresh', poolId: 1, wallet: WALLET, shown: shownRead(), listed: LISTED, pageSize: PAGE })
    expect(plan).toMatchObject({ reuse: true, rowsInBatch: false })
  })

  it('a refresh of a list that failed or never loaded reads it in full', () => {
    for (const listStatus of ['failed', 'loading', 'idle'] as const)
      expect(
        planBatch({
          mode: 'refresh',
          poolId: 1,
          wallet: WALLET,
          shown: shownRead({ listStatus }),
          listed: LISTED,
          pageSize: PAGE,
        }),
      ).toMatchObject({ reuse: false, rowsInBatch: true })
  })

  it('asks for at least the rows shown, so Show more is not undone; a list never read counts none', () => {
    const many = Array.from({ length: 45 }, (_, i) => testStake({ id: i }))
    const at = (listStatus: ShownState['listStatus']) =>
      planBatch({
        mode: 'full',
        poolId: 1,
        wallet: WALLET,
        shown: shownRead({ userStakes: many, listStatus }),
        listed: LISTED,
        pageSize: PAGE,
      }).rowCount
    expect([at('ok'), at('failed'), at('loading')]).toEqual([45, 45, PAGE])
  })
})

describe('planList: what becomes of the list once the pool answered', () => {
  const refresh: BatchPlan = { address: POOL.address, streams: true, reuse: true, rowsInBatch: false, rowCount: PAGE }
  const full: BatchPlan = { ...refresh, reuse: false, rowsInBatch: true }
  const same = { userStakesCount: '3', totalStakedByUser: '300' }
  const args = (over: Partial<Parameters<typeof planList>[0]> = {}) => ({
    plan: refresh,
    wallet: WALLET,
    samePool: true,
    shown: shownRead(),
    answered: same,
    pageSize: PAGE,
    ...over,
  })

  it('no wallet: nothing to list', () => {
    expect(planList(args({ wallet: null }))).toEqual({ kind: 'none' })
  })

  it('count and total unchanged: the rows shown are brought forward', () => {
    expect(planList(args())).toEqual({ kind: 'bringForward' })
  })

  it('only new stakes (count up by at most a page): only their rows are read, and the next offset moves with them', () => {
    expect(planList(args({ answered: { userStakesCount: '5', totalStakedByUser: '500' } }))).toEqual({
      kind: 'newRows',
      added: 2,
      nextOffset: null,
    })
    expect(
      planList(args({ shown: shownRead({ nextOffset: '20' }), answered: { userStakesCount: '4', totalStakedByUser: '400' } })),
    ).toEqual({ kind: 'newRows', added: 1, nextOffset: '21' })
  })

  it('a close (total down, count the same), more than a page of new stakes, or a count that fell: read again', () => {
    for (const answered of [
      { userStakesCount: '3', totalStakedByUser: '200' },
      { userStakesCount: String(3 + PAGE + 1), totalStakedByUser: '9999' },
      { userStakesCount: '2', totalStakedByUser: '200' },
    ])
      expect(planList(args({ answered }))).toEqual({ kind: 'readAgain' })
  })

  it('the pool answered elsewhere than believed: read again, whatever the mode', () => {
    expect(planList(args({ samePool: false }))).toEqual({ kind: 'readAgain' })
    expect(planList(args({ plan: full, samePool: false }))).toEqual({ kind: 'readAgain' })
  })

  it('a full read of the pool believed: the rows the batch read', () => {
    expect(planList(args({ plan: full }))).toEqual({ kind: 'asRead' })
  })
})

describe('answeredBehind: a node behind the figures on screen', () => {
  const args = (over: Partial<Parameters<typeof answeredBehind>[0]> = {}) => ({
    shown: shownRead(),
    poolId: 1,
    samePool: true,
    wallet: WALLET,
    block: 99,
    ...over,
  })

  it('sets aside an answer from an older block for the same pool and wallet', () => {
    expect(answeredBehind(args())).toBe(true)
    // The wallet's address in another case is the same wallet.
    expect(answeredBehind(args({ wallet: WALLET.toUpperCase().replace('0X', '0x') }))).toBe(true)
  })

  it('takes the third answer from behind in a row: the chain itself went back', () => {
    expect(answeredBehind(args({ shown: shownRead({ behindReads: 1 }) }))).toBe(true)
    expect(answeredBehind(args({ shown: shownRead({ behindReads: 2 }) }))).toBe(false)
  })

  it('takes the answer for the same or a newer block, another pool, another wallet, or with no block to compare', () => {
    expect(answeredBehind(args({ block: 100 }))).toBe(false)
    expect(answeredBehind(args({ block: 101 }))).toBe(false)
    expect(answeredBehind(args({ poolId: 2 }))).toBe(false)
    expect(answeredBehind(args({ samePool: false }))).toBe(false)
    expect(answeredBehind(args({ wallet: '0x00000000000000000000000000000000000000bb' }))).toBe(false)
    expect(answeredBehind(args({ block: null }))).toBe(false)
    expect(answeredBehind(args({ shown: shownRead({ blockNumber: null }) }))).toBe(false)
  })
})
