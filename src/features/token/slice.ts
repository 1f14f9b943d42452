import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import {
  noticeClosed,
  rejectionNoticeClosed,
  txConfirmed,
  txEnded,
  txFailed,
  txRejected,
  txReplaced,
  txNotKept,
  txRestored,
  txSubmitted,
  type TxKind,
  type TxReceiptInfo,
} from '../../chain/txActions'
import { poolLoaded, type TokenFigures } from '../stake/slice'

/** A transaction the app sent, as shown in the notification stack. */
export interface TrackedTx {
  hash: string
  kind: TxKind
  chainId: number
  /** replaced: another transaction took its nonce (a cancel); dropped: it will never be mined (docs/product.md §11). */
  status: 'pending' | 'confirmed' | 'failed' | 'replaced' | 'dropped'
  receipt: TxReceiptInfo | null
  message: string | null
  /** Sent before this page loaded; found again in the browser's journal. */
  restored?: boolean
  /** The browser would not keep it: a reload will not show it again (the notice says so while it is pending). */
  notKept?: boolean
}

export interface TokenState {
  name: string
  symbol: string
  /** wallet balance, base units */
  balance: string
  /** allowance to the current pool, base units; whether it covers a deposit is derived (selectApproval) */
  allowance: string
  transactions: TrackedTx[]
  /** A short notice after a rejection in the wallet, until closed. */
  rejection: string | null
}

export const initialTokenState: TokenState = {
  name: '',
  symbol: '',
  balance: '0',
  allowance: '0',
  transactions: [],
  rejection: null,
}

function setAllowance(state: TokenState, allowance: string) {
  state.allowance = allowance
}

/** The allowance comes only with a read of the current pool (the staking page's); other reads leave it. */
function setFigures(state: TokenState, f: TokenFigures) {
  Object.assign(state, { name: f.name, symbol: f.symbol, balance: f.balance })
  if (f.allowance !== undefined) setAllowance(state, f.allowance)
}

/** A transaction just sent (or found again after a reload), waiting for its receipt. */
const pendingTx = (p: { hash: string; kind: TxKind; chainId: number }): TrackedTx => ({
  hash: p.hash,
  kind: p.kind,
  chainId: p.chainId,
  status: 'pending',
  receipt: null,
  message: null,
})

const find = (s: TokenState, hash: string | null) => (hash ? s.transactions.find((t) => t.hash === hash) : undefined)

const tokenSlice = createSlice({
  name: 'token',
  initialState: initialTokenState,
  reducers: {
    tokenLoaded(state, action: PayloadAction<TokenFigures>) {
      setFigures(state, action.payload)
    },
    /** Ask the wallet to track the token (wallet_watchAsset). */
    watchAssetRequested() {},
    allowanceLoaded(state, action: PayloadAction<{ allowance: string }>) {
      setAllowance(state, action.payload.allowance)
    },
  },
  extraReducers: (b) => {
    // The staking page's read carries the token figures in the same action, so pool and allowance change together.
    b.addCase(poolLoaded, (s, { payload }) => {
      if (payload.token) setFigures(s, payload.token)
    })
    b.addCase(txSubmitted, (s, { payload }) => {
      s.transactions.push(pendingTx(payload))
    })
    b.addCase(txRestored, (s, { payload }) => {
      if (!find(s, payload.hash)) s.transactions.push({ ...pendingTx(payload), restored: true })
    })
    b.addCase(txNotKept, (s, { payload }) => {
      const tx = find(s, payload.hash)
      if (tx) tx.notKept = true
    })
    b.addCase(txReplaced, (s, { payload }) => {
      const tx = find(s, payload.oldHash)
      if (tx) tx.hash = payload.hash
    })
    b.addCase(txConfirmed, (s, { payload }) => {
      const tx = find(s, payload.hash)
      if (tx) Object.assign(tx, { status: 'confirmed', receipt: payload.receipt })
    })
    b.addCase(txFailed, (s, { payload }) => {
      const tx = find(s, payload.hash)
      if (tx) Object.assign(tx, { status: 'failed', receipt: payload.receipt ?? null, message: payload.message })
    })
    b.addCase(txEnded, (s, { payload }) => {
      const tx = find(s, payload.hash)
      if (tx) Object.assign(tx, { status: payload.end, message: payload.message })
    })
    b.addCase(txRejected, (s, { payload }) => {
      s.rejection = payload.message
    })
    b.addCase(rejectionNoticeClosed, (s) => {
      s.rejection = null
    })
    b.addCase(noticeClosed, (s, { payload }) => {
      s.transactions = s.transactions.filter((t) => t.hash !== payload.hash)
    })
  },
})

export const { tokenLoaded, watchAssetRequested, allowanceLoaded } = tokenSlice.actions
export default tokenSlice.reducer
