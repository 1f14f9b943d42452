import styled from 'styled-components'

/**
 * A row with its items at both ends, such as a title and its actions, that wraps onto more lines when the width runs
 * out. Extend it for spacing and for what sits inside.
 */
export const SpreadRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
`
