import { useEffect } from 'react'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { formatAmount } from '../../../format/units'
import { ErrorText } from '../../../ui/ErrorText'
import { cannotPayFee, feeQuoteKey, type FeePurpose, type FeeQuote } from '../feeQuote'
import { selectAddress, selectFeeQuote, selectNetworkId, selectSupportedNetwork } from '../selectors'
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
  const key = purpose ? feeQuoteKey(chainId, from, purpose) : null
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

/** The network fee line of a dialog, and in plain words when the wallet's balance cannot pay it. */
export function FeeLine({ quote }: { quote: FeeQuote | null }) {
  const symbol = useAppSelector(selectSupportedNetwork)?.nativeCurrency.symbol ?? ''
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
