import { theme } from '../../../ui/theme'
import type { StepState } from '../timeline'

/**
 * The timeline's three bands, one colour each in the chart, its legend and the table: what was claimed (muted, done
 * with), what can be claimed now (the accent: the thing to act on) and what is still locked (dim). They differ in
 * lightness as well as hue, for those who tell green from grey poorly.
 */
export const BAND = {
  claimed: theme.color.muted,
  claimable: theme.color.accent,
  locked: '#5b6f64',
} as const

export type Band = keyof typeof BAND

/** The band a step's standing is drawn in: a partly claimed step is still partly claimable. */
export const STEP_BAND: Record<StepState, Band> = {
  claimed: 'claimed',
  partlyClaimed: 'claimable',
  claimable: 'claimable',
  locked: 'locked',
}
