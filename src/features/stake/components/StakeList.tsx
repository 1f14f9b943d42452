import { memo, useMemo } from 'react'
import styled from 'styled-components'
import { AddToCalendar } from '../../../kit/AddToCalendar'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { countRender } from '../../../kit/renderCount'
import { formatCountdown } from '../../../format/duration'
import { Button } from '../../../ui/Button'
import { Card, Muted } from '../../../ui/Card'
import { Skeleton } from '../../../ui/Skeleton'
import { SpreadRow } from '../../../ui/SpreadRow'
import { useNow } from '../../../ui/useNow'
import { modalOpened } from '../../wallet/slice'
import { selectActBlock } from '../../wallet/selectors'
import { stakesCsv } from '../csv'
import {
  makeSelectStakeRows,
  selectChainTime,
  selectCloseAllMatured,
  selectCloseAllPending,
  selectPoolView,
  selectReadAt,
} from '../selectors'
import type { StakeRow } from '../rows'
import { closeAllMaturedOpened, moreStakesRequested, restakeOpened, stakeRefreshRequested, stakeSummaryOpened } from '../slice'
import { RowsTable } from '../../../ui/RowsTable'

const Head = styled(SpreadRow)`
  margin-bottom: 16px;
  h2 {
    margin: 0;
    font-size: 1rem;
    font-weight: 500;
    color: ${(p) => p.theme.color.muted};
  }
  strong {
    display: block;
    font-size: 1.5rem;
    color: ${(p) => p.theme.color.text};
  }
  div {
    display: flex;
    gap: 8px;
    flex-wrap: wrap;
  }
  /* On a phone the actions take the whole width, each line of them filled, rather than a ragged stack. */
  @media (max-width: ${(p) => p.theme.narrow}) {
    div {
      width: 100%;
    }
    div > button {
      flex: 1 1 auto;
    }
  }
`

const Section = styled.tr`
  th {
    padding-top: 20px;
    font-size: 0.95rem;
    color: ${(p) => p.theme.color.text};
  }
  @media (max-width: ${(p) => p.theme.narrow}) {
    && {
      display: block;
    }
    th {
      display: block;
      border: 0;
      padding: 16px 0 0;
    }
    th:not(:first-child) {
      display: none;
    }
  }
`

const Badge = styled.span<{ $status: StakeRow['status'] }>`
  display: inline-block;
  padding: 2px 10px;
  border-radius: 999px;
  font-size: 0.8rem;
  font-weight: 600;
  color: ${(p) => (p.$status === 'Matured' ? p.theme.color.accentText : p.theme.color.text)};
  background: ${(p) =>
    p.$status === 'Matured' ? p.theme.color.accent : p.$status === 'Pending' ? p.theme.color.raised : 'transparent'};
  border: 1px solid ${(p) => (p.$status === 'Closed' ? p.theme.color.border : 'transparent')};
`

const Bar = styled.span<{ $value: number }>`
  display: block;
  width: 100%;
  max-width: 120px;
  height: 6px;
  margin-top: 6px;
  border-radius: 3px;
  background: ${(p) => p.theme.color.raised};
  &::after {
    content: '';
    display: block;
    height: 100%;
    width: ${(p) => p.$value / 100}%;
    border-radius: 3px;
    background: ${(p) => p.theme.color.accent};
  }
`

/**
 * A row's buttons: Close (or Details), with Restake above it for a matured stake, both as wide as the wider; on a
 * phone's card they take its width side by side.
 */
const RowActions = styled.td`
  > div {
    display: inline-grid;
    gap: 8px;
  }
  @media (max-width: ${(p) => p.theme.narrow}) {
    grid-column: 1 / -1;
    > div {
      display: grid;
      grid-auto-flow: column;
      grid-auto-columns: minmax(0, 1fr);
    }
  }
`

const More = styled.div`
  display: flex;
  justify-content: center;
  padding-top: 16px;
`

const Failure = styled(SpreadRow)`
  padding: 14px 16px;
  margin-top: 12px;
  border-radius: 10px;
  border: 1px solid ${(p) => p.theme.color.warning};
  p {
    margin: 0;
  }
  small {
    display: block;
    color: ${(p) => p.theme.color.muted};
  }
`

const Empty = styled.div`
  text-align: center;
  padding: 28px 0 12px;
  p {
    margin: 0 0 16px;
    font-size: 1.1rem;
  }
`

function download(rows: StakeRow[]) {
  const url = URL.createObjectURL(new Blob([stakesCsv(rows)], { type: 'text/csv' }))
  const a = Object.assign(document.createElement('a'), { href: url, download: 'stakes.csv' })
  a.click()
  URL.revokeObjectURL(url)
}

/** Time to the release on the chain's clock (which a dev chain may have moved ahead); ticks on its own. */
function Countdown({ releaseAt }: { releaseAt: number }) {
  const chainTime = useAppSelector(selectChainTime)
  const readAt = useAppSelector(selectReadAt)
  const wallNow = useNow(1_000)
  const left = formatCountdown(releaseAt - (chainTime + Math.floor((wallNow - readAt) / 1000)))
  return left ? <small>in {left}</small> : null
}

/**
 * `readOnly`: another address's row (`?account=`): its button shows the details, never offers a close or a restake.
 * `restaking`: a restake or close this wallet sent is pending (Restake waits for it).
 */
const Row = memo(function Row({ row, readOnly, restaking }: { row: StakeRow; readOnly: boolean; restaking: boolean }) {
  countRender('StakeRow')
  const dispatch = useAppDispatch()
  return (
    <tr data-testid={`stake-${row.id}`}>
      <td data-label="Subscription">
        <Badge $status={row.status}>{row.status}</Badge>
      </td>
      <td data-label="Stake created">{row.created}</td>
      <td data-label="Stake Progress">
        {row.progressText}
        <small>{row.days === 1 ? '1 day' : `${row.days} days`}</small>
        <Bar $value={row.progress} aria-hidden="true" />
      </td>
      <td data-label="Release date">
        {row.release}
        {row.status === 'Pending' && <Countdown releaseAt={row.releaseAt} />}
        {row.releaseEvent && <AddToCalendar event={row.releaseEvent} label={row.releaseEvent.label} />}
      </td>
      <td data-label="Stake ID">#{row.id}</td>
      <td data-label="Staked amount">
        {row.amount}
        {row.shares !== null && <small>{row.shares} shares</small>}
      </td>
      <td data-label={row.active ? 'Future rewards' : 'Earned'}>
        {row.rewards}
        {row.rewardParts && <small>{row.rewardParts}</small>}
      </td>
      <RowActions>
        <div>
          {/* A matured stake of the holder's own: closed and staked again in one transaction (docs/product.md §2.6a). */}
          {row.status === 'Matured' && !readOnly && (
            <Button
              $variant="secondary"
              disabled={restaking}
              onClick={() => {
                dispatch(restakeOpened({ ids: [row.id] }))
                dispatch(modalOpened('restake'))
              }}
              aria-label={`Restake stake #${row.id}`}
            >
              Restake
            </Button>
          )}
          <Button
            $variant="secondary"
            onClick={() => {
              dispatch(stakeSummaryOpened(row.id))
              dispatch(modalOpened('stakeSummary'))
            }}
            aria-label={`${row.active && !readOnly ? 'Close' : 'Details of'} stake #${row.id}`}
          >
            {row.active && !readOnly ? 'Close' : 'Details'}
          </Button>
        </div>
      </RowActions>
    </tr>
  )
})

/**
 * 'My total staked', the stakes (active newest first, then 'Closed'), or the empty state (docs/product.md §2.4) once a read
 * found none. A failed read says so with a Retry and keeps any rows already shown, never the empty state (issue #14,
 * docs/product.md §10.1). A list longer than the rows read ends with 'Show more',
 * which reads the next page only. 'Close all matured' offers the holder one close of every matured stake listed, and a
 * matured row's 'Restake' one restake of it.
 */
export function StakeList() {
  countRender('StakeList')
  const dispatch = useAppDispatch()
  // This list's own row memo: rows that did not change keep their objects, so their Row does not render again.
  const selectStakeRows = useMemo(makeSelectStakeRows, [])
  const { active, closed } = useAppSelector(selectStakeRows)
  const view = useAppSelector(selectPoolView)
  // Another address shown read only (`?account=`): its list, worded as its own, with nothing to act on.
  const blocked = useAppSelector(selectActBlock)
  // "Close all matured": the matured stakes listed, offered to their holder only (never for another address shown).
  const matured = useAppSelector(selectCloseAllMatured)
  const closingAll = useAppSelector(selectCloseAllPending)
  const deposit = () => dispatch(modalOpened('deposit'))
  const all = [...active, ...closed]
  return (
    <Card aria-labelledby="my-stakes">
      <Head>
        <h2 id="my-stakes">
          {blocked ? 'Total staked by this address' : 'My total staked'}{' '}
          <strong data-testid="my-total-staked">
            {view.myTotalLoading ? <Skeleton $width="10ch" aria-label="Loading" /> : view.myTotal}
          </strong>
        </h2>
        <div>
          {matured && !blocked && (
            <Button
              $variant="secondary"
              disabled={closingAll}
              onClick={() => {
                dispatch(closeAllMaturedOpened())
                dispatch(modalOpened('closeAllMatured'))
              }}
            >
              Close all matured ({matured.count})
            </Button>
          )}
          {all.length > 0 && (
            <Button $variant="secondary" onClick={() => download(all)}>
              Export CSV
            </Button>
          )}
          <Button onClick={deposit} disabled={!!blocked} title={blocked ?? undefined}>
            Subscribe/Stake
          </Button>
        </div>
      </Head>
      {view.listStatus === 'ok' && all.length === 0 ? (
        blocked ? (
          <Empty>
            <p>This address has no deposits</p>
          </Empty>
        ) : (
          <Empty>
            <p>You do not have any deposits</p>
            <Button onClick={deposit}>Create 1st deposit</Button>
          </Empty>
        )
      ) : all.length === 0 ? (
        view.listStatus === 'failed' ? null : (
          <Muted>Loading your stakes…</Muted>
        )
      ) : (
        <RowsTable>
          <thead>
            <tr>
              <th>Subscription</th>
              <th>Stake created</th>
              <th>Stake Progress</th>
              <th>Release date</th>
              <th>Stake ID</th>
              <th>Staked amount</th>
              <th>Future rewards</th>
              <th>
                <span className="visually-hidden">Close</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {active.map((r) => (
              <Row key={r.id} row={r} readOnly={!!blocked} restaking={closingAll} />
            ))}
          </tbody>
          {closed.length > 0 && (
            <tbody>
              <Section>
                <th colSpan={6}>Closed</th>
                <th>Earned</th>
                <th />
              </Section>
              {closed.map((r) => (
                <Row key={r.id} row={r} readOnly={!!blocked} restaking={false} />
              ))}
            </tbody>
          )}
        </RowsTable>
      )}
      {view.listStatus === 'failed' && (
        <Failure role="alert" data-testid="stake-list-error">
          <p>
            {all.length > 0
              ? 'Your stakes could not be read again; the list shows them as last read.'
              : 'Your stakes could not be read.'}
            <small>{view.listError}</small>
          </p>
          <Button $variant="secondary" onClick={() => dispatch(stakeRefreshRequested())}>
            Retry
          </Button>
        </Failure>
      )}
      {view.moreStakes && all.length > 0 && view.listStatus !== 'failed' && (
        <More>
          <Button $variant="secondary" onClick={() => dispatch(moreStakesRequested())}>
            Show more
          </Button>
        </More>
      )}
    </Card>
  )
}
