/**
 * What a transaction is for; each slice follows its own kinds. `restake`: one `restake(ids, ...)`, which closes matured
 * stakes and stakes what they pay (docs/product.md §2.6a).
 */
export const TX_KINDS = ['approve', 'stake', 'unstake', 'restake', 'claim', 'claimStake'] as const
export type TxKind = (typeof TX_KINDS)[number]
