import styled from 'styled-components'
import { AddToCalendar } from '../../../kit/AddToCalendar'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Card, Muted } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { Spinner } from '../../../ui/Spinner'
import { TextSkeleton } from '../../../ui/Skeleton'
import { modalOpened } from '../../wallet/slice'
import { selectActBlock } from '../../wallet/selectors'
import {
  selectClaimBlock,
  selectClaimView,
  selectNextClaimLine,
  selectNextUnlockEvent,
  type ClaimBlock,
  type NextClaimLine,
} from '../selectors'
import { claimRequested } from '../slice'
import { SafeNote } from '../../wallet/components/SafeNote'

const Box = styled(Card)`
  display: grid;
  gap: 16px;
  align-content: start;
`

const Next = styled.p`
  margin: 0;
  font-size: 1.05rem;
  strong {
    color: ${(p) => p.theme.color.accent};
  }
`

const Why = styled.p`
  margin: 0;
  color: ${(p) => p.theme.color.warning};
  font-size: 0.95rem;
`

const Failure = styled(ErrorText)`
  font-size: 0.95rem;
`

const Note = styled(Muted)`
  font-size: 0.85rem;
`

const NextUnlock = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: 4px 12px;
`

/**
 * The next-claim line's place while the first answer is awaited: text of the same shape, drawn as placeholder bars, so
 * it wraps as the real line will and the buttons below do not move when it lands (a layout shift on a phone).
 */
function NextLinePlaceholder() {
  return (
    <NextUnlock aria-hidden="true" data-testid="vesting-next-placeholder">
      <Next>
        <TextSkeleton>
          Next claim: <strong>00,000.00 PLT</strong> on Mon, 00 Jan 0000
        </TextSkeleton>
      </Next>
      <TextSkeleton>Add to calendar</TextSkeleton>
    </NextUnlock>
  )
}

/** "Add to calendar" for the next unlock (docs/product.md §2.7), once the token's symbol is known. */
function NextUnlockCalendar() {
  const event = useAppSelector(selectNextUnlockEvent)
  return event && <AddToCalendar event={event} label={event.label} />
}

function NextLine({ line }: { line: NextClaimLine }) {
  if (!line) return null
  if (line.kind === 'all') return <Next data-testid="vesting-next">All tokens have been claimed</Next>
  if (line.kind === 'last')
    return (
      <Next data-testid="vesting-next">
        You have last claim of <strong>{line.amount}</strong>
      </Next>
    )
  return (
    <NextUnlock>
      <Next data-testid="vesting-next">
        Next claim: <strong>{line.amount}</strong> on {line.date}
      </Next>
      <NextUnlockCalendar />
    </NextUnlock>
  )
}

const WHY: Record<Exclude<ClaimBlock, null | 'loading' | 'claiming' | 'unavailable'>, string> = {
  nothing: 'Nothing is unlocked for claim right now.',
  stale: 'Your last claim is still being processed. The claim opens again once the page updates.',
}

/** The next-claim line, claim-and-stake button, claim-to-wallet link and the update note. */
export function ClaimActions() {
  const dispatch = useAppDispatch()
  const view = useAppSelector(selectClaimView)
  const line = useAppSelector(selectNextClaimLine)
  const block = useAppSelector(selectClaimBlock)
  // Another address shown read only (`?account=`): its figures, and why nothing can be claimed here.
  const readOnly = useAppSelector(selectActBlock)
  const disabled = block !== null || readOnly !== null
  return (
    <Box>
      {view.loading ? <NextLinePlaceholder /> : !view.unknown && <NextLine line={line} />}
      <Button $block disabled={disabled} onClick={() => dispatch(modalOpened('claimWarning'))}>
        {view.claiming === 'stake' && <Spinner size={18} label="Claiming and staking" />}
        Claim tokens and stake with up to 400% APR
      </Button>
      <div>
        <Button $variant="text" disabled={disabled} onClick={() => dispatch(claimRequested())}>
          {view.claiming === 'wallet' && <Spinner size={16} label="Claiming" />}
          Or claim directly to your wallet
        </Button>
      </div>
      {readOnly ? <Why>{readOnly}</Why> : (block === 'nothing' || block === 'stale') && <Why>{WHY[block]}</Why>}
      {/* A claim to the wallet that did not go through says why here; claim-and-stake says it in its term chooser. */}
      {view.error && view.failedKind === 'wallet' && <Failure data-testid="claim-error">{view.error}</Failure>}
      {!readOnly && <SafeNote />}
      <Note>This page may take up to 2 hours to update.</Note>
    </Box>
  )
}
