import styled from 'styled-components'

/**
 * Each stake a dialog closes and what it pays, one line each: a short list, scrolled inside its box when there are
 * many ("Close all matured", Restake). Each dialog sets its own margins and height.
 */
export const PayoutList = styled.ul`
  list-style: none;
  overflow: auto;
  border: 1px solid ${(p) => p.theme.color.border};
  border-radius: 10px;
  li {
    display: flex;
    justify-content: space-between;
    gap: 16px;
    font-variant-numeric: tabular-nums;
  }
  li + li {
    border-top: 1px solid ${(p) => p.theme.color.border};
  }
  span {
    color: ${(p) => p.theme.color.muted};
  }
`

/** A dialog's buttons, one under the other. */
export const DialogActions = styled.div`
  display: grid;
  gap: 12px;
`
