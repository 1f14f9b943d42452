import { useState } from 'react'
import styled from 'styled-components'
import { log } from '../platform/log'
import { Button } from '../ui/Button'
import { ErrorText } from '../ui/ErrorText'
import { downloadIcs, type CalendarEvent } from './calendar'

const Failure = styled(ErrorText)`
  font-size: 0.85rem;
`

/**
 * "Add to calendar": saves `event` as an .ics file on a click (src/kit/calendar.ts). `label` is its accessible name,
 * which says which moment (a page may hold several). If the file cannot be made (the chunk does not load, offline),
 * it says so under the link.
 */
export function AddToCalendar({ event, label }: { event: CalendarEvent; label: string }) {
  const [failed, setFailed] = useState(false)
  const save = () => {
    setFailed(false)
    downloadIcs(event).catch((err: unknown) => {
      log.error('kit/calendar', 'calendar file not made', err)
      setFailed(true)
    })
  }
  return (
    <>
      <Button $variant="text" type="button" aria-label={label} onClick={save}>
        Add to calendar
      </Button>
      {failed && <Failure>The calendar file could not be made. Check the connection and try again.</Failure>}
    </>
  )
}
