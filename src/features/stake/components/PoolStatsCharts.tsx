import type { ReactNode } from 'react'
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'
import styled from 'styled-components'
import { formatCompact, formatCount } from '../../../format/units'
import { theme } from '../../../ui/theme'
import type { ChartPoint, StatsView } from '../statsView'

// This file is the "stats" chunk with recharts (docs/architecture.md §10): it loads only when the statistics block
// comes near the screen.

const HEIGHT = 170

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 16px;
  @media (max-width: ${(p) => p.theme.narrow}) {
    grid-template-columns: minmax(0, 1fr);
  }
  figure {
    margin: 0;
    min-width: 0;
  }
  figcaption {
    margin-bottom: 6px;
    font-size: 0.85rem;
    color: ${(p) => p.theme.color.muted};
  }
`

const Tip = styled.div`
  padding: 6px 10px;
  border-radius: 8px;
  border: 1px solid ${(p) => p.theme.color.border};
  background: ${(p) => p.theme.color.bg};
  font-size: 0.85rem;
  font-variant-numeric: tabular-nums;
  strong {
    display: block;
  }
`

const axis = { stroke: theme.color.border, tick: { fill: theme.color.muted, fontSize: 11 } }
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

type Metric = 'totalStaked' | 'stakers' | 'fees'

/** The hovered bucket's date and figure; the table under the charts has every figure to the cent. */
function tip(metric: Metric, unit: string, symbol: string) {
  return function StatsTip({ active, payload }: { active?: boolean; payload?: readonly { payload?: ChartPoint }[] }) {
    const p = active ? payload?.[0]?.payload : undefined
    if (!p) return null
    const value = metric === 'stakers' ? formatCount(p.stakers) : `${whole.format(p[metric])} ${symbol}`
    return (
      <Tip>
        <strong>
          {unit === 'week' ? 'Week of ' : ''}
          {p.label}
        </strong>
        {value}
      </Tip>
    )
  }
}

function Chart({ title, label, children }: { title: string; label: string; children: ReactNode }) {
  return (
    <figure>
      <figcaption aria-hidden="true">{title}</figcaption>
      {/* One image to a screen reader, named with what it shows; the table under the charts has the figures. */}
      <div role="img" aria-label={label}>
        {children}
      </div>
    </figure>
  )
}

/**
 * The pool's statistics as three small charts (docs/product.md §2.10): the total staked at the end of each bucket,
 * the stakers then, and the fees shared with holders in it. Each is named for screen readers by what it shows from
 * the first bucket to the last; the summary and the table beside them carry every figure.
 */
export function PoolStatsCharts({ view }: { view: StatsView }) {
  const points = view.chart
  const first = points[0]
  const last = points[points.length - 1]
  if (!first || !last) return null
  const unit = view.interval
  const span = `by ${unit}, ${first.label} to ${last.label}`
  const symbol = view.symbol
  const common = {
    data: points,
    responsive: true,
    style: { width: '100%', height: HEIGHT },
    margin: { top: 8, right: 8, bottom: 0, left: 0 },
    accessibilityLayer: false,
  }
  const x = <XAxis dataKey="label" {...axis} minTickGap={16} />
  const y = (allowDecimals: boolean) => <YAxis tickFormatter={formatCompact} width={40} {...axis} allowDecimals={allowDecimals} />
  const grid = <CartesianGrid vertical={false} stroke={theme.color.border} />
  const cursor = { stroke: theme.color.muted, fill: 'rgba(255, 255, 255, 0.05)' }
  return (
    <Grid data-testid="statistics-charts">
      <Chart
        title={`Total staked (${symbol})`}
        label={`Total staked ${span}: from ${whole.format(first.totalStaked)} to ${whole.format(last.totalStaked)} ${symbol}.`}
      >
        <AreaChart {...common}>
          {grid}
          {x}
          {y(true)}
          <Tooltip content={tip('totalStaked', unit, symbol)} cursor={cursor} />
          <Area
            type="stepAfter"
            dataKey="totalStaked"
            stroke={theme.color.accent}
            strokeWidth={2}
            fill={theme.color.accent}
            fillOpacity={0.2}
            isAnimationActive={false}
          />
        </AreaChart>
      </Chart>
      <Chart title="Stakers" label={`Stakers ${span}: from ${first.stakers} to ${last.stakers}.`}>
        <LineChart {...common}>
          {grid}
          {x}
          {y(false)}
          <Tooltip content={tip('stakers', unit, symbol)} cursor={cursor} />
          <Line
            type="stepAfter"
            dataKey="stakers"
            stroke={theme.color.focus}
            strokeWidth={2}
            dot={points.length <= 31 ? { r: 2 } : false}
            isAnimationActive={false}
          />
        </LineChart>
      </Chart>
      <Chart
        title={`Fees shared (${symbol})`}
        label={`Fees shared with holders ${span}: ${whole.format(points.reduce((sum, p) => sum + p.fees, 0))} ${symbol} in all.`}
      >
        <BarChart {...common}>
          {grid}
          {x}
          {y(true)}
          <Tooltip content={tip('fees', unit, symbol)} cursor={cursor} />
          <Bar dataKey="fees" fill={theme.color.warning} isAnimationActive={false} />
        </BarChart>
      </Chart>
    </Grid>
  )
}
