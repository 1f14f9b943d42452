import reducer, { allowanceLoaded, initialTokenState, tokenLoaded } from './slice'
import { poolLoaded } from '../stake/slice'
import { testPool } from '../../testFixtures'
import { noticeClosed, txConfirmed, txFailed, txRejected, txReplaced, txSubmitted } from '../../chain/txActions'

describe('token slice', () => {
  it('keeps amounts as base-unit strings and derives approved from a nonzero allowance', () => {
    const s = reducer(
      initialTokenState,
      tokenLoaded({ name: 'Platform Token', symbol: 'PLT', balance: '5000000000000000000', allowance: '0' }),
    )
    expect(s).toMatchObject({ symbol: 'PLT', balance: '5000000000000000000', approved: false })
    expect(reducer(s, allowanceLoaded({ allowance: '1' })).approved).toBe(true)
    expect(JSON.parse(JSON.stringify(s))).toEqual(s)
  })

  it("leaves the allowance to a read that is not of the page's pool, and takes the staking read's with its pool", () => {
    const s = reducer(initialTokenState, allowanceLoaded({ allowance: '7' }))
    const other = reducer(s, tokenLoaded({ name: 'Platform Token', symbol: 'PLT', balance: '3' }))
    expect(other).toMatchObject({ allowance: '7', approved: true, balance: '3', symbol: 'PLT' })
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
    expect(page).toMatchObject({ allowance: '0', approved: false, balance: '4' })
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
