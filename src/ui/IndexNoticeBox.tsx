import styled from 'styled-components'
import { Button } from './Button'

/**
 * What a section read from the API's index says above its figures when they are not whole (docs/product.md §2.9,
 * §2.10): the service down, starting or refusing, or the index behind the chain. The Activity list and the statistics
 * word theirs each in their own selectors and show them through IndexNoticeBox.
 */
export interface IndexNotice {
  kind: 'down' | 'starting' | 'refused' | 'behind'
  title: string
  text: string
  /** Why the read failed, in small print; null for a lagging index. */
  reason: string | null
  /** A failure offers Retry; a lagging index catches up by itself. */
  retry: boolean
}

const Box = styled.div<{ $warning: boolean }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 10px 16px;
  margin-bottom: 12px;
  padding: 12px 16px;
  border-radius: 10px;
  border: 1px solid ${(p) => (p.$warning ? p.theme.color.warning : p.theme.color.border)};
  background: ${(p) => (p.$warning ? 'rgba(255, 210, 122, 0.07)' : p.theme.color.raised)};
  > div {
    flex: 1 1 280px;
    min-width: 0;
  }
  strong {
    display: block;
    color: ${(p) => (p.$warning ? p.theme.color.warning : p.theme.color.text)};
  }
  p {
    margin: 2px 0 0;
    font-size: 0.95rem;
  }
  small {
    display: block;
    margin-top: 4px;
    color: ${(p) => p.theme.color.muted};
  }
`

/**
 * An index read's notice above a section (`data-testid` `<testIdPrefix>-<kind>`): a lagging index as a status, a
 * failure as an alert with its reason in small print (unless it only repeats the title) and Retry. `after` follows
 * the text (the Activity list's "Next try in 3 s.").
 */
export function IndexNoticeBox(props: { notice: IndexNotice; testIdPrefix: string; after?: string; onRetry: () => void }) {
  const { notice, testIdPrefix, after = '', onRetry } = props
  const behind = notice.kind === 'behind'
  return (
    <Box $warning={!behind} role={behind ? 'status' : 'alert'} data-testid={`${testIdPrefix}-${notice.kind}`}>
      <div>
        <strong>{notice.title}</strong>
        <p>
          {notice.text}
          {after}
        </p>
        {notice.reason && notice.reason.replace(/\.$/, '') !== notice.title && <small>{notice.reason}</small>}
      </div>
      {notice.retry && (
        <Button $variant="secondary" onClick={onRetry}>
          Retry
        </Button>
      )}
    </Box>
  )
}
