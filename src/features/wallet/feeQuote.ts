/**
 * The network fee a dialog shows before Confirm (docs/product.md §4.4): what the transaction it would send costs, and
 * whether the wallet's balance of the network's currency can pay it. Plain JSON, kept in the wallet slice.
 */

/** What a dialog is about to send, in the terms its saga builds the transaction from. Amounts in base units. */
export type FeePurpose =
  | { kind: 'approve'; amount: string }
  | {
      kind: 'stake'
      amount: string
      days: number
      referral: string | null
      minimums: { bonus: string; reward: string } | null
    }
  /** The same stake through the permit the wallet signed (Sign and stake): stakeWithPermit, the one transaction. */
  | {
      kind: 'permitStake'
      amount: string
      days: number
      referral: string | null
      minimums: { bonus: string; reward: string } | null
      permit: { owner: string; pool: string; amount: string; deadline: string; v: number; r: string; s: string }
    }
  | { kind: 'close'; id: number }
  /** "Close all matured": the one unstake(ids) of the matured stakes the dialog shows. */
  | { kind: 'closeAll'; ids: number[] }
  /** Restake: the one restake(ids, hold, ...) of these matured stakes for `days`, on the full or accepted lower terms. */
  | { kind: 'restake'; ids: number[]; days: number; minimums: { bonus: string; reward: string } | null }
  /** Claim and stake the unlocked amount for the term of `hold` seconds (the vesting API's signed claim). */
  | { kind: 'claimStake'; hold: number; unlocked: string }

/** The purposes the claim page's saga quotes (features/vesting/sagas.ts); the staking saga quotes the rest. */
export const isClaimPurpose = (p: FeePurpose) => p.kind === 'claimStake'

/**
 * A quote for one purpose. `fee`: gas estimate × the current fee per gas (eth_gasPrice), what the sender should
 * expect to pay; `need`: what the wallet asks the balance to cover before it sends (the gas limit the app sets, the
 * estimate plus its margin, × the most per gas the transaction may pay); `balance`: the sender's balance then. All wei,
 * decimal strings. `error`: the quote could not be made (the node did not answer, or the simulation refused the
 * transaction, which the dialog already says in its own words): the fee line says so and does not block Confirm.
 */
export interface FeeQuote {
  /** Which purpose this answers (feeQuoteKey): a dialog shows only the quote for what it would send now. */
  key: string
  status: 'pending' | 'ready' | 'failed'
  fee: string | null
  need: string | null
  balance: string | null
  error: string | null
}

/** The key of a purpose: the same inputs give the same key, so a quote already made is not asked for again. */
export const feeQuoteKey = (chainId: number | null, from: string | null, purpose: FeePurpose) =>
  JSON.stringify([chainId, from?.toLowerCase() ?? null, purpose])

/** Whether a ready quote says the balance cannot pay the fee. */
export const cannotPayFee = (q: FeeQuote | null) =>
  q !== null && q.status === 'ready' && BigInt(q.balance ?? '0') < BigInt(q.need ?? '0')
