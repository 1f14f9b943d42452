import styled from 'styled-components'

/** Label on the left, figure on the right, one pair per row (dialog summaries and estimates). */
export const FigureList = styled.dl`
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 8px 16px;
  margin: 0;
  dt {
    color: ${(p) => p.theme.color.muted};
  }
  dd {
    margin: 0;
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
`
