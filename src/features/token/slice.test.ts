import reducer, { allowanceLoaded, initialTokenState, tokenLoaded, type TokenState } from './slice'
import { walletChanged } from '../wallet/slice'
import {
  noticeClosed,
  txConfirmed,
  txEnded,
  txFailed,
  txRejected,
  txReplaced,
  txRestored,
  txSubmitted,
  txAwaitingOwners,
} from '../../chain/txActions'
import { makeStore } from '../../app/store'
import { connectedWallet } from '../../../test/support/render'
import { DEV_ADDRESS, devAllowances } from '../../../test/support/fixtures'
import { selectAllowance, selectCanWatchAsset, selectNotices, selectTxPending } from './selectors'

const POOL_1 = '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd'
const POOL_0 = '0xd8058efe0198ae9dD7D563e1b4938Dcbc86A1F81'
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const connect = (account: string, chainId = 31337) =>
  walletChanged({ name: 'browser', account, chainId, networkName: 'Localhost' })
const read = (spender: string, amount: string, owner = DEV_ADDRESS, chainId = 31337) =>
  allowanceLoaded({ chainId, owner, spender, amount })

describe('token slice', () => {
  it('keeps amounts as base-unit strings', () => {
    const s = reducer(initialTokenState, tokenLoaded({ name: 'Platform Token', symbol: 'PLT', balance: '5000000000000000000' }))
    expect(s).toMatchObject({ symbol: 'PLT', balance: '5000000000000000000' })
    expect(JSON.parse(JSON.stringify(s))).toEqual(s)
  })

  it('keeps allowances by spender: a read of one pool leaves the others', () => {
    let s = reducer(initialTokenState, connect(DEV_ADDRESS))
    s = reducer(s, read(POOL_1, '7'))
    s = reducer(s, read(POOL_0, '0'))
    expect(s.allowances).toEqual(devAllowances({ [POOL_1]: '7', [POOL_0]: '0' }))
    s = reducer(s, read(POOL_1.toLowerCase(), '9'))
    expect(s.allowances.bySpender).toEqual({ [POOL_1.toLowerCase()]: '9', [POOL_0.toLowerCase()]: '0' })
    // The token figures do not touch them.
    expect(reducer(s, tokenLoaded({ name: 'Platform Token', symbol: 'PLT', balance: '3' })).allowances).toBe(s.allowances)
    // Reading the same figure again changes nothing (no re-render).
    expect(reducer(s, read(POOL_0, '0'))).toBe(s)
  })

  it("drops another account's allowances on an account or chain switch, and a read for another account", () => {
    let s = reducer(reducer(initialTokenState, connect(DEV_ADDRESS)), read(POOL_1, '7'))
    // The same account again (a reconnect): nothing read is lost.
    expect(reducer(s, connect(DEV_ADDRESS.toLowerCase())).allowances).toBe(s.allowances)
    s = reducer(s, connect(OTHER))
    expect(s.allowances).toEqual({ owner: OTHER.toLowerCase(), chainId: 31337, bySpender: {} })
    // The last account's read, landing after the switch, is not this one's.
    expect(reducer(s, read(POOL_1, '7'))).toBe(s)
    s = reducer(s, read(POOL_1, '2', OTHER))
    expect(s.allowances.bySpender).toEqual({ [POOL_1.toLowerCase()]: '2' })
    // Another chain: same address, other allowances.
    const chain = reducer(s, connect(OTHER, 97))
    expect(chain.allowances).toEqual({ owner: OTHER.toLowerCase(), chainId: 97, bySpender: {} })
    expect(reducer(chain, read(POOL_1, '2', OTHER))).toBe(chain)
  })
})

describe('token selectors', () => {
  const state = (token: Partial<TokenState>) =>
    makeStore({ wallet: connectedWallet(), token: { ...initialTokenState, ...token } }).getState()

  it("selects the allowance by spender, whatever its case; null when that spender's was not read", () => {
    const s = state({ allowances: devAllowances({ [POOL_1]: '7' }) })
    expect(selectAllowance(s, POOL_1)).toBe('7')
    expect(selectAllowance(s, POOL_1.toLowerCase())).toBe('7')
    expect(selectAllowance(s, POOL_0)).toBeNull()
  })

  it("shows no allowance after an account switch until the new account's is read", () => {
    const store = makeStore({ wallet: connectedWallet() })
    store.dispatch(connect(DEV_ADDRESS))
    store.dispatch(read(POOL_1, '7'))
    expect(selectAllowance(store.getState(), POOL_1)).toBe('7')
    store.dispatch(connect(OTHER))
    expect(selectAllowance(store.getState(), POOL_1)).toBeNull()
    store.dispatch(read(POOL_1, '7'))
    expect(selectAllowance(store.getState(), POOL_1)).toBeNull()
    store.dispatch(read(POOL_1, '3', OTHER))
    expect(selectAllowance(store.getState(), POOL_1)).toBe('3')
  })

  it('tells a pending transaction of a kind, and whether the token can be added to the wallet', () => {
    const pending = reducer(initialTokenState, txSubmitted({ kind: 'approve', hash: '0xa', chainId: 97 }))
    expect(selectTxPending(state(pending), 'approve')).toBe(true)
    expect(selectTxPending(state(pending), 'stake')).toBe(false)
    const done = reducer(pending, txConfirmed({ kind: 'approve', hash: '0xa', receipt: { blockNumber: 1, status: 'success' } }))
    expect(selectTxPending(state(done), 'approve')).toBe(false)
    // The development account cannot add tokens, nor a Safe in Safe{Wallet}; any other wallet can once the token is read.
    expect(selectCanWatchAsset(state({ symbol: 'PLT' }))).toBe(false)
    const browser = makeStore({
      wallet: connectedWallet({ wallet: { name: 'browser', connected: true } }),
      token: { ...initialTokenState, symbol: 'PLT' },
    }).getState()
    expect(selectCanWatchAsset(browser)).toBe(true)
    const inSafe = makeStore({
      wallet: connectedWallet({ wallet: { name: 'safe', connected: true } }),
      token: { ...initialTokenState, symbol: 'PLT' },
    }).getState()
    expect(selectCanWatchAsset(inSafe)).toBe(false)
    expect(selectCanWatchAsset({ ...browser, token: initialTokenState })).toBe(false)
  })
})

describe('token transactions', () => {
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

  it("follows a Safe transaction through its owners' confirmations to the chain transaction that ran it", () => {
    const safeTxHash = '0x' + '5'.repeat(64)
    let s = reducer(initialTokenState, txSubmitted({ kind: 'stake', hash: safeTxHash, chainId: 97, safe: true }))
    const notice = (t: TokenState) => selectNotices(makeStore({ token: t }).getState())[0]
    // Proposed: not on the chain, so no explorer link, its safeTxHash instead.
    expect(notice(s)).toMatchObject({
      status: 'pending',
      title: "Waiting for the Safe's owners",
      detail: 'proposed in your Safe; its owners confirm it there',
      url: null,
      explorerName: 'Safe transaction',
    })
    s = reducer(s, txAwaitingOwners({ kind: 'stake', hash: safeTxHash, confirmations: 1, required: 2 }))
    expect(notice(s).detail).toBe('1 of 2 confirmations')
    s = reducer(s, txAwaitingOwners({ kind: 'stake', hash: safeTxHash, confirmations: 2, required: 2 }))
    expect(notice(s).detail).toBe('2 of 2 confirmations: ready for an owner to execute')
    // Over WalletConnect only the chain answers, which does not see confirmations.
    expect(
      notice(reducer(s, txAwaitingOwners({ kind: 'stake', hash: safeTxHash, confirmations: null, required: 3 }))).detail,
    ).toBe('it needs 3 owner confirmations in the Safe before it runs')
    // Executed: the chain transaction is followed as any other, with its explorer link.
    s = reducer(s, txReplaced({ kind: 'stake', oldHash: safeTxHash, hash: '0xb' }))
    expect(s.transactions[0].owners).toBeUndefined()
    expect(notice(s)).toMatchObject({ title: 'Transaction in progress', hash: '0xb' })
    s = reducer(s, txConfirmed({ kind: 'stake', hash: '0xb', receipt: { blockNumber: 3, status: 'success' }, restored: true }))
    expect(notice(s).title).toBe('Transaction confirmed')
  })
})
