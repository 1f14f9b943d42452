import { memo } from 'react'
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts'
import { useTheme } from 'styled-components'
import { formatAxisAmount } from '../../../format/axis'
import type { ChartPoint } from '../closeCurveView'
import { CHART_GEOMETRY as G, curveColors, dayTicks } from './curveLook'

export interface CloseCurveChartProps {
  data: ChartPoint[]
  /** The amount staked, in tokens: the break-even level. */
  principal: number
  breakEvenDay: number | null
  lastDay: number
  hasReward: boolean
  hasGains: boolean
  hasBonus: boolean
  /** A point under the pointer: its day. */
  onChoose: (day: number) => void
}

/**
 * The chart of what a close pays, day by day (recharts, in the lazy "curve" chunk: loaded only when a curve shows).
 * Lines, not stacked areas: each part (the fee falling, the reward earned, the bonus at the release) reads on its own
 * scale from 0, and the amount received crosses the amount staked at the break-even day. The figures beside it are
 * the accessible reading; the picture is hidden from screen readers. Memoized, and the chosen day's marker is the
 * panel's (CloseCurvePanel), drawn over it: picking a day, by slider or pointer, draws nothing here again.
 */
export const CloseCurveChart = memo(function CloseCurveChart(props: CloseCurveChartProps) {
  const theme = useTheme()
  const c = theme.color
  const line = curveColors(theme)
  const axis = { stroke: c.border, tick: { fill: c.muted, fontSize: 12 } }
  return (
    <LineChart
      responsive
      style={{ width: '100%', height: '100%' }}
      data={props.data}
      margin={{ top: G.top, right: G.right, bottom: 0, left: 0 }}
      onMouseMove={(state) => {
        const point = props.data[Number(state.activeTooltipIndex)]
        if (point) props.onChoose(point.day)
      }}
      accessibilityLayer={false}
    >
      <CartesianGrid stroke={c.border} strokeDasharray="2 4" vertical={false} />
      <XAxis
        dataKey="day"
        type="number"
        domain={[0, props.lastDay]}
        ticks={dayTicks(props.lastDay)}
        allowDecimals={false}
        tickFormatter={(d: number) => (d === 0 ? 'today' : `${d}d`)}
        height={G.bottom}
        {...axis}
      />
      <YAxis width={G.left} tickFormatter={formatAxisAmount} {...axis} />
      {/* No tooltip box: the figures beside the chart say it. The tooltip's state is what reports the day under the pointer. */}
      <Tooltip content={() => null} cursor={false} isAnimationActive={false} />
      <ReferenceLine y={props.principal} stroke={line.principal} strokeDasharray="6 4" />
      {props.breakEvenDay !== null && (
        <ReferenceLine
          x={props.breakEvenDay}
          stroke={c.accent}
          strokeDasharray="3 3"
          label={{ value: 'break-even', position: 'insideTopLeft', fill: c.accent, fontSize: 12 }}
        />
      )}
      <Line type="linear" dataKey="fee" stroke={line.fee} strokeWidth={2} dot={false} isAnimationActive={false} />
      {props.hasReward && (
        <Line type="linear" dataKey="reward" stroke={line.reward} strokeWidth={2} dot={false} isAnimationActive={false} />
      )}
      {props.hasGains && (
        <Line type="linear" dataKey="gains" stroke={line.gains} strokeWidth={2} dot={false} isAnimationActive={false} />
      )}
      {props.hasBonus && (
        <Line type="linear" dataKey="bonus" stroke={line.bonus} strokeWidth={2} dot={false} isAnimationActive={false} />
      )}
      <Line type="linear" dataKey="received" stroke={line.received} strokeWidth={3} dot={false} isAnimationActive={false} />
    </LineChart>
  )
})
