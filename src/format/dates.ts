// Written from the date's UTC fields, not with Intl: the page's first Intl formatter loads the browser's locale tables,
// 16-30 ms here and four times that on a phone, in the task that shows the first figures. The texts are en-GB's, as
// Intl writes them (src/format/dates.test.ts holds the two equal over random dates), September's "Sept" included.
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec']
const two = (n: number) => String(n).padStart(2, '0')

/** A date for people, e.g. "Tue, 22 Dec 2026" (UTC, so every viewer sees the same day as the chain). */
export function formatDate(value: string | number): string {
  const d = new Date(typeof value === 'number' ? value * 1000 : Date.parse(value))
  return `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`
}

/** A moment for people, e.g. "26 Nov 2026 14:00 UTC" (unix seconds; UTC, as the chain keeps time). */
export function formatDateTime(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`
}

/** A month for an axis, e.g. "Dec 2026" (unix seconds; UTC, as formatDate). */
export function formatMonth(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`
}

/** A day for a chart's axis, e.g. "7 Dec" (unix seconds; UTC, as formatDate). */
export function formatDayMonth(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`
}
