/**
 * "Add to calendar" files (docs/product.md §2.4, §2.7): one event, made in the browser on a click and saved as an .ics
 * file; nothing goes to a server. The `ics` package (and the yup it validates with) loads on the first click, in a
 * chunk of its own, so no page carries it before someone asks for a file (docs/architecture.md §10).
 */

/** One moment worth a reminder: an unlock, a stake's release. */
export interface CalendarEvent {
  /** The event's summary, naming the amount and the token: "Unlock of 4,800.00 PLT". */
  title: string
  /** unix seconds; written in UTC, so every calendar shows it at the chain's moment in its own time zone */
  start: number
  /** The file's name, without ".ics". */
  fileName: string
}

/**
 * The iCalendar text of `event`: one VEVENT starting at `start` in UTC, 30 minutes long (a calendar needs an end; a
 * moment alone shows as nothing in most of them).
 */
export async function icsText(event: CalendarEvent): Promise<string> {
  const { createEvent } = await import(/* webpackChunkName: "ics" */ 'ics')
  const { error, value } = createEvent({
    title: event.title,
    start: event.start * 1000,
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { minutes: 30 },
    productId: 'plt-claim-and-staking',
  })
  if (error || !value) throw error ?? new Error('ics made no file')
  return value
}

/** Saves `event` as `<fileName>.ics` through a download link to a Blob, as the stake list's CSV is saved. */
export async function downloadIcs(event: CalendarEvent): Promise<void> {
  const text = await icsText(event)
  const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar;charset=utf-8' }))
  const a = Object.assign(document.createElement('a'), { href: url, download: `${event.fileName}.ics` })
  a.click()
  URL.revokeObjectURL(url)
}
