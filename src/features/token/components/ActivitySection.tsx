import { memo, useEffect } from 'react'
import { useInView } from 'react-intersection-observer'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { formatWait } from '../../../format/duration'
import { Button } from '../../../ui/Button'
import { FootSection, Muted, SectionHead } from '../../../ui/Card'
import { IndexNoticeBox, type IndexNotice } from '../../../ui/IndexNoticeBox'
import { RowsTable } from '../../../ui/RowsTable'
import { Skeleton } from '../../../ui/Skeleton'
import { useNearScreen } from '../../../ui/useNearScreen'
import { useNow } from '../../../ui/useNow'
import { selectReadsReady } from '../../wallet/selectors'
import { selectActivityView, type ActivityRow } from '../activity/selectors'
import { activityExportRequested, activityHidden, activityRefreshRequested, activityShown, moreActivityRequested } from '../slice'

const Table = styled(RowsTable)`
  th:nth-child(2),
  th:nth-child(3),
  td:nth-child(2),
  td:nth-child(3) {
    text-align: right;
  }
  small {
    font-size: 0.85rem;
  }
  tr[data-pending] td {
    background: rgba(61, 220, 132, 0.05);
  }
  a,
  code {
    font-family: ${(p) => p.theme.mono};
    font-size: 0.88rem;
  }
  /* On a phone each event is a card of two columns, each figure under its column's name. */
  @media (max-width: ${(p) => p.theme.narrow}) {
    td {
      overflow-wrap: anywhere;
    }
    td:first-child {
      grid-column: 1 / -1;
    }
    td:nth-child(2),
    td:nth-child(3) {
      text-align: left;
    }
  }
`

const What = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
  font-weight: 600;
`

const Badge = styled.span`
  padding: 1px 9px;
  border-radius: 999px;
  font-size: 0.75rem;
  font-weight: 600;
  color: ${(p) => p.theme.color.warning};
  border: 1px solid ${(p) => p.theme.color.warning};
`

const Result = styled.span<{ $tone: 'gain' | 'loss' | 'even' }>`
  font-weight: 600;
  color: ${(p) => (p.$tone === 'gain' ? p.theme.color.accent : p.$tone === 'loss' ? p.theme.color.danger : p.theme.color.text)};
`

const Foot = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 6px;
  padding-top: 14px;
`

const Empty = styled.p`
  margin: 8px 0 4px;
  text-align: center;
  font-size: 1.05rem;
`

const Status = styled.p<{ $failed: boolean }>`
  margin: 0 0 12px;
  font-size: 0.9rem;
  color: ${(p) => (p.$failed ? p.theme.color.warning : p.theme.color.muted)};
`

/** One event, or a sent transaction the index has not listed yet (marked pending). */
const Row = memo(function Row({ row, explorerName }: { row: ActivityRow; explorerName: string }) {
  return (
    <tr
      data-testid={row.pending ? 'activity-pending' : 'activity-row'}
      data-kind={row.kind}
      data-pending={row.pending || undefined}
    >
      <td>
        <What>
          {row.what}
          {row.pending && <Badge>Pending</Badge>}
        </What>
        {(row.detail ?? row.status) && <small>{row.detail ?? row.status}</small>}
      </td>
      <td data-label="Amount">{row.amount}</td>
      <td data-label="Earned or cost">
        {row.result ? <Result $tone={row.result.tone}>{row.result.text}</Result> : <span aria-label="none">—</span>}
      </td>
      <td data-label="Time">{row.iso ? <time dateTime={row.iso}>{row.time}</time> : row.time}</td>
      <td data-label="Transaction">
        {row.url ? (
          <a
            href={row.url}
            target="_blank"
            rel="noreferrer"
            aria-label={`${row.shortHash}: transaction ${row.hash} on ${explorerName}`}
          >
            {row.shortHash}
          </a>
        ) : (
          <code title={row.hash}>{row.shortHash}</code>
        )}
      </td>
    </tr>
  )
})

function NoticeBox({ notice, retryAt }: { notice: IndexNotice; retryAt: number | null }) {
  const dispatch = useAppDispatch()
  const now = useNow(1_000)
  const next = notice.retry && retryAt !== null ? ` Next try ${formatWait(retryAt - now)}.` : ''
  return (
    <IndexNoticeBox notice={notice} testIdPrefix="activity" after={next} onRetry={() => dispatch(activityRefreshRequested())} />
  )
}

/**
 * The holder's history (docs/product.md §2.9), on both pages, for the wallet or the `?account=` address: claims,
 * claim-and-stakes, stakes and closes, newest first, with the sent transactions the index has not listed yet on top.
 * Older pages load on "Load more" and when the end of the list scrolls into view. An outage or a lagging index is
 * said above the list; the empty state shows only once a caught-up index found nothing.
 */
export function ActivitySection() {
  const dispatch = useAppDispatch()
  const view = useAppSelector(selectActivityView)
  const readsReady = useAppSelector(selectReadsReady)
  // Read once it comes within 200 px of the screen: below the fold as the page loads, it waits (§10).
  const [section, near] = useNearScreen()
  const shown = view.shown && readsReady && near
  useEffect(() => {
    if (!shown) return
    dispatch(activityShown())
    return () => {
      dispatch(activityHidden())
    }
  }, [dispatch, shown])
  // The end of the list: once it comes near the screen the next page loads, as "Load more" does.
  const [end, endInView] = useInView({ rootMargin: '200px 0px', fallbackInView: false })
  const canMore = view.more.can && !view.more.loading && view.more.error === null
  const count = view.rows.length
  useEffect(() => {
    if (endInView && canMore) dispatch(moreActivityRequested())
  }, [dispatch, endInView, canMore, count])
  if (!view.shown) return null
  const lines = [...view.pending, ...view.rows]
  return (
    <FootSection ref={section} aria-labelledby="activity-title" data-testid="activity">
      <SectionHead>
        <h2 id="activity-title">Activity</h2>
        <Button
          $variant="secondary"
          onClick={() => dispatch(activityExportRequested())}
          disabled={!view.exporting.can}
          aria-describedby={view.exporting.message ? 'activity-export-status' : undefined}
        >
          {view.exporting.pending ? 'Exporting…' : 'Export CSV'}
        </Button>
      </SectionHead>
      <div aria-live="polite">
        {view.exporting.message && (
          <Status id="activity-export-status" $failed={view.exporting.failed} data-testid="activity-export-status">
            {view.exporting.message}
          </Status>
        )}
      </div>
      {view.notice && <NoticeBox notice={view.notice} retryAt={view.retryAt} />}
      {view.loading && lines.length === 0 ? (
        <div aria-busy="true" data-testid="activity-loading">
          <Skeleton $height="44px" aria-label="Loading the activity" />
        </div>
      ) : lines.length > 0 ? (
        <Table>
          <caption className="visually-hidden">Activity, newest first</caption>
          <thead>
            <tr>
              <th>What</th>
              <th>Amount</th>
              <th>Earned or cost</th>
              <th>Time</th>
              <th>Transaction</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((r) => (
              <Row key={r.key} row={r} explorerName={view.explorerName} />
            ))}
          </tbody>
        </Table>
      ) : null}
      {view.empty && <Empty data-testid="activity-empty">{view.empty}</Empty>}
      {(view.more.can || view.more.error) && (
        <Foot ref={end}>
          {view.more.error && <Muted role="alert">The next page could not be read: {view.more.error}</Muted>}
          <Button $variant="secondary" onClick={() => dispatch(moreActivityRequested())} disabled={view.more.loading}>
            {view.more.loading ? 'Loading…' : 'Load more'}
          </Button>
        </Foot>
      )}
    </FootSection>
  )
}
