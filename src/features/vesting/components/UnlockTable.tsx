import styled from 'styled-components'
import type { TimelineView } from '../selectors'
import { BAND, STEP_BAND } from './timelineBands'

// A table at every width, never rows restyled as cards: a screen reader keeps the column headers of every cell.
const Scroll = styled.div`
  overflow-x: auto;
`

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-variant-numeric: tabular-nums;
  font-size: 0.92rem;
  caption {
    text-align: left;
    font-weight: 600;
    padding-bottom: 8px;
  }
  caption small {
    font-weight: 400;
    color: ${(p) => p.theme.color.muted};
  }
  th,
  td {
    text-align: left;
    padding: 8px 10px;
    border-bottom: 1px solid ${(p) => p.theme.color.border};
  }
  thead th {
    font-weight: 500;
    font-size: 0.8rem;
    color: ${(p) => p.theme.color.muted};
    vertical-align: bottom;
  }
  tbody th {
    font-weight: 500;
    white-space: nowrap;
  }
  td:nth-child(2),
  td:nth-child(3),
  thead th:nth-child(2),
  thead th:nth-child(3) {
    text-align: right;
  }
  tr[data-state='locked'] {
    color: ${(p) => p.theme.color.muted};
  }
  @media (max-width: ${(p) => p.theme.narrow}) {
    font-size: 0.85rem;
    th,
    td {
      padding: 8px 4px;
    }
  }
`

const State = styled.span<{ $color: string }>`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  white-space: nowrap;
  &::before {
    content: '';
    flex: none;
    width: 10px;
    height: 10px;
    border-radius: 2px;
    background: ${(p) => p.$color};
  }
`

/**
 * The status column's words, seen on a wide screen only: on a phone the swatch alone (the split above names the
 * colours), so the four columns fit 390 px without scrolling; screen readers read the words at every width.
 */
const WideOnly = styled.span`
  @media (max-width: ${(p) => p.theme.narrow}) {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`

/** Every unlock as a table (docs/product.md §2.7): the chart's figures for screen readers and those who prefer numbers. */
export function UnlockTable({ view }: { view: TimelineView }) {
  const unit = view.symbol ? ` (${view.symbol})` : ''
  return (
    <Scroll>
      <Table>
        <caption>
          Every unlock <small>(dates in UTC; today is {view.today})</small>
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Unlocks{unit}</th>
            <th scope="col">Unlocked in all{unit}</th>
            <th scope="col">
              <WideOnly>Status</WideOnly>
            </th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((r) => (
            <tr key={r.at} data-state={r.state}>
              <th scope="row">{r.date}</th>
              <td>{r.amount}</td>
              <td>{r.cumulative}</td>
              <td>
                <State $color={BAND[STEP_BAND[r.state]]}>
                  <WideOnly>{r.stateText}</WideOnly>
                </State>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Scroll>
  )
}
