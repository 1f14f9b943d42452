import { Suspense, useEffect } from 'react'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { lazyChunk, LoadFailure } from '../../../kit/lazyChunk'
import { FootSection, SectionHead } from '../../../ui/Card'
import { FigureTiles } from '../../../ui/FigureList'
import { IndexNoticeBox } from '../../../ui/IndexNoticeBox'
import { Skeleton } from '../../../ui/Skeleton'
import { useNearScreen } from '../../../ui/useNearScreen'
import { selectReadsReady } from '../../wallet/selectors'
import { selectPool, selectStatsView } from '../selectors'
import { statsRangeChosen, statsRefreshRequested, statsShown } from '../slice'
import { RANGES } from '../statsView'

// recharts is a chunk of its own ("stats"), fetched when the block first comes near the screen: it sits at the foot of
// the staking page, so neither the first view nor the page's load carries it (docs/architecture.md §10).
const PoolStatsCharts = lazyChunk(() => import(/* webpackChunkName: "stats" */ './PoolStatsCharts'))((m) => m.PoolStatsCharts)

/** The charts' room, kept while their code loads so nothing moves when it arrives (three charts side by side). */
const CHARTS_HEIGHT = '212px'
const CHARTS_HEIGHT_NARROW = '660px'

const Periods = styled.div`
  display: inline-flex;
  padding: 3px;
  border-radius: 999px;
  background: ${(p) => p.theme.color.raised};
  border: 1px solid ${(p) => p.theme.color.border};
  button {
    min-height: 38px;
    padding: 6px 14px;
    border: 0;
    border-radius: 999px;
    background: none;
    color: ${(p) => p.theme.color.muted};
    font-weight: 600;
    cursor: pointer;
  }
  button[aria-pressed='true'] {
    background: ${(p) => p.theme.color.accent};
    color: ${(p) => p.theme.color.accentText};
  }
`

const Summary = styled(FigureTiles)`
  margin: 0 0 16px;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
`

const ChartRoom = styled.div`
  min-height: ${CHARTS_HEIGHT};
  @media (max-width: ${(p) => p.theme.narrow}) {
    min-height: ${CHARTS_HEIGHT_NARROW};
  }
`

const ChartSkeleton = styled(Skeleton)`
  height: ${CHARTS_HEIGHT};
  @media (max-width: ${(p) => p.theme.narrow}) {
    height: ${CHARTS_HEIGHT_NARROW};
  }
`

// A table at every width (a screen reader keeps each cell's column header), scrolled within its box.
const TableBox = styled.div`
  margin-top: 16px;
  max-height: 300px;
  overflow: auto;
  border: 1px solid ${(p) => p.theme.color.border};
  border-radius: 10px;
  &:focus-visible {
    outline-offset: 0;
  }
`

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-variant-numeric: tabular-nums;
  font-size: 0.9rem;
  th,
  td {
    padding: 8px 10px;
    text-align: right;
    white-space: nowrap;
    border-bottom: 1px solid ${(p) => p.theme.color.border};
  }
  thead th {
    position: sticky;
    top: 0;
    background: ${(p) => p.theme.color.surface};
    font-weight: 500;
    font-size: 0.8rem;
    color: ${(p) => p.theme.color.muted};
  }
  th:first-child {
    text-align: left;
  }
  tbody th {
    font-weight: 500;
  }
`

const Empty = styled.p`
  margin: 8px 0;
  text-align: center;
`

/**
 * The statistics block (docs/product.md §2.10), in place of the spec's 'Coming soon': the pool's total staked, its
 * stakers and the early-close fees shared with holders, over 7 days, 30 days or all time, as charts (a lazy chunk),
 * a summary and a table of the same figures. An outage or a lagging index is said; an empty chart shows only when
 * a caught-up index found nothing.
 */
export function PoolStatistics() {
  const dispatch = useAppDispatch()
  const pool = useAppSelector(selectPool)?.address ?? null
  const readsReady = useAppSelector(selectReadsReady)
  const view = useAppSelector(selectStatsView)
  // Read once the block comes within 200 px of the screen, the charts drawn once their place does (§10).
  const [section, near] = useNearScreen()
  useEffect(() => {
    if (readsReady && pool && near) dispatch(statsShown({ pool }))
  }, [dispatch, readsReady, pool, near])
  const [chartPlace, nearScreen] = useNearScreen()
  const unit = view.interval === 'week' ? 'week' : 'day'
  return (
    <FootSection ref={section} aria-labelledby="statistics-title" data-testid="statistics">
      <SectionHead>
        <h2 id="statistics-title">Statistics</h2>
        <Periods role="group" aria-label="Period">
          {RANGES.map((r) => (
            <button key={r.id} type="button" aria-pressed={view.range === r.id} onClick={() => dispatch(statsRangeChosen(r.id))}>
              {r.label}
            </button>
          ))}
        </Periods>
      </SectionHead>
      {view.notice && (
        <IndexNoticeBox notice={view.notice} testIdPrefix="statistics" onRetry={() => dispatch(statsRefreshRequested())} />
      )}
      {view.summary && (
        <Summary data-testid="statistics-summary">
          <div>
            <dt>Total staked</dt>
            <dd>
              {view.summary.totalStaked}
              <small>{view.summary.change}</small>
            </dd>
          </div>
          <div>
            <dt>Stakers</dt>
            <dd>{view.summary.stakers}</dd>
          </div>
          <div>
            <dt>Fees shared with holders</dt>
            <dd>{view.summary.fees}</dd>
          </div>
        </Summary>
      )}
      {view.empty && <Empty data-testid="statistics-empty">{view.empty}</Empty>}
      {view.loading && !view.notice ? (
        <ChartSkeleton aria-label="Loading the statistics" />
      ) : view.chart.length > 0 ? (
        <>
          {/* Charts that cannot load say so in their place; the summary and the table stay. */}
          <ChartRoom ref={chartPlace}>
            <LoadFailure>
              <Suspense fallback={<ChartSkeleton aria-label="Loading the charts" />}>
                {nearScreen ? <PoolStatsCharts view={view} /> : <ChartSkeleton aria-label="Loading the charts" />}
              </Suspense>
            </LoadFailure>
          </ChartRoom>
          <TableBox tabIndex={0} role="region" aria-labelledby="statistics-table-caption">
            <Table data-testid="statistics-table">
              <caption id="statistics-table-caption" className="visually-hidden">
                The pool by {unit}: total staked and stakers at the end of each {unit}, what was staked, closed and shared in it (
                {view.symbol || 'tokens'})
              </caption>
              <thead>
                <tr>
                  <th scope="col">{unit === 'week' ? 'Week' : 'Day'}</th>
                  <th scope="col">Total staked</th>
                  <th scope="col">Stakers</th>
                  <th scope="col">Staked</th>
                  <th scope="col">Closed</th>
                  <th scope="col">Fees shared</th>
                </tr>
              </thead>
              <tbody>
                {[...view.table].reverse().map((r) => (
                  <tr key={r.key}>
                    <th scope="row">{r.date}</th>
                    <td>{r.totalStaked}</td>
                    <td>{r.stakers}</td>
                    <td>{r.staked}</td>
                    <td>{r.closed}</td>
                    <td>{r.fees}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableBox>
        </>
      ) : null}
    </FootSection>
  )
}
