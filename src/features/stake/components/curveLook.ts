import type { AppTheme } from '../../../ui/theme'

/**
 * The close curve's colours, one per line, for the chart and its legend alike (this file is not in the chart's lazy
 * chunk, so the legend draws without loading it). The reward's blue and the shared fees' violet read above 7:1 on the surface.
 */
export const curveColors = (t: AppTheme) => ({
  received: t.color.accent,
  fee: t.color.danger,
  reward: '#7cc4ff',
  gains: '#c9a7ff',
  bonus: t.color.bsc,
  principal: t.color.muted,
  chosen: t.color.text,
})

/**
 * Where the chart's plot area sits in its box (px): the y axis on the left, the x axis below. The chart lays itself
 * out with these, and the panel draws the chosen day's marker over it with the same figures (the x axis runs from
 * day 0 to the release, linearly).
 */
export const CHART_GEOMETRY = { top: 14, right: 12, bottom: 30, left: 48 }

/** Steps of the day axis's ticks (a day, a week, a fortnight, months, a year): the first that needs at most 6 ticks. */
const TICK_STEPS = [1, 7, 14, 30, 60, 90, 180, 365]

/** The day axis's ticks: today, whole steps, and the release (a step too close to it is left out). */
export function dayTicks(lastDay: number): number[] {
  const step = TICK_STEPS.find((s) => lastDay / s <= 6) ?? Math.ceil(lastDay / 6)
  const ticks: number[] = []
  for (let d = 0; d < lastDay - step / 2; d += step) ticks.push(d)
  return [...ticks, lastDay]
}
