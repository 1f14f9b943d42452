import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { Card } from '../../../ui/Card'
import { Skeleton } from '../../../ui/Skeleton'
import { selectClaimView } from '../selectors'

const Figures = styled(Card)`
  display: grid;
  gap: 20px;
`

const Main = styled.div`
  margin: 0;
  dt {
    color: ${(p) => p.theme.color.muted};
    font-size: 0.95rem;
  }
  dd {
    margin: 4px 0 0;
    font-size: clamp(1.9rem, 6vw, 2.6rem);
    font-weight: 700;
    letter-spacing: -0.02em;
    color: ${(p) => p.theme.color.accent};
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
`

const Pair = styled.div`
  margin: 0;
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: 16px;
  padding-top: 20px;
  border-top: 1px solid ${(p) => p.theme.color.border};
  dt {
    color: ${(p) => p.theme.color.muted};
    font-size: 0.9rem;
  }
  dd {
    margin: 2px 0 0;
    font-size: 1.2rem;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
`

/** Available for claim, distributed total and amount claimed, with placeholders until the first answer. */
export function VestingFigures() {
  const view = useAppSelector(selectClaimView)
  const figure = (text: string, width: string) => (view.loading ? <Skeleton $width={width} aria-label="Loading" /> : text)
  return (
    <Figures aria-busy={view.loading}>
      <Main as="dl">
        <dt>Available for claim</dt>
        <dd data-testid="vesting-available">{figure(view.available, '12ch')}</dd>
      </Main>
      <Pair as="dl">
        <div>
          <dt>Distributed total</dt>
          <dd data-testid="vesting-total">{figure(view.total, '10ch')}</dd>
        </div>
        <div>
          <dt>Amount claimed</dt>
          <dd data-testid="vesting-claimed">{figure(view.claimed, '10ch')}</dd>
        </div>
      </Pair>
    </Figures>
  )
}
