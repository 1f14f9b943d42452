import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { countRender } from '../../../kit/renderCount'
import { NO_FIGURE } from '../../../format/units'
import { Card } from '../../../ui/Card'
import { FreshnessNote } from '../../../ui/OutageBanner'
import { Skeleton } from '../../../ui/Skeleton'
import { selectFeeStreamNote, selectPoolView, selectStakeFreshness } from '../selectors'

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

const Note = styled.p`
  margin: 8px 2px 0;
  font-size: 0.85rem;
  color: ${(p) => p.theme.color.muted};
`

/**
 * Early-close fees still reaching the stakers (version 1). Its own subscriber: the figure falls with every read while
 * a stream runs, and only this line needs to show it.
 */
function FeeStreamNote() {
  const note = useAppSelector(selectFeeStreamNote)
  if (!note) return null
  return (
    <Note
      data-testid="pool-fee-stream"
      title="Fees from stakes closed early reach the stakes that stay evenly over 30 days, by their pool shares."
    >
      {note}
    </Note>
  )
}

/** The block the figures are as of, while they are current; its own subscriber, as the age ticks. */
function PoolFreshness() {
  const fresh = useAppSelector(selectStakeFreshness)
  return fresh ? <FreshnessNote {...fresh} testId="pool-as-of" /> : null
}

/** Main info (docs/product.md §2.3): total staked, pool APR, total stakers, and any early-close fees being shared. */
export function PoolOverview() {
  countRender('PoolOverview')
  const v = useAppSelector(selectPoolView)
  const value = (text: string, id: string) =>
    v.loading ? <Skeleton $width="8ch" aria-label="Loading" /> : <span data-testid={id}>{text}</span>
  return (
    <div>
      <Grid>
        <Figure>
          <h3>Total staked</h3>
          <p>{value(v.totalStaked, 'pool-total-staked')}</p>
        </Figure>
        <Figure>
          <h3>Pool APR</h3>
          <p>{value(v.apr ?? NO_FIGURE, 'pool-apr')}</p>
        </Figure>
        <Figure>
          <h3>Total stakers</h3>
          <p>{value(v.holders, 'pool-holders')}</p>
        </Figure>
      </Grid>
      <FeeStreamNote />
      <PoolFreshness />
    </div>
  )
}
