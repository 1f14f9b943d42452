import styled, { css } from 'styled-components'

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

/** A figure's name, small and muted, over its value, bold in digits of one width (a dl's dt and dd). */
export const nameOverFigure = css`
  dt {
    color: ${(p) => p.theme.color.muted};
    font-size: 0.85rem;
  }
  dd {
    margin: 2px 0 0;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
`

/**
 * Figures as tiles: each name above its figure in a raised box, as many boxes to a row as fit (a summary's totals, the
 * unlock timeline's split). Extend it for the tiles' width and a phone layout.
 */
export const FigureTiles = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: 10px 16px;
  div {
    padding: 10px 12px;
    border-radius: 10px;
    background: ${(p) => p.theme.color.raised};
  }
  ${nameOverFigure}
  dd small {
    display: block;
    font-weight: 400;
    color: ${(p) => p.theme.color.muted};
  }
`
