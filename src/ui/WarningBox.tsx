import styled from 'styled-components'

/** A framed note in the warning colour: something the person should know before acting (a change to the terms). */
export const WarningBox = styled.div`
  margin: 0 0 16px;
  padding: 10px 14px;
  border-radius: ${(p) => p.theme.radius};
  border: 1px solid ${(p) => p.theme.color.warning};
  background: rgba(255, 210, 122, 0.07);
  font-size: 0.9rem;
`
