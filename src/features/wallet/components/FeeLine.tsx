import { useEffect } from 'react'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { formatAmount } from '../../../format/units'
import { ErrorText } from '../../../ui/ErrorText'
import { cannotPayFee, feeQuoteKey, type FeePurpose, type FeeQuote } from '../feeQuote'
import { selectAddress, selectFeeQuote, selectNetworkId, selectSafe, selectSupportedNetwork } from '../selectors'
import { SafeNote } from './SafeNote'
import { feeQuoteRequested } from '../slice'

/** Fees are small: six decimals, and "less than" below the smallest of them, never a bare 0. */
const FEE_DIGITS = 6
const SMALLEST = 10n ** 12n

/** The most a fee may take, rounded up to six decimals, so it never reads as covered by a balance that does not. */
const upTo = (wei: string) => ((BigInt(wei) + SMALLEST - 1n) / SMALLEST) * SMALLEST

function feeText(wei: string | bigint, symbol: string): string {
  return BigInt(wei) > 0n && BigInt(wei) < SMALLEST
    ? `less than 0.000001 ${symbol}`
    : formatAmount(wei, { fractionDigits: FEE_DIGITS, symbol })
}

/**
 * Asks for the network fee of what a dialog's Confirm would send (null: nothing yet), and gives back the quote for
 * exactly that (docs/product.md §4.4); `blocked` is true when the balance cannot pay it, and Confirm waits.
 */
export function useFeeQuote(purpose: FeePurpose | null): { quote: FeeQuote | null; blocked: boolean } {
  const dispatch = useAppDispatch()
  const chainId = useAppSelector(selectNetworkId)
  const from = useAppSelector(selectAddress)
  // A Safe pays no fee of its own: the owner who executes the transaction does, from their wallet.
  const safe = useAppSelector(selectSafe)
  const key = purpose && !safe ? feeQuoteKey(chainId, from, purpose) : null
  useEffect(() => {
    if (key && purpose) dispatch(feeQuoteRequested({ key, purpose }))
    // The key holds every input of the purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dispatch, key])
  const stored = useAppSelector(selectFeeQuote)
  const quote = key !== null && stored?.key === key ? stored : null
  return { quote, blocked: cannotPayFee(quote) }
}

const Line = styled.p`
  margin: 0;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.9rem;
  font-variant-numeric: tabular-nums;
`

/**
 * The network fee line of a dialog, and in plain words when the wallet's balance cannot pay it. For a Safe, the note
 * that its other owners must confirm (with `safeExtra`, what this send does in it) and who pays the fee instead.
 */
export function FeeLine({ quote, safeExtra }: { quote: FeeQuote | null; safeExtra?: string }) {
  const symbol = useAppSelector(selectSupportedNetwork)?.nativeCurrency.symbol ?? ''
  const safe = useAppSelector(selectSafe)
  if (safe)
    return (
      <>
        <SafeNote extra={safeExtra} />
        <Line data-testid="fee-line">Network fee: paid in {symbol} by the owner who executes it in the Safe.</Line>
      </>
    )
  if (!quote) return null
  if (quote.status === 'pending') return <Line data-testid="fee-line">Network fee: estimating…</Line>
  if (quote.status === 'failed') return <Line data-testid="fee-line">Network fee: could not be estimated ({quote.error})</Line>
  if (cannotPayFee(quote))
    return (
      <ErrorText data-testid="fee-line">
        Your wallet has {feeText(quote.balance!, symbol)}, and the network fee of this transaction may take up to{' '}
        {feeText(upTo(quote.need!), symbol)}. Add {symbol} to the wallet to confirm.
      </ErrorText>
    )
  return <Line data-testid="fee-line">Network fee: about {feeText(quote.fee!, symbol)}</Line>
}
