import { Suspense, useId, type ReactNode } from 'react'
import styled, { useTheme } from 'styled-components'
import { formatDate } from '../../../format/dates'
import { formatAmount } from '../../../format/units'
import { lazyChunk, LoadFailure } from '../../../kit/lazyChunk'
import { useSettled } from '../../../ui/useSettled'
import type { CloseCurveView, CurveDay } from '../closeCurveView'
import { CHART_GEOMETRY as G, curveColors } from './curveLook'
import { nameOverFigure } from '../../../ui/FigureList'

// recharts is about as big as the rest of a page: its own chunk, loaded when a curve first shows, never prefetched.
const CloseCurveChart = lazyChunk(() => import(/* webpackChunkName: "curve" */ './CloseCurveChart'))((m) => m.CloseCurveChart)

/** How long a new curve must stay before the chart draws it. */
const CHART_SETTLE_MS = 250

const Panel = styled.section`
  display: grid;
  gap: 12px;
  align-content: start;
  min-width: 0;
  h3 {
    margin: 0;
    font-size: 1rem;
  }
`

/** The chart's room, kept while its chunk loads so nothing below moves. */
const ChartBox = styled.div`
  position: relative;
  height: 190px;
`

/**
 * The chosen day's line over the chart's plot area, placed by the same geometry the chart lays itself out with
 * (days run linearly from today on the left to the release on the right).
 */
const Marker = styled.div`
  position: absolute;
  top: ${G.top}px;
  bottom: ${G.bottom}px;
  width: 0;
  border-left: 2px solid ${(p) => p.theme.color.text};
  opacity: 0.6;
  pointer-events: none;
  &::after {
    content: '';
    position: absolute;
    bottom: -5px;
    left: -6px;
    width: 10px;
    height: 10px;
    border-radius: 50%;
    background: ${(p) => p.theme.color.text};
  }
`

const Legend = styled.ul`
  list-style: none;
  margin: -4px 0 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 2px 14px;
  font-size: 0.8rem;
  color: ${(p) => p.theme.color.muted};
`

/** A legend entry's line: solid, or dashed for the amount staked. */
const Swatch = styled.span<{ $color: string; $dashed?: boolean }>`
  display: inline-block;
  width: 14px;
  margin-right: 6px;
  vertical-align: middle;
  border-top: ${(p) => (p.$dashed ? '2px dashed' : '3px solid')} ${(p) => p.$color};
`

const Picker = styled.div`
  display: grid;
  grid-template-columns: auto 1fr;
  align-items: baseline;
  gap: 4px 12px;
  label {
    color: ${(p) => p.theme.color.muted};
  }
  output {
    text-align: right;
    font-weight: 600;
  }
  input {
    grid-column: 1 / -1;
    width: 100%;
    margin: 4px 0 0;
    accent-color: ${(p) => p.theme.color.accent};
  }
`

/** The chosen day's figures: what is received across the top, its parts two by two below. */
const Figures = styled.dl`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 8px 16px;
  margin: 0;
  padding: 12px 14px;
  border-radius: 10px;
  background: ${(p) => p.theme.color.raised};
  ${nameOverFigure}
  dd {
    margin: 0;
  }
  .received {
    grid-column: 1 / -1;
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    align-items: baseline;
    gap: 0 12px;
    padding-bottom: 8px;
    border-bottom: 1px solid ${(p) => p.theme.color.border};
    dt {
      color: ${(p) => p.theme.color.text};
      font-size: 1rem;
    }
    dd {
      font-size: 1.15rem;
    }
  }
`

const Small = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${(p) => p.theme.color.muted};
  strong {
    color: ${(p) => p.theme.color.text};
  }
`

/** The break-even date, which picks that day: a link's look inside the sentence. */
const DayLink = styled.button`
  padding: 0;
  border: 0;
  background: none;
  color: ${(p) => p.theme.color.accent};
  font: inherit;
  font-weight: 600;
  text-decoration: underline;
  cursor: pointer;
`

/** 'Today', 'Day 12' or 'Release', and the date: what the picker and the figures say of a day. */
function dayName(d: CurveDay, last: number): string {
  const name = d.day === 0 ? 'Today' : d.day === last ? 'Release' : `Day ${d.day}`
  return `${name}, ${formatDate(d.time)}`
}

/**
 * What a close pays, day by day (docs/product.md §2.5, §2.6): the chart, a day picker (a slider: arrow keys move a
 * day, Home today, End the release; hovering the chart picks a day too), the chosen day's exact figures, the
 * break-even day and what the curve assumes (`assumes`). The figures are the curve's own, so the picture never
 * decides what a person reads.
 */
export function CloseCurvePanel(props: {
  curve: CloseCurveView
  symbol: string
  assumes: ReactNode
  /** The day chosen (0: today), kept by the dialog: it stays while a term is retyped and the curve is gone a moment. */
  picked: number
  onPick: (day: number) => void
}) {
  const { curve, symbol, assumes, picked, onPick: setPicked } = props
  const id = useId()
  const colors = curveColors(useTheme())
  const last = curve.days.length - 1
  // The curve may get shorter than the day chosen (a shorter term typed in the deposit dialog): the release then.
  const chosen = curve.days[Math.min(picked, last)]
  const even = curve.breakEven === null ? null : curve.days[curve.breakEven]
  // The picture (a few ms in a browser, far more in the tests' jsdom) follows a curve that changes with every key typed
  // once the typing pauses; the figures follow every key.
  const drawn = useSettled(curve, CHART_SETTLE_MS)
  const drawnLast = drawn.days[drawn.days.length - 1].day
  const drawnEven = drawn.breakEven === null ? null : drawn.days[drawn.breakEven]
  const at = Math.min(chosen.day, drawnLast) / drawnLast
  const amount = (wei: string) => formatAmount(wei, { symbol })
  const tokens = (wei: string) => Number(BigInt(wei) / 10n ** 12n) / 1e6
  // Each figure carries its base units (data-wei): the browser test holds them to the chain's to the wei.
  const figure = (label: string, key: 'received' | 'fee' | 'rewardEarned' | 'gains' | 'bonus') => (
    <div className={key === 'received' ? 'received' : undefined}>
      <dt>{label}</dt>
      <dd data-testid={`curve-${key}`} data-wei={chosen[key]}>
        {amount(chosen[key])}
      </dd>
    </div>
  )
  return (
    <Panel aria-labelledby={`${id}-title`} data-testid="close-curve">
      <h3 id={`${id}-title`}>What a close pays, day by day</h3>
      <ChartBox aria-hidden="true">
        <LoadFailure>
          <Suspense fallback={null}>
            <CloseCurveChart
              data={drawn.chart}
              principal={tokens(drawn.principal)}
              breakEvenDay={drawnEven?.day ?? null}
              lastDay={drawnLast}
              hasReward={drawn.hasReward}
              hasGains={drawn.hasGains}
              hasBonus={drawn.hasBonus}
              onChoose={setPicked}
            />
          </Suspense>
        </LoadFailure>
        <Marker style={{ left: `calc(${G.left}px + (100% - ${G.left + G.right}px) * ${at})` }} />
      </ChartBox>
      <Legend aria-hidden="true">
        <li>
          <Swatch $color={colors.received} />
          received
        </li>
        <li>
          <Swatch $color={colors.fee} />
          fee
        </li>
        {curve.hasReward && (
          <li>
            <Swatch $color={colors.reward} />
            reward earned
          </li>
        )}
        {curve.hasGains && (
          <li>
            <Swatch $color={colors.gains} />
            strong hands
          </li>
        )}
        {curve.hasBonus && (
          <li>
            <Swatch $color={colors.bonus} />
            bonus
          </li>
        )}
        <li>
          <Swatch $color={colors.principal} $dashed />
          amount staked
        </li>
      </Legend>
      <Picker>
        <label htmlFor={`${id}-day`}>Close on</label>
        <output htmlFor={`${id}-day`} data-testid="curve-day">
          {dayName(chosen, last)}
        </output>
        <input
          id={`${id}-day`}
          type="range"
          min={0}
          max={last}
          step={1}
          value={chosen.day}
          aria-valuetext={dayName(chosen, last)}
          onChange={(e) => setPicked(Number(e.target.value))}
        />
      </Picker>
      <Figures aria-label="If closed on the chosen day">
        {figure('Received', 'received')}
        {figure('Fee', 'fee')}
        {curve.hasReward && figure('Reward earned', 'rewardEarned')}
        {curve.hasGains && figure('From strong hands', 'gains')}
        {curve.hasBonus && figure('Bonus', 'bonus')}
      </Figures>
      <Small data-testid="curve-break-even">
        {even === null ? (
          <>No day before the release pays back the {amount(curve.principal)} staked.</>
        ) : (
          <>
            Break-even:{' '}
            <DayLink type="button" onClick={() => setPicked(even.day)}>
              {even.day === 0 ? 'today' : dayName(even, last)}
            </DayLink>
            , the first day a close pays back at least the {amount(curve.principal)} staked.
          </>
        )}
      </Small>
      <Small>{assumes}</Small>
    </Panel>
  )
}
