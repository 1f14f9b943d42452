import styled from 'styled-components'

/**
 * A stake dialog's form and estimate, and beside them (below on a phone) what a close of the stake pays day by day:
 * the deposit dialog and the restake dialog.
 */
export const CurveColumns = styled.div`
  display: grid;
  gap: 0 32px;
  margin-bottom: 4px;
  @media (min-width: 760px) {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1.1fr);
  }
  > aside {
    margin-bottom: 20px;
  }
`
