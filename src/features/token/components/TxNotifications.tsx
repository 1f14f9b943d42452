import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { noticeClosed, rejectionNoticeClosed } from '../../../chain/txActions'
import { CloseButton } from '../../../ui/CloseButton'
import { Spinner } from '../../../ui/Spinner'
import { selectNotices, selectRejection } from '../selectors'

const Stack = styled.div`
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: 60;
  display: grid;
  gap: 10px;
  width: min(360px, calc(100vw - 32px));
  @media (max-width: ${(p) => p.theme.narrow}) {
    bottom: 84px;
  }
`

const TONE = {
  pending: 'accent',
  confirmed: 'accent',
  failed: 'danger',
  replaced: 'warning',
  dropped: 'warning',
  rejected: 'warning',
} as const

const MARK = { confirmed: '✓', failed: '×', replaced: '!', dropped: '!' } as const

const Notice = styled.div<{ $tone: 'accent' | 'danger' | 'warning' }>`
  display: grid;
  grid-template-columns: auto 1fr auto;
  gap: 12px;
  align-items: start;
  padding: 14px 14px 14px 16px;
  border-radius: 10px;
  background: ${(p) => p.theme.color.raised};
  border: 1px solid ${(p) => p.theme.color.border};
  border-left: 4px solid ${(p) => p.theme.color[p.$tone]};
  box-shadow: 0 12px 32px rgba(0, 0, 0, 0.5);
  strong {
    display: block;
  }
  small {
    color: ${(p) => p.theme.color.muted};
  }
  small[data-testid='tx-not-kept'] {
    display: block;
    margin-top: 4px;
    color: ${(p) => p.theme.color.warning};
  }
`

const Dot = styled.span<{ $tone: 'accent' | 'danger' | 'warning' }>`
  width: 22px;
  height: 22px;
  border-radius: 50%;
  display: grid;
  place-items: center;
  font-size: 0.8rem;
  font-weight: 700;
  color: ${(p) => p.theme.color.bg};
  background: ${(p) => p.theme.color[p.$tone]};
`

/**
 * The transaction stack: in progress / confirmed / failed / replaced / dropped, each with its explorer link and a
 * close control.
 */
export function TxNotifications() {
  const dispatch = useAppDispatch()
  const notices = useAppSelector(selectNotices)
  const rejection = useAppSelector(selectRejection)
  if (notices.length === 0 && !rejection) return null
  return (
    <Stack aria-live="polite">
      {rejection && (
        <Notice $tone={TONE.rejected} role="status">
          <Dot $tone="warning">!</Dot>
          <div>
            <strong>Request rejected</strong>
            <small>{rejection}</small>
          </div>
          <CloseButton size="notice" label="Close notification" onClick={() => dispatch(rejectionNoticeClosed())} />
        </Notice>
      )}
      {notices.map((n) => (
        <Notice key={n.hash} $tone={TONE[n.status]} role="status" data-status={n.status}>
          {n.status === 'pending' ? <Spinner size={22} label="Pending" /> : <Dot $tone={TONE[n.status]}>{MARK[n.status]}</Dot>}
          <div>
            <strong>{n.title}</strong>
            <small>
              {n.what}
              {/* Found again after a reload: say so, or a person may think it is a new one and send it twice. */}
              {n.restored ? ' (sent before this page loaded)' : ''}
              {n.detail ? `: ${n.detail}` : ''}
            </small>
            {n.notKept && n.status === 'pending' && (
              <small data-testid="tx-not-kept">
                Your browser could not save it: after a reload, check your {n.safe ? 'Safe' : 'wallet'} before sending it again.
              </small>
            )}
            <div>
              {n.url ? (
                <a href={n.url} target="_blank" rel="noreferrer">
                  View on {n.explorerName}
                </a>
              ) : (
                <small title={n.hash}>
                  {n.explorerName}: {n.hash.slice(0, 10)}…{n.hash.slice(-6)}
                </small>
              )}
            </div>
          </div>
          <CloseButton size="notice" label="Close notification" onClick={() => dispatch(noticeClosed({ hash: n.hash }))} />
        </Notice>
      ))}
    </Stack>
  )
}
