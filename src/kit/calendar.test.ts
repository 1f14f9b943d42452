import { icsText } from './calendar'

// 7 Dec 2026 10:00:00 UTC
const AT = 1_796_637_600

/** The unfolded lines of an .ics file (RFC 5545 folds long lines with CRLF and a space). */
const lines = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n')

describe('icsText', () => {
  it('makes one event at the moment in UTC, named by its title', async () => {
    const text = await icsText({ title: 'Unlock of 4,800.00 PLT', start: AT, fileName: 'unlock' })
    const l = lines(text)
    expect(l[0]).toBe('BEGIN:VCALENDAR')
    expect(l.filter((x) => x === 'BEGIN:VEVENT')).toHaveLength(1)
    expect(l).toContain('DTSTART:20261207T100000Z')
    expect(l).toContain('DURATION:PT30M')
    // Commas are escaped in iCalendar text.
    expect(l).toContain('SUMMARY:Unlock of 4\\,800.00 PLT')
    expect(l).toContain('PRODID:plt-claim-and-staking')
  })
})
