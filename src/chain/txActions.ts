import { createAction } from '@reduxjs/toolkit'

/** What a transaction is for; each slice follows its own kinds. */
export type TxKind = 'approve' | 'stake' | 'unstake' | 'claim' | 'claimStake'

/** Receipt fields the app needs, as plain JSON. */
export interface TxReceiptInfo {
  blockNumber: number
  status: 'success' | 'reverted'
}

export const txRequested = createAction<{ kind: TxKind }>('tx/requested')
export const txSubmitted = createAction<{ kind: TxKind; hash: string; chainId: number }>('tx/submitted')
/** The wallet sped up or cancelled the transaction: follow `hash` from now on. */
export const txReplaced = createAction<{ kind: TxKind; oldHash: string; hash: string }>('tx/replaced')
export const txConfirmed = createAction<{ kind: TxKind; hash: string; receipt: TxReceiptInfo }>('tx/confirmed')
export const txFailed = createAction<{ kind: TxKind; hash: string | null; message: string; receipt?: TxReceiptInfo }>('tx/failed')
/** The person declined in the wallet: not a failure, just nothing to wait for. */
export const txRejected = createAction<{ kind: TxKind; message: string }>('tx/rejected')
export const noticeClosed = createAction<{ hash: string }>('tx/noticeClosed')
export const rejectionNoticeClosed = createAction('tx/rejectionNoticeClosed')
