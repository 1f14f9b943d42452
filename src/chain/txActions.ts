import { createAction } from '@reduxjs/toolkit'
import type { JournalEntry } from './txJournal'
import type { TxKind } from './txKinds'

export { TX_KINDS, type TxKind } from './txKinds'

/** How a transaction that never ran as sent ended: another took its nonce, or the network forgot it. */
export type TxEnd = 'replaced' | 'dropped'

/** Receipt fields the app needs, as plain JSON. */
export interface TxReceiptInfo {
  blockNumber: number
  status: 'success' | 'reverted'
}

export const txRequested = createAction<{ kind: TxKind }>('tx/requested')
/**
 * A sent transaction, as txSubmitted and txRestored carry it. `safe`: `hash` is a Safe transaction's safeTxHash,
 * proposed to the Safe's owners (not yet on the chain). `from`: the sender (the Safe for a Safe transaction) and `at`
 * when it was sent (wall clock ms), for the Activity section's pending part (docs/product.md §2.9).
 */
export interface SentTx {
  kind: TxKind
  hash: string
  chainId: number
  safe?: boolean
  from?: string
  at?: number
}

export const txSubmitted = createAction<SentTx>('tx/submitted')
/**
 * A Safe transaction waits for its owners: `confirmations` of `required` so far (null where only the chain answers,
 * which does not see confirmations given in Safe{Wallet}). Never counted as dropped while it waits.
 */
export const txAwaitingOwners = createAction<{ kind: TxKind; hash: string; confirmations: number | null; required: number }>(
  'tx/awaitingOwners',
)
/** A Safe transaction was proposed (`entry.safe`): the token saga follows it through its owners to its end. */
export const safeTxProposed = createAction<{ entry: JournalEntry }>('tx/safeProposed')
/** The browser would not keep a sent transaction (storage full or blocked): a reload will not find it again. */
export const txNotKept = createAction<{ hash: string }>('tx/notKept')
/** A transaction sent before this page loaded (kept in the browser), shown again while it is followed. */
export const txRestored = createAction<SentTx>('tx/restored')
/**
 * Follow `hash` from now on: the wallet sped the transaction up (same call, same nonce), or the Safe transaction
 * `oldHash` was executed by the chain transaction `hash`.
 */
export const txReplaced = createAction<{ kind: TxKind; oldHash: string; hash: string }>('tx/replaced')
/**
 * `restored`: no dialog waits for it (sent before this page loaded, or a Safe transaction left to its owners), so its
 * page refreshes itself.
 */
export const txConfirmed = createAction<{ kind: TxKind; hash: string; receipt: TxReceiptInfo; restored?: boolean }>(
  'tx/confirmed',
)
export const txFailed = createAction<{
  kind: TxKind
  hash: string | null
  message: string
  receipt?: TxReceiptInfo
  restored?: boolean
}>('tx/failed')
/** It will never run as sent: another transaction took its nonce (`replaced`, e.g. a cancel) or it was dropped. */
export const txEnded = createAction<{ kind: TxKind; hash: string; end: TxEnd; message: string; restored?: boolean }>('tx/ended')
/** The person declined in the wallet: not a failure, just nothing to wait for. */
export const txRejected = createAction<{ kind: TxKind; message: string }>('tx/rejected')
export const noticeClosed = createAction<{ hash: string }>('tx/noticeClosed')
export const rejectionNoticeClosed = createAction('tx/rejectionNoticeClosed')
