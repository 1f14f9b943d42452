import reducer, { allowanceLoaded, initialTokenState, tokenLoaded } from './slice'
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
