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
  type SentTx,
  type TxKind,
  type TxReceiptInfo,
} from '../../chain/txActions'
import { walletChanged } from '../wallet/slice'
import { activityKindOf, appendPage, mergeFirstPage } from './activity/list'
import type { ActivityItem, ActivityKind, ActivityPage, IndexPosition } from './activity/api'

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

/**
 * A transaction of the holder's history this wallet sent (stake, close, claim, claim and stake): it shows at the top
 * of the Activity section, marked pending, until the index has it (docs/product.md §2.9). It outlives its notice,
 * which goes 5 s after the receipt, since the index may take longer.
 */
export interface SentActivity {
  /** Lower case; a Safe transaction's safeTxHash until an owner executes it. */
  hash: string
  kind: ActivityKind
  chainId: number
  /** The sender (lower case): only the holder who sent it sees it in their history. */
  from: string | null
  /** When it was sent (wall clock ms), null when not known. */
  sentAt: number | null
  /** The block of its receipt once mined; null while pending. */
  blockNumber: number | null
}

/** Why a read of the index failed: unreachable (or its chain is), its index still starting, or a refused read. */
export type IndexFailure = 'down' | 'starting' | 'refused' | 'malformed'

/**
 * A holder's history from the API's index (docs/product.md §2.9), page by page, newest first, and how far the index
 * has read. A failed read keeps the list as it was, and the section says so (never 'No activity yet').
 */
export interface ActivityState {
  /** Whose history and on which chain (lower case): another holder's list is dropped, never shown as this one's. */
  holder: string | null
  chainId: number | null
  /** The first page's read: nothing yet, under way, read, or failed (the list as last read stays). */
  status: 'idle' | 'loading' | 'ok' | 'failed'
  error: string | null
  failure: IndexFailure | null
  items: ActivityItem[]
  /** The cursor of the next (older) page, null at the end. */
  next: string | null
  /** An older page being read ("Load more", or the list scrolled to its end), or why it was not. */
  more: 'idle' | 'loading' | 'failed'
  moreError: string | null
  /** How far the index had read at the last answer. */
  index: IndexPosition | null
  /** When the list was last read (wall clock ms), and when the next retry after a failure is due. */
  readAt: number | null
  retryAt: number | null
  /** "Export CSV": every page read and saved; `rows` how many it saved. */
  exporting: { status: 'idle' | 'pending' | 'done' | 'failed'; rows: number; error: string | null }
  sent: SentActivity[]
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
  activity: ActivityState
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
  activity: initialActivityState(),
}

/** The sent transactions kept for the Activity section at most: older ones have long been indexed or ended. */
const SENT_KEPT_MAX = 50

export function initialActivityState(): ActivityState {
  return {
    holder: null,
    chainId: null,
    status: 'idle',
    error: null,
    failure: null,
    items: [],
    next: null,
    more: 'idle',
    moreError: null,
    index: null,
    readAt: null,
    retryAt: null,
    exporting: { status: 'idle', rows: 0, error: null },
    sent: [],
  }
}

/** Sent transactions the index now lists leave the pending part: by hash, or mined at a block the index has read. */
function dropIndexed(a: ActivityState, page: ActivityPage) {
  const listed = new Set(page.items.map((i) => i.txHash.toLowerCase()))
  a.sent = a.sent.filter(
    (t) =>
      !listed.has(t.hash) &&
      !(t.from === a.holder && t.chainId === a.chainId && t.blockNumber !== null && t.blockNumber <= page.indexedBlock),
  )
}

/** A sent transaction of the history's kinds, for the pending part (an approval is none). */
function sentActivity(a: ActivityState, p: SentTx) {
  const kind = activityKindOf(p.kind)
  const hash = p.hash.toLowerCase()
  if (!kind || a.sent.some((t) => t.hash === hash)) return
  a.sent.push({ hash, kind, chainId: p.chainId, from: p.from?.toLowerCase() ?? null, sentAt: p.at ?? null, blockNumber: null })
  if (a.sent.length > SENT_KEPT_MAX) a.sent.splice(0, a.sent.length - SENT_KEPT_MAX)
}

/** A transaction just sent (or found again after a reload), waiting for its receipt. */
const pendingTx = (p: SentTx): TrackedTx => ({
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
    /** The Activity section is on screen (either page): its saga reads and keeps it current while it is. */
    activityShown() {},
    activityHidden(state) {
      state.activity.retryAt = null
    },
    /** Retry after a failure: read the first page again now. */
    activityRefreshRequested() {},
    /** The section shows another holder or chain now: the last one's list goes (sent transactions stay, by sender). */
    activityHolderChanged({ activity }, { payload }: PayloadAction<{ holder: string | null; chainId: number | null }>) {
      Object.assign(activity, {
        ...initialActivityState(),
        holder: payload.holder?.toLowerCase() ?? null,
        chainId: payload.chainId,
        sent: activity.sent,
      })
    },
    activityRequested({ activity }) {
      // A retry after a failure keeps the failure on screen until a read succeeds.
      if (activity.status === 'idle') activity.status = 'loading'
    },
    /** The newest page, read at `at` (wall clock ms, from the saga). */
    activityLoaded({ activity }, { payload }: PayloadAction<{ page: ActivityPage; at: number }>) {
      const { page } = payload
      Object.assign(activity, mergeFirstPage(activity, page))
      activity.index = { indexedBlock: page.indexedBlock, headBlock: page.headBlock, lag: page.lag }
      activity.status = 'ok'
      activity.error = null
      activity.failure = null
      activity.readAt = payload.at
      activity.retryAt = null
      dropIndexed(activity, page)
    },
    activityFailed({ activity }, { payload }: PayloadAction<{ error: string; failure: IndexFailure }>) {
      activity.status = 'failed'
      activity.error = payload.error
      activity.failure = payload.failure
    },
    activityRetryScheduled({ activity }, { payload }: PayloadAction<number | null>) {
      activity.retryAt = payload
    },
    /** "Load more", or the end of the list scrolled into view: the next older page. */
    moreActivityRequested({ activity }) {
      if (activity.next !== null && activity.more !== 'loading') {
        activity.more = 'loading'
        activity.moreError = null
      }
    },
    moreActivityLoaded({ activity }, { payload }: PayloadAction<{ page: ActivityPage; cursor: string }>) {
      // A page asked for before a refresh moved the list on does not belong after it.
      if (payload.cursor !== activity.next) return
      activity.items = appendPage(activity.items, payload.page.items)
      activity.next = payload.page.next
      activity.more = 'idle'
      activity.index = { indexedBlock: payload.page.indexedBlock, headBlock: payload.page.headBlock, lag: payload.page.lag }
      dropIndexed(activity, payload.page)
    },
    moreActivityFailed({ activity }, { payload }: PayloadAction<{ error: string }>) {
      activity.more = 'failed'
      activity.moreError = payload.error
    },
    /** "Export CSV": the whole history, every page, saved as a file (the saga reads and saves). */
    activityExportRequested({ activity }) {
      activity.exporting = { status: 'pending', rows: 0, error: null }
    },
    activityExportSettled({ activity }, { payload }: PayloadAction<{ rows: number; error: string | null }>) {
      activity.exporting = { status: payload.error === null ? 'done' : 'failed', rows: payload.rows, error: payload.error }
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
      sentActivity(s.activity, payload)
    })
    b.addCase(txRestored, (s, { payload }) => {
      if (!find(s, payload.hash)) s.transactions.push({ ...pendingTx(payload), restored: true })
      sentActivity(s.activity, payload)
    })
    b.addCase(txNotKept, (s, { payload }) => {
      const tx = find(s, payload.hash)
      if (tx) tx.notKept = true
    })
    b.addCase(txReplaced, (s, { payload }) => {
      const sent = s.activity.sent.find((t) => t.hash === payload.oldHash.toLowerCase())
      if (sent) sent.hash = payload.hash.toLowerCase()
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
      const sent = s.activity.sent.find((t) => t.hash === payload.hash.toLowerCase())
      if (sent) sent.blockNumber = payload.receipt.blockNumber
      const tx = find(s, payload.hash)
      if (tx) Object.assign(tx, { status: 'confirmed', receipt: payload.receipt })
    })
    b.addCase(txFailed, (s, { payload }) => {
      // Reverted or never sent: nothing for the index to list.
      s.activity.sent = s.activity.sent.filter((t) => t.hash !== payload.hash?.toLowerCase())
      const tx = find(s, payload.hash)
      if (tx) Object.assign(tx, { status: 'failed', receipt: payload.receipt ?? null, message: payload.message })
    })
    b.addCase(txEnded, (s, { payload }) => {
      s.activity.sent = s.activity.sent.filter((t) => t.hash !== payload.hash.toLowerCase())
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

export const {
  tokenLoaded,
  tokenNamed,
  watchAssetRequested,
  allowanceLoaded,
  scheduledCallsRequested,
  scheduledCallsLoaded,
  activityShown,
  activityHidden,
  activityRefreshRequested,
  activityHolderChanged,
  activityRequested,
  activityLoaded,
  activityFailed,
  activityRetryScheduled,
  moreActivityRequested,
  moreActivityLoaded,
  moreActivityFailed,
  activityExportRequested,
  activityExportSettled,
} = tokenSlice.actions
export default tokenSlice.reducer
