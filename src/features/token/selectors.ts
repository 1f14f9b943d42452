import { createSelector } from '@reduxjs/toolkit'
import type { ScheduledCall } from '../../domain/governance'
import type { TokenRoot } from './slice'
import type { WalletRoot } from '../wallet/slice'
import type { TxKind } from '../../chain/txActions'
import { addressUrl, txUrl } from '../../config/networks'
import { selectNetworks, selectReadNetwork, selectWalletName } from '../wallet/selectors'

/** What these selectors read: token, wallet (docs/architecture.md §5). */
type State = TokenRoot & WalletRoot

export const selectSymbol = (s: State) => s.token.symbol
/** The wallet's balance, base units. */
export const selectBalance = (s: State) => s.token.balance
const selectTransactions = (s: State) => s.token.transactions

/**
 * The connected wallet's allowance to `spender` (base units), null while none was read for this wallet and chain.
 * Allowances are kept by spender, so each reader names the one it needs (the deposit dialog its pool).
 */
export const selectAllowance = (s: State, spender: string): string | null =>
  s.token.allowances.bySpender[spender.toLowerCase()] ?? null

/** A transaction of this kind that this wallet sent is pending, perhaps from before a reload (docs/product.md §11). */
export const selectTxPending = (s: State, kind: TxKind): boolean =>
  selectTransactions(s).some((t) => t.kind === kind && t.status === 'pending')

/** 'Add token to wallet' (wallet_watchAsset): once the token is read, and not for the development account. */
export const selectCanWatchAsset = (s: State) => {
  const wallet = selectWalletName(s)
  // Safe{Wallet} lists a Safe's tokens itself and has no wallet_watchAsset; the Development account has no wallet.
  return wallet !== null && wallet !== 'dev' && wallet !== 'safe' && selectSymbol(s) !== ''
}

const STATUS_TEXT = {
  pending: 'Transaction in progress',
  confirmed: 'Transaction confirmed',
  failed: 'Transaction failed',
  replaced: 'Transaction replaced',
  dropped: 'Transaction dropped',
}

const KIND_TEXT: Record<TxKind, string> = {
  approve: 'Approve',
  stake: 'Stake',
  unstake: 'Close stake',
  restake: 'Restake',
  claim: 'Claim',
  claimStake: 'Claim and stake',
}

/** How far a Safe transaction's owners have got, as the notice says it. */
function ownersText({ confirmations, required }: { confirmations: number | null; required: number }): string {
  if (required === 0) return 'proposed in your Safe; its owners confirm it there'
  if (confirmations === null) return `it needs ${required} owner confirmations in the Safe before it runs`
  if (confirmations >= required) return `${confirmations} of ${required} confirmations: ready for an owner to execute`
  return `${confirmations} of ${required} confirmations`
}

/** The notification stack: one entry per tracked transaction, newest first, with its explorer link. */
export const selectNotices = createSelector([selectTransactions, selectNetworks], (txs, networks) =>
  [...txs].reverse().map((tx) => {
    const network = networks[tx.chainId]
    // A Safe transaction awaiting its owners is not on the chain yet: no explorer link, its safeTxHash instead.
    const owners = tx.status === 'pending' ? tx.owners : undefined
    return {
      hash: tx.hash,
      status: tx.status,
      title: owners ? "Waiting for the Safe's owners" : STATUS_TEXT[tx.status],
      what: KIND_TEXT[tx.kind],
      detail: owners ? ownersText(owners) : tx.status === 'pending' || tx.status === 'confirmed' ? null : tx.message,
      /** Sent before this page loaded (and still followed). */
      restored: tx.restored ?? false,
      notKept: tx.notKept ?? false,
      url: owners ? null : txUrl(network, tx.hash),
      explorerName: owners ? 'Safe transaction' : (network?.explorerName ?? ''),
      safe: !!owners,
    }
  }),
)

export const selectRejection = (s: State) => s.token.rejection

/** Hashes (lower case) of the transactions this page already shows and follows. */
export const selectFollowedHashes = createSelector([selectTransactions], (txs) => txs.map((t) => t.hash.toLowerCase()))

/** The token contract and its explorer page (null on a chain without an explorer), for the link on both pages. */
export const selectTokenContract = createSelector([selectReadNetwork], (network) => {
  const address = network?.contracts?.token
  if (!network || !address) return null
  return { address, url: addressUrl(network, address), explorerName: network.explorerName }
})

const NONE: ScheduledCall[] = []
/** The owner calls scheduled for `target` and not yet run, soonest first (empty when none or not read). */
export const selectScheduledCalls = (s: State, target: string | null): ScheduledCall[] =>
  (target && s.token.scheduled.byTarget[target.toLowerCase()]) || NONE
