import { Suspense } from 'react'
import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { lazyChunk, LoadFailure } from '../../../kit/lazyChunk'
import { Card } from '../../../ui/Card'
import { FigureTiles } from '../../../ui/FigureList'
import { Skeleton } from '../../../ui/Skeleton'
import { useNearScreen } from '../../../ui/useNearScreen'
import { useNow } from '../../../ui/useNow'
import { selectTimelineAt } from '../selectors'
import { BAND, type Band } from './timelineBands'
import { UnlockTable } from './UnlockTable'

// recharts is a chunk of its own, fetched when the chart's place first scrolls near the screen (never prefetched: a
// visitor without an allocation never needs it, and on a phone the chart sits below the fold), so neither the first
// view nor the claim page's load carries it (docs/architecture.md §10).
const UnlockChart = lazyChunk(() => import(/* webpackChunkName: "timeline" */ './UnlockChart'))((m) => m.UnlockChart)

const CHART_HEIGHT = '240px'
/** How often "today" moves: the split changes only at an unlock, so a minute is plenty. */
const TODAY_TICK_MS = 60_000

const Box = styled(Card)`
  display: grid;
  gap: 16px;
`

const Title = styled.h2`
  margin: 0;
  font-size: 1.05rem;
`

const Split = styled(FigureTiles)`
  grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
  gap: 12px 16px;
  dt {
    display: flex;
    align-items: center;
    gap: 8px;
  }
  /* On a phone one line each, the name and its figure side by side: three boxes do not fit a row. */
  @media (max-width: ${(p) => p.theme.narrow}) {
    grid-template-columns: minmax(0, 1fr);
    gap: 8px;
    div {
      display: flex;
      justify-content: space-between;
      align-items: baseline;
      gap: 12px;
    }
    dd {
      margin: 0;
      text-align: right;
    }
  }
`

const Swatch = styled.span<{ $band: Band }>`
  flex: none;
  width: 12px;
  height: 12px;
  border-radius: 3px;
  background: ${(p) => BAND[p.$band]};
`

const Today = styled.p`
  margin: 0;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.85rem;
`

const ChartSkeleton = () => <Skeleton $height={CHART_HEIGHT} aria-label="Loading the chart" />

const SPLIT: { band: Band; title: string }[] = [
  { band: 'claimed', title: 'Claimed' },
  { band: 'claimable', title: 'Claimable now' },
  { band: 'locked', title: 'Still locked' },
]

/**
 * The unlock timeline (docs/product.md §2.7): how the allocation stands today (claimed, claimable, still locked), the
 * chart of every unlock with today marked, and the same figures as a table. Nothing before the vesting API has
 * answered, or for a wallet without an allocation.
 */
export function UnlockTimeline() {
  const view = useAppSelector(selectTimelineAt(useNow(TODAY_TICK_MS)))
  const [chartPlace, nearScreen] = useNearScreen()
  if (!view) return null
  return (
    <Box aria-labelledby="unlock-timeline" data-testid="unlock-timeline">
      <Title id="unlock-timeline">Unlock timeline</Title>
      <Split>
        {SPLIT.map(({ band, title }) => (
          <div key={band}>
            <dt>
              <Swatch $band={band} aria-hidden="true" />
              {title}
            </dt>
            <dd data-testid={`timeline-${band}`}>{view.split[band]}</dd>
          </div>
        ))}
      </Split>
      <Today>As of today, {view.today}</Today>
      {/* A chart that cannot load says so in its place; the figures above and the table stay. */}
      <div ref={chartPlace}>
        <LoadFailure>
          <Suspense fallback={<ChartSkeleton />}>{nearScreen ? <UnlockChart view={view} /> : <ChartSkeleton />}</Suspense>
        </LoadFailure>
      </div>
      <UnlockTable view={view} />
    </Box>
  )
}
