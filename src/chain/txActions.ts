import { createAction } from '@reduxjs/toolkit'

/** What a transaction is for; each slice follows its own kinds. */
export const TX_KINDS = ['approve', 'stake', 'unstake', 'claim', 'claimStake'] as const
export type TxKind = (typeof TX_KINDS)[number]

/** How a transaction that never ran as sent ended: another took its nonce, or the network forgot it. */
export type TxEnd = 'replaced' | 'dropped'

/** Receipt fields the app needs, as plain JSON. */
export interface TxReceiptInfo {
  blockNumber: number
  status: 'success' | 'reverted'
}

export const txRequested = createAction<{ kind: TxKind }>('tx/requested')
export const txSubmitted = createAction<{ kind: TxKind; hash: string; chainId: number }>('tx/submitted')
/** A transaction sent before this page loaded (kept in the browser), shown again while it is followed. */
/** The browser would not keep a sent transaction (storage full or blocked): a reload will not find it again. */
export const txNotKept = createAction<{ hash: string }>('tx/notKept')
export const txRestored = createAction<{ kind: TxKind; hash: string; chainId: number }>('tx/restored')
/** The wallet sped the transaction up (same call, same nonce): follow `hash` from now on. */
export const txReplaced = createAction<{ kind: TxKind; oldHash: string; hash: string }>('tx/replaced')
/** `restored`: it was sent before this page loaded, so no dialog is waiting for it and its page refreshes itself. */
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
