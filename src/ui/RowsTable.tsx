import styled from 'styled-components'

/**
 * A list of records as a table (the stake list, the Activity list): small muted column names, roomy rows, digits of
 * one width. On a phone each row becomes a card of two columns, each cell under the name in its `data-label`; the
 * lists extend it for their alignments and which cells span the card.
 */
export const RowsTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-variant-numeric: tabular-nums;
  th {
    text-align: left;
    font-weight: 500;
    font-size: 0.8rem;
    color: ${(p) => p.theme.color.muted};
    padding: 8px 10px;
    border-bottom: 1px solid ${(p) => p.theme.color.border};
  }
  td {
    padding: 12px 10px;
    border-bottom: 1px solid ${(p) => p.theme.color.border};
    vertical-align: top;
  }
  small {
    display: block;
    color: ${(p) => p.theme.color.muted};
  }
  @media (max-width: ${(p) => p.theme.narrow}) {
    thead {
      display: none;
    }
    tr {
      display: grid;
      grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
      gap: 4px 12px;
      padding: 12px 0;
      border-bottom: 1px solid ${(p) => p.theme.color.border};
    }
    td {
      border: 0;
      padding: 4px 0;
      min-width: 0;
    }
    td[data-label]::before {
      content: attr(data-label);
      display: block;
      font-size: 0.75rem;
      color: ${(p) => p.theme.color.muted};
    }
  }
`
