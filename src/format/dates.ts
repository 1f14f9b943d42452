const DATE = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
})

/** A date for people, e.g. "Tue, 22 Dec 2026" (UTC, so every viewer sees the same day as the chain). */
export function formatDate(value: string | number): string {
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value)
  return DATE.format(new Date(ms))
}
