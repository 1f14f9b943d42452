import styled from 'styled-components'
import { useAppSelector } from '../../../app/hooks'
import { countRender } from '../../../app/renderCount'
import { Card } from '../../../ui/Card'
import { Skeleton } from '../../../ui/Skeleton'
import { selectPoolView } from '../selectors'

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(200px, 1fr));
  gap: 16px;
`

const Figure = styled(Card)`
  padding: 18px 20px;
  h3 {
    margin: 0;
    font-size: 0.9rem;
    font-weight: 500;
    color: ${(p) => p.theme.color.muted};
  }
  p {
    margin: 6px 0 0;
    font-size: 1.45rem;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
`

/** Main info (SPEC section 2): total staked, pool APR, total stakers. */
export function PoolOverview() {
  countRender('PoolOverview')
  const v = useAppSelector(selectPoolView)
  const value = (text: string, id: string) =>
    v.loading ? <Skeleton $width="8ch" aria-label="Loading" /> : <span data-testid={id}>{text}</span>
  return (
    <Grid>
      <Figure>
        <h3>Total staked</h3>
        <p>{value(v.totalStaked, 'pool-total-staked')}</p>
      </Figure>
      <Figure>
        <h3>Pool APR</h3>
        <p>{value(v.apr ?? '—', 'pool-apr')}</p>
      </Figure>
      <Figure>
        <h3>Total stakers</h3>
        <p>{value(v.holders, 'pool-holders')}</p>
      </Figure>
    </Grid>
  )
}
