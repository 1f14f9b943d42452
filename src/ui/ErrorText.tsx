import styled from 'styled-components'

/**
 * Why something did not go through, in the danger colour and announced as it appears (role="alert"). Its spacing is
 * the caller's: extend it with a margin.
 */
export const ErrorText = styled.p.attrs({ role: 'alert' })`
  margin: 0;
  color: ${(p) => p.theme.color.danger};
  font-size: 0.9rem;
`
