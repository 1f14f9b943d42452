import { createSelector } from '@reduxjs/toolkit'
import type { RootState } from '../../app/store'
import { addressUrl, txUrl } from '../../chain/networks'
import { selectNetworks, selectSupportedNetwork } from '../wallet/selectors'

const STATUS_TEXT = { pending: 'Transaction in progress', confirmed: 'Transaction confirmed', failed: 'Transaction failed' }

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
      detail: tx.status === 'failed' ? tx.message : null,
      url: txUrl(network, tx.hash),
      explorerName: network?.explorerName ?? '',
    }
  }),
)

export const selectRejection = (s: RootState) => s.token.rejection
export const selectToken = (s: RootState) => s.token

/** The token contract and its explorer page (null on a chain without an explorer), for the link on both pages. */
export const selectTokenContract = createSelector([selectSupportedNetwork], (network) => {
  const address = network?.contracts?.token
  if (!network || !address) return null
  return { address, url: addressUrl(network, address), explorerName: network.explorerName }
})
