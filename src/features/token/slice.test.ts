import reducer, { allowanceLoaded, initialTokenState, tokenLoaded } from './slice'
import { poolLoaded } from '../stake/slice'
import { testPool } from '../../testFixtures'
import {
  noticeClosed,
  txConfirmed,
  txEnded,
  txFailed,
  txRejected,
  txReplaced,
  txRestored,
  txSubmitted,
} from '../../chain/txActions'
import { makeStore } from '../../app/store'
import { selectApproval, selectNotices } from './selectors'

describe('token slice', () => {
  it('keeps amounts as base-unit strings, the allowance as read', () => {
    const s = reducer(
      initialTokenState,
      tokenLoaded({ name: 'Platform Token', symbol: 'PLT', balance: '5000000000000000000', allowance: '0' }),
    )
    expect(s).toMatchObject({ symbol: 'PLT', balance: '5000000000000000000', allowance: '0' })
    expect(reducer(s, allowanceLoaded({ allowance: '1' })).allowance).toBe('1')
    expect(JSON.parse(JSON.stringify(s))).toEqual(s)
  })

  it("leaves the allowance to a read that is not of the page's pool, and takes the staking read's with its pool", () => {
    const s = reducer(initialTokenState, allowanceLoaded({ allowance: '7' }))
    const other = reducer(s, tokenLoaded({ name: 'Platform Token', symbol: 'PLT', balance: '3' }))
    expect(other).toMatchObject({ allowance: '7', balance: '3', symbol: 'PLT' })
    const page = reducer(
      other,
      poolLoaded({
        pool: testPool(),
        chainTime: 1,
        readAt: 1,
        userStakes: [],
        moreStakes: false,
        totalStakedByUser: '0',
        userShares: '0',
        token: { name: 'Platform Token', symbol: 'PLT', balance: '4', allowance: '0' },
      }),
    )
    expect(page).toMatchObject({ allowance: '0', balance: '4' })
    const noWallet = poolLoaded({
      pool: testPool(),
      chainTime: 1,
      readAt: 1,
      userStakes: null,
      moreStakes: false,
      totalStakedByUser: '0',
      userShares: '0',
      token: null,
    })
    expect(reducer(page, noWallet)).toEqual(page)
  })

  it('follows a transaction from submitted through replaced to confirmed, then drops its notice', () => {
    let s = reducer(initialTokenState, txSubmitted({ kind: 'stake', hash: '0xa', chainId: 97 }))
    expect(s.transactions).toEqual([{ hash: '0xa', kind: 'stake', chainId: 97, status: 'pending', receipt: null, message: null }])
    s = reducer(s, txReplaced({ kind: 'stake', oldHash: '0xa', hash: '0xb' }))
    s = reducer(s, txConfirmed({ kind: 'stake', hash: '0xb', receipt: { blockNumber: 9, status: 'success' } }))
    expect(s.transactions).toEqual([
      {
        hash: '0xb',
        kind: 'stake',
        chainId: 97,
        status: 'confirmed',
        receipt: { blockNumber: 9, status: 'success' },
        message: null,
      },
    ])
    expect(reducer(s, noticeClosed({ hash: '0xb' })).transactions).toEqual([])
  })

  it('records a failure with its message, and ignores a failed send that never got a hash', () => {
    const s = reducer(initialTokenState, txSubmitted({ kind: 'claim', hash: '0xa', chainId: 97 }))
    expect(reducer(s, txFailed({ kind: 'claim', hash: '0xa', message: 'reverted' })).transactions[0]).toMatchObject({
      status: 'failed',
      message: 'reverted',
    })
    expect(reducer(s, txFailed({ kind: 'claim', hash: null, message: 'x' }))).toEqual(s)
  })

  it('keeps a rejection as a notice, not a transaction', () => {
    const s = reducer(initialTokenState, txRejected({ kind: 'approve', message: 'You rejected the transaction in your wallet.' }))
    expect(s.rejection).toBe('You rejected the transaction in your wallet.')
    expect(s.transactions).toEqual([])
  })
})

describe('transactions found again after a reload', () => {
  it('shows a restored one as pending once (a second restore of the same hash changes nothing), then its end', () => {
    let s = reducer(initialTokenState, txRestored({ kind: 'stake', hash: '0xa', chainId: 97 }))
    expect(reducer(s, txRestored({ kind: 'stake', hash: '0xa', chainId: 97 }))).toEqual(s)
    expect(s.transactions).toEqual([
      { hash: '0xa', kind: 'stake', chainId: 97, status: 'pending', receipt: null, message: null, restored: true },
    ])
    s = reducer(s, txEnded({ kind: 'stake', hash: '0xa', end: 'dropped', message: 'gone', restored: true }))
    expect(s.transactions[0]).toMatchObject({ status: 'dropped', message: 'gone' })
    const store = makeStore({ token: s })
    expect(selectNotices(store.getState())[0]).toMatchObject({
      title: 'Transaction dropped',
      what: 'Stake',
      detail: 'gone',
      restored: true,
    })
  })

  it('tells a replaced one (a cancel) apart from a dropped one', () => {
    const s = reducer(initialTokenState, txSubmitted({ kind: 'unstake', hash: '0xa', chainId: 97 }))
    const replaced = reducer(s, txEnded({ kind: 'unstake', hash: '0xa', end: 'replaced', message: 'cancelled' }))
    expect(selectNotices(makeStore({ token: replaced }).getState())[0]).toMatchObject({
      title: 'Transaction replaced',
      detail: 'cancelled',
      restored: false,
    })
  })
})

describe('selectApproval', () => {
  const E18 = 10n ** 18n
  const state = (allowance: bigint) =>
    makeStore({ token: { ...initialTokenState, symbol: 'PLT', allowance: allowance.toString() } }).getState()

  it('is approved only when the allowance covers the amount, not for any allowance above 0', () => {
    expect(selectApproval(state(5n * E18), (10n * E18).toString())).toMatchObject({
      approved: false,
      short: true,
      allowanceText: '5.00 PLT',
      exact: { amount: (10n * E18).toString(), text: '10.00 PLT' },
    })
    expect(selectApproval(state(10n * E18), (10n * E18).toString())).toMatchObject({ approved: true, short: false })
    expect(selectApproval(state(0n), 1n.toString())).toMatchObject({ approved: false, short: false })
  })

  it('counts any allowance while there is no amount yet, and offers the spec 1e28 as unlimited', () => {
    expect(selectApproval(state(1n), null)).toMatchObject({ approved: true, exact: null })
    expect(selectApproval(state(0n), null).approved).toBe(false)
    expect(selectApproval(state(0n), null).unlimited).toEqual({ amount: (10n ** 28n).toString(), text: '10,000,000,000.00 PLT' })
  })
})
