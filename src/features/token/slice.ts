import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { ScheduledCall } from '../../domain/governance'
import {
  noticeClosed,
  rejectionNoticeClosed,
  txConfirmed,
  txEnded,
  txFailed,
  txRejected,
  txReplaced,
  txAwaitingOwners,
  txNotKept,
  txRestored,
  txSubmitted,
  type TxKind,
  type TxReceiptInfo,
} from '../../chain/txActions'
import { walletChanged } from '../wallet/slice'

/** The token's name and symbol and the wallet's balance (base units), as a read that covers them brings them. */
export interface TokenFigures {
  name: string
  symbol: string
  balance: string
}

/**
 * The allowances of one wallet on one chain, by spender. Every read that covers one (the staking page's pool, the
 * deposit dialog opening, an approval polled, the claim page's read of the default pool) writes it under that
 * spender, so none overwrites another's, and each reader selects the spender it cares about (selectAllowance).
 */
export interface Allowances {
  /** The wallet (lower case) and chain they belong to: another account's or chain's are dropped, never shown. */
  owner: string | null
  chainId: number | null
  /** Spender address (lower case) → allowance in base units. */
  bySpender: Record<string, string>
}

/** An allowance read: who may spend (spender) how much (amount, base units) of whose (owner) tokens, on which chain. */
export interface AllowanceRead {
  chainId: number
  owner: string
  spender: string
  amount: string
}

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
  /**
   * A Safe transaction waiting for its owners (`hash` is its safeTxHash): how many have confirmed (null where only the
   * chain answers) of how many it needs. Gone once an owner executes it and the chain transaction is followed.
   */
  owners?: { confirmations: number | null; required: number }
}

export interface TokenState {
  name: string
  symbol: string
  /** wallet balance, base units */
  balance: string
  /** The wallet's allowances, by spender; whether one covers a deposit is derived (stake's selectApproval), never stored. */
  allowances: Allowances
  transactions: TrackedTx[]
  /** A short notice after a rejection in the wallet, until closed. */
  rejection: string | null
  /**
   * Owner calls the network's TimelockController has scheduled and not yet run, by target contract (lower-case
   * address): the deposit dialog and the term chooser show those for their pool. Another chain starts empty.
   */
  scheduled: { chainId: number | null; byTarget: Record<string, ScheduledCall[]> }
}

/** The part of the store this slice owns: what its selectors read, typed without the whole store. */
export interface TokenRoot {
  token: TokenState
}

export const initialTokenState: TokenState = {
  name: '',
  symbol: '',
  balance: '0',
  allowances: { owner: null, chainId: null, bySpender: {} },
  transactions: [],
  rejection: null,
  scheduled: { chainId: null, byTarget: {} },
}

/** A transaction just sent (or found again after a reload), waiting for its receipt. */
const pendingTx = (p: { hash: string; kind: TxKind; chainId: number; safe?: boolean }): TrackedTx => ({
  ...(p.safe ? { owners: { confirmations: null, required: 0 } } : {}),
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
    tokenLoaded(state, { payload: f }: PayloadAction<TokenFigures>) {
      Object.assign(state, { name: f.name, symbol: f.symbol, balance: f.balance })
    },
    /** The token's name and symbol alone: a read with no holder to show (the public view) has no balance to give. */
    tokenNamed(state, { payload }: PayloadAction<{ name: string; symbol: string }>) {
      state.name = payload.name
      state.symbol = payload.symbol
    },
    /** Ask the wallet to track the token (wallet_watchAsset). */
    watchAssetRequested() {},
    /** The one writer of allowances. A read for another wallet or chain (one that landed after a switch) is dropped. */
    allowanceLoaded({ allowances }, { payload: a }: PayloadAction<AllowanceRead>) {
      if (a.owner.toLowerCase() !== allowances.owner || a.chainId !== allowances.chainId) return
      allowances.bySpender[a.spender.toLowerCase()] = a.amount
    },
    /** Read what the timelock holds for `target` (a dialog about that pool opened). */
    scheduledCallsRequested(_state, _action: PayloadAction<{ target: string }>) {},
    scheduledCallsLoaded(
      { scheduled },
      { payload: p }: PayloadAction<{ chainId: number; target: string; calls: ScheduledCall[] }>,
    ) {
      if (p.chainId !== scheduled.chainId) Object.assign(scheduled, { chainId: p.chainId, byTarget: {} })
      scheduled.byTarget[p.target.toLowerCase()] = p.calls
    },
  },
  extraReducers: (b) => {
    // Another account (or chain) starts with no allowances: the last one's must not show as this one's.
    b.addCase(walletChanged, (s, { payload }) => {
      const owner = payload.account?.toLowerCase() ?? null
      if (owner !== s.allowances.owner || payload.chainId !== s.allowances.chainId)
        s.allowances = { owner, chainId: payload.chainId, bySpender: {} }
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
      if (!tx) return
      tx.hash = payload.hash
      delete tx.owners
    })
    b.addCase(txAwaitingOwners, (s, { payload }) => {
      const tx = find(s, payload.hash)
      if (tx) tx.owners = { confirmations: payload.confirmations, required: payload.required }
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

export const { tokenLoaded, tokenNamed, watchAssetRequested, allowanceLoaded, scheduledCallsRequested, scheduledCallsLoaded } =
  tokenSlice.actions
export default tokenSlice.reducer
