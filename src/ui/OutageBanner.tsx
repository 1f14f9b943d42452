import styled from 'styled-components'
import { formatAge, formatWait } from '../format/duration'
import { Button } from './Button'
import { SpreadRow } from './SpreadRow'
import { useNow } from './useNow'
import { formatCount } from '../format/units'

const Box = styled(SpreadRow)`
  gap: 12px 20px;
  padding: 14px 18px;
  border-radius: ${(p) => p.theme.radius};
  border: 1px solid ${(p) => p.theme.color.warning};
  background: rgba(255, 210, 122, 0.07);
  h2 {
    margin: 0 0 4px;
    font-size: 1rem;
    color: ${(p) => p.theme.color.warning};
  }
  p {
    margin: 0;
    color: ${(p) => p.theme.color.text};
    font-size: 0.95rem;
  }
  small {
    display: block;
    margin-top: 4px;
    color: ${(p) => p.theme.color.muted};
    font-size: 0.85rem;
  }
  > div {
    flex: 1 1 320px;
    min-width: 0;
  }
`

export interface OutageBannerProps {
  /** "Can't reach the network" */
  title: string
  /** Why the last read failed, as errors.ts words it. */
  reason: string | null
  /** The figures on screen: the block they were read at and when (wall clock ms); null when nothing is known yet. */
  shown: { block: number | null; readAt: number } | null
  /** When the next automatic try is due (wall clock ms), null when none is scheduled. */
  retryAt: number | null
  /** What happens next, e.g. 'Updates are paused and resume by themselves when the network answers.' */
  resumes: string
  onRetry: () => void
  testId: string
}

/**
 * A read that failed, said plainly: what cannot be reached, how old the figures on screen are (or that nothing is
 * known yet), that updates are paused and resume by themselves, when the next try is, and a Retry (issue #14).
 */
export function OutageBanner({ title, reason, shown, retryAt, resumes, onRetry, testId }: OutageBannerProps) {
  const now = useNow(1_000)
  const age = shown
    ? `Showing the figures of ${shown.block !== null ? `block ${formatCount(shown.block)}, ` : ''}read ${formatAge(now - shown.readAt)}.`
    : 'Nothing could be read yet.'
  const next = retryAt !== null ? ` Next try ${formatWait(retryAt - now)}.` : ''
  return (
    <Box as="section" role="alert" aria-live="polite" data-testid={testId}>
      <div>
        <h2>{title}</h2>
        <p>
          {age} {resumes}
          {next}
        </p>
        {/* The reason adds something only when it is not the title again ('Can't reach the network.'). */}
        {reason && reason.replace(/\.$/, '') !== title && <small>{reason}</small>}
      </div>
      <Button $variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </Box>
  )
}

const Note = styled.p`
  margin: 8px 2px 0;
  font-size: 0.85rem;
  color: ${(p) => p.theme.color.muted};
`

/** 'As of block 1,234, read 20 s ago': the age of figures that are current, in small print. */
export function FreshnessNote({ block, readAt, testId }: { block: number | null; readAt: number; testId: string }) {
  const now = useNow(5_000)
  if (block === null) return null
  return (
    <Note data-testid={testId}>
      As of block {formatCount(block)}, read {formatAge(now - readAt)}
    </Note>
  )
}
