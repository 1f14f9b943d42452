import { createSelector } from '@reduxjs/toolkit'
import type { RootState } from '../../app/store'
import { APPROVE_AMOUNT } from '../../domain/math'
import { addressUrl, txUrl } from '../../config/networks'
import { formatAmount } from '../../format/units'
import { selectNetworks, selectSupportedNetwork } from '../wallet/selectors'

const STATUS_TEXT = {
  pending: 'Transaction in progress',
  confirmed: 'Transaction confirmed',
  failed: 'Transaction failed',
  replaced: 'Transaction replaced',
  dropped: 'Transaction dropped',
}

const KIND_TEXT = { approve: 'Approve', stake: 'Stake', unstake: 'Close stake', claim: 'Claim', claimStake: 'Claim and stake' }

/** The notification stack: one entry per tracked transaction, newest first, with its explorer link. */
export const selectNotices = createSelector([(s: RootState) => s.token.transactions, selectNetworks], (txs, networks) =>
  [...txs].reverse().map((tx) => {
    const network = networks[tx.chainId]
    return {
      hash: tx.hash,
      status: tx.status,
      title: STATUS_TEXT[tx.status],
      what: KIND_TEXT[tx.kind],
      detail: tx.status === 'pending' || tx.status === 'confirmed' ? null : tx.message,
      /** Sent before this page loaded (and still followed). */
      restored: tx.restored ?? false,
      notKept: tx.notKept ?? false,
      url: txUrl(network, tx.hash),
      explorerName: network?.explorerName ?? '',
    }
  }),
)

export const selectRejection = (s: RootState) => s.token.rejection

/** Hashes (lower case) of the transactions this page already shows and follows. */
export const selectFollowedHashes = createSelector([(s: RootState) => s.token.transactions], (txs) =>
  txs.map((t) => t.hash.toLowerCase()),
)

/**
 * Whether the allowance to the pool covers a deposit of `amountWei` (base units; null while the amount is not a
 * number), which is what 'Approved' means (docs/product.md §3.3, §11): with no amount yet, any allowance counts. Derived here,
 * never stored, so a new amount or allowance changes it at once.
 */
export const selectApproval = createSelector(
  [(s: RootState) => s.token.allowance, (s: RootState) => s.token.symbol, (_s: RootState, amountWei: string | null) => amountWei],
  (allowance, symbol, amountWei) => {
    const have = BigInt(allowance)
    const need = amountWei === null ? 0n : BigInt(amountWei)
    return {
      approved: need > 0n ? have >= need : have > 0n,
      /** Some allowance, but less than this amount: Approve is offered again, for at least the amount. */
      short: need > 0n && have > 0n && have < need,
      allowanceText: formatAmount(have, { symbol }),
      /** The exact choice: this deposit's amount (base units and text), or null while there is no amount. */
      exact: need > 0n ? { amount: need.toString(), text: formatAmount(need, { symbol }) } : null,
      /** The spec's standing approval (1e28 base units), the default choice. */
      unlimited: { amount: APPROVE_AMOUNT.toString(), text: formatAmount(APPROVE_AMOUNT, { symbol }) },
    }
  },
)
/** An approval this wallet sent is still pending, perhaps from before a reload: the dialog waits for it, not a second one. */
export const selectApprovalInFlight = (s: RootState) =>
  s.stake.approving || s.token.transactions.some((t) => t.kind === 'approve' && t.status === 'pending')

export const selectToken = (s: RootState) => s.token

/** The token contract and its explorer page (null on a chain without an explorer), for the link on both pages. */
export const selectTokenContract = createSelector([selectSupportedNetwork], (network) => {
  const address = network?.contracts?.token
  if (!network || !address) return null
  return { address, url: addressUrl(network, address), explorerName: network.explorerName }
})
