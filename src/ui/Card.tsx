import styled from 'styled-components'
import { SpreadRow } from './SpreadRow'

export const Card = styled.section`
  background: ${(p) => p.theme.color.surface};
  border: 1px solid ${(p) => p.theme.color.border};
  border-radius: ${(p) => p.theme.radius};
  padding: 24px;
  @media (max-width: ${(p) => p.theme.narrow}) {
    padding: 18px;
  }
`

/**
 * A section at a page's foot (the activity, the statistics): a grid item never wider than the page (a long hash or a
 * wide table wraps or scrolls inside it), whose style, layout and paint the browser skips while it is off screen
 * (`content-visibility: auto`, keeping the height it last had, or a guess before it was first shown). On a phone they
 * start below the fold, and every answer that re-rendered them cost layout there for nothing.
 */
export const FootSection = styled(Card)`
  min-width: 0;
  content-visibility: auto;
  /* Its height only: a guessed width would narrow it while it is skipped. */
  contain-intrinsic-block-size: auto 640px;
`

/** A foot section's title row: its h2 and, opposite, its controls. */
export const SectionHead = styled(SpreadRow)`
  margin-bottom: 12px;
  h2 {
    margin: 0;
    font-size: 1.05rem;
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
