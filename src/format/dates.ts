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
