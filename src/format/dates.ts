// Made on first use: the first Intl formatter of a page is costly (tens of ms on a phone), and the first view shows
// no date.
let DATE: Intl.DateTimeFormat | null = null

/** A date for people, e.g. "Tue, 22 Dec 2026" (UTC, so every viewer sees the same day as the chain). */
export function formatDate(value: string | number): string {
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value)
  DATE ??= new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
  return DATE.format(new Date(ms))
}

let DATE_TIME: Intl.DateTimeFormat | null = null

/** A moment for people, e.g. "26 Nov 2026 14:00 UTC" (unix seconds; UTC, as the chain keeps time). */
export function formatDateTime(seconds: number): string {
  DATE_TIME ??= new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  })
  const part = Object.fromEntries(DATE_TIME.formatToParts(new Date(seconds * 1000)).map((p) => [p.type, p.value]))
  return `${part.day} ${part.month} ${part.year} ${part.hour}:${part.minute} UTC`
}

let MONTH: Intl.DateTimeFormat | null = null

/** A month for an axis, e.g. "Dec 2026" (unix seconds; UTC, as formatDate). */
export function formatMonth(seconds: number): string {
  MONTH ??= new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' })
  return MONTH.format(new Date(seconds * 1000))
}

let DAY_MONTH: Intl.DateTimeFormat | null = null

/** A day for a chart's axis, e.g. "7 Dec" (unix seconds; UTC, as formatDate). */
export function formatDayMonth(seconds: number): string {
  DAY_MONTH ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })
  return DAY_MONTH.format(new Date(seconds * 1000))
}
