import { useMemo, useState } from 'react'
import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { selectSymbol } from '../../token/selectors'
import { depositCurve } from '../closeCurveView'
import { selectChainTime } from '../selectors'
import type { PoolInfo } from '../slice'
import { CloseCurvePanel } from './CloseCurvePanel'

const Empty = styled.p`
  margin: 0;
  padding: 18px;
  border: 1px dashed ${(p) => p.theme.color.border};
  border-radius: 10px;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.9rem;
`

/** What the curve's place says until there is a stake to draw. */
const DEPOSIT_PROMPT = 'Enter an amount within your balance and the days to see what closing the stake would pay on each day.'

/**
 * The deposit dialog's curve (docs/product.md §2.6): what closing the stake being made would pay on each day to its
 * release, for the amount and term typed, from the same preview as the dialog's figures, made at the chain time of
 * the pool's read. The restake dialog draws its new stake with it (§2.6a), with a `prompt` of its own: its amount is
 * fixed, only the days are typed.
 */
export function DepositCurve(props: {
  pool: PoolInfo
  amountWei: string | null
  days: number
  referred: boolean
  prompt?: string
}) {
  const now = useAppSelector(selectChainTime)
  const symbol = useAppSelector(selectSymbol)
  const { pool, amountWei, days, referred } = props
  const [picked, setPicked] = useState(0)
  const curve = useMemo(
    () => (amountWei === null ? null : depositCurve(pool, BigInt(amountWei), days, referred, now)),
    [pool, amountWei, days, referred, now],
  )
  if (!curve) return <Empty>{props.prompt ?? DEPOSIT_PROMPT}</Empty>
  return (
    <CloseCurvePanel
      curve={curve}
      symbol={symbol}
      picked={picked}
      onPick={setPicked}
      assumes={
        <>
          Assumes the pool&apos;s terms and rate of today
          {pool.version === 1 ? ': fees that other stakers’ early closes share with the stake later come on top' : ''}. Once
          staked, its fee, reward and bonus are fixed.
        </>
      }
    />
  )
}
