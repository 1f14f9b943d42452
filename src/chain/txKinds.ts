/** What a transaction is for; each slice follows its own kinds. */
export const TX_KINDS = ['approve', 'stake', 'unstake', 'claim', 'claimStake'] as const
export type TxKind = (typeof TX_KINDS)[number]
