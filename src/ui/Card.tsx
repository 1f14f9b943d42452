import styled from 'styled-components'

export const Card = styled.section`
  background: ${(p) => p.theme.color.surface};
  border: 1px solid ${(p) => p.theme.color.border};
  border-radius: ${(p) => p.theme.radius};
  padding: 24px;
  @media (max-width: ${(p) => p.theme.narrow}) {
    padding: 18px;
  }
`

export const PageTitle = styled.h1`
  font-size: clamp(1.6rem, 4vw, 2.2rem);
  margin: 0 0 8px;
  letter-spacing: -0.02em;
`

export const Muted = styled.p`
  color: ${(p) => p.theme.color.muted};
  margin: 0;
`
