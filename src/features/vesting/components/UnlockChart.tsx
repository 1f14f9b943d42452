import { useRef, useState, type KeyboardEvent } from 'react'
import { Area, AreaChart, CartesianGrid, ReferenceLine, XAxis, YAxis, type DotItemDotProps } from 'recharts'
import styled from 'styled-components'
import { formatMonth } from '../../../format/dates'
import { formatCompact } from '../../../format/units'
import { theme } from '../../../ui/theme'
import type { TimelineView } from '../selectors'
import type { ChartPoint } from '../timeline'
import { BAND } from './timelineBands'

// This file is the "timeline" chunk with recharts (docs/architecture.md §10): it loads only when a timeline is shown.

const HEIGHT = 240
/** Half a tip's width: a tip near an edge is moved in by this much so that it stays inside the chart. */
const TIP_HALF = 100

const Box = styled.div`
  position: relative;
  g[data-step] {
    outline: none;
    cursor: default;
  }
  g[data-step]:focus-visible .mark,
  g[data-step]:hover .mark {
    r: 7;
    stroke: ${(p) => p.theme.color.focus};
    stroke-width: 3;
  }
`

const Tip = styled.div`
  position: absolute;
  z-index: 1;
  width: max-content;
  max-width: ${TIP_HALF * 2}px;
  padding: 8px 10px;
  border-radius: 8px;
  border: 1px solid ${(p) => p.theme.color.border};
  background: ${(p) => p.theme.color.bg};
  font-size: 0.85rem;
  line-height: 1.4;
  pointer-events: none;
  font-variant-numeric: tabular-nums;
  strong {
    display: block;
  }
  span {
    color: ${(p) => p.theme.color.muted};
  }
`

interface Active {
  step: number
  x: number
  y: number
  width: number
}

/**
 * The unlock timeline as a chart (docs/product.md §2.7): the allocation unlocked over time as three stacked step
 * areas (claimed, claimable, still locked), today as a dashed line, and a point at each unlock that shows its date and
 * amounts on hover and on focus. The points are one stop in the tab order: the arrow keys, Home and End move between
 * them (a roving tab index), so a keyboard does not have to step through twelve points to get past the chart.
 */
export function UnlockChart({ view }: { view: TimelineView }) {
  const box = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState<Active | null>(null)
  // The tab stop starts at the next unlock (the one people look for), or the last once all are past.
  const next = view.rows.findIndex((r) => r.state === 'locked')
  const [focusStep, setFocusStep] = useState(next === -1 ? view.rows.length - 1 : next)

  const show = (step: number, x: number, y: number) => setActive({ step, x, y, width: box.current?.clientWidth ?? 0 })
  const hide = (step: number) => setActive((a) => (a?.step === step ? null : a))

  const onKeyDown = (e: KeyboardEvent) => {
    const last = view.rows.length - 1
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowUp'
        ? Math.min(focusStep + 1, last)
        : e.key === 'ArrowLeft' || e.key === 'ArrowDown'
          ? Math.max(focusStep - 1, 0)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null
    if (to === null) return
    e.preventDefault()
    setFocusStep(to)
    box.current?.querySelector<SVGGElement>(`g[data-step="${to}"]`)?.focus()
  }

  const dot = ({ cx, cy, payload }: DotItemDotProps) => {
    const step = (payload as ChartPoint).step
    const key = `dot-${(payload as ChartPoint).at}`
    if (step === undefined || cx === undefined || cy === undefined) return <g key={key} />
    const r = view.rows[step]
    const color = BAND[r.state === 'locked' ? 'locked' : 'claimable']
    return (
      <g
        key={key}
        data-step={step}
        role="img"
        tabIndex={step === focusStep ? 0 : -1}
        aria-label={`${r.date}: ${r.amount} ${view.symbol} unlock, ${r.cumulative} ${view.symbol} in all, ${r.stateText.toLowerCase()}`}
        onFocus={() => {
          setFocusStep(step)
          show(step, cx, cy)
        }}
        onBlur={() => hide(step)}
        onMouseEnter={() => show(step, cx, cy)}
        onMouseLeave={() => hide(step)}
      >
        {/* A wider target than the mark, for a mouse or a finger. */}
        <circle cx={cx} cy={cy} r={14} fill="transparent" />
        <circle className="mark" cx={cx} cy={cy} r={5} fill={color} stroke={theme.color.surface} strokeWidth={2} />
      </g>
    )
  }

  const row = active && view.rows[active.step]
  const left = active && Math.min(Math.max(active.x, TIP_HALF), Math.max(active.width - TIP_HALF, TIP_HALF))
  return (
    <Box
      ref={box}
      role="group"
      aria-label="Chart of the unlocks over time. The arrow keys move between the unlocks; the table lists the same figures."
      onKeyDown={onKeyDown}
    >
      <AreaChart
        data={view.points}
        responsive
        style={{ width: '100%', height: HEIGHT }}
        margin={{ top: 20, right: 16, bottom: 0, left: 0 }}
        // The points above are the keyboard's way in; recharts' own keyboard layer would add a second one.
        accessibilityLayer={false}
      >
        <CartesianGrid vertical={false} stroke={theme.color.border} />
        <XAxis
          dataKey="at"
          type="number"
          scale="time"
          domain={view.domain}
          ticks={view.ticks}
          tickFormatter={formatMonth}
          stroke={theme.color.border}
          tick={{ fill: theme.color.muted, fontSize: 12 }}
        />
        <YAxis
          tickFormatter={formatCompact}
          width={44}
          stroke={theme.color.border}
          tick={{ fill: theme.color.muted, fontSize: 12 }}
          allowDecimals={false}
        />
        {(['claimed', 'claimable', 'locked'] as const).map((band) => (
          <Area
            key={band}
            type="stepAfter"
            dataKey={band}
            stackId="unlocked"
            stroke={BAND[band]}
            strokeWidth={band === 'locked' ? 1.5 : 2}
            strokeDasharray={band === 'locked' ? '5 4' : undefined}
            fill={BAND[band]}
            fillOpacity={band === 'claimable' ? 0.45 : 0.25}
            isAnimationActive={false}
            activeDot={false}
            // The top band's edge is the unlocked total: the points sit on it.
            dot={band === 'locked' ? dot : false}
          />
        ))}
        <ReferenceLine
          x={view.now}
          stroke={theme.color.text}
          strokeDasharray="3 3"
          label={{ value: 'Today', position: 'top', fill: theme.color.text, fontSize: 12 }}
        />
      </AreaChart>
      {active && row && (
        <Tip
          aria-hidden="true"
          // Above the point, or under it when the point is near the top.
          style={{
            left: left!,
            top: active.y,
            transform: `translate(-50%, ${active.y < 90 ? '16px' : 'calc(-100% - 16px)'})`,
          }}
        >
          <strong>{row.date}</strong>
          {row.amount} {view.symbol} unlock
          <br />
          <span>
            {row.cumulative} {view.symbol} in all · {row.stateText}
          </span>
        </Tip>
      )}
    </Box>
  )
}
