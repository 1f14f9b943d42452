/**
 * @jest-environment-options {"customExportConditions": ["node", "require"]}
 */
// ics imports nanoid, whose browser build is an ES module Jest cannot require: this file resolves packages as Node
// does (the browser build is webpack's business, and the browser test saves real files with it).
import { screen, waitFor } from '@testing-library/react'
import { renderWithProviders } from '../../test/support/render'
import { AddToCalendar } from './AddToCalendar'

// 7 Dec 2026 10:00:00 UTC
const EVENT = { title: 'Unlock of 4,800.00 PLT', start: 1_796_637_600, fileName: 'unlock-2026-12-07' }
const LABEL = 'Add to calendar: unlock of 4,800.00 PLT on Mon, 7 Dec 2026'

// jsdom has no object URLs: the test stands in for the browser's and keeps what the link was given.
const blobs: Blob[] = []
const saved: { href: string; download: string }[] = []
let failUrls = false

/** A Blob's text (jsdom's Blob has no text()). */
const readText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as string)
    reader.readAsText(blob)
  })
beforeAll(() => {
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      if (failUrls) throw new Error('no object URLs here')
      blobs.push(blob)
      return `blob:test/${blobs.length}`
    },
    revokeObjectURL: () => undefined,
  })
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download })
  })
})
afterAll(() => jest.restoreAllMocks())

it('saves the event as an .ics file through a download link, made in the browser', async () => {
  const { user } = renderWithProviders(<AddToCalendar event={EVENT} label={LABEL} />)
  await user.click(screen.getByRole('button', { name: LABEL }))
  await waitFor(() => expect(saved).toEqual([{ href: 'blob:test/1', download: 'unlock-2026-12-07.ics' }]))
  expect(blobs[0].type).toBe('text/calendar;charset=utf-8')
  const text = await readText(blobs[0])
  expect(text).toContain('\r\nDTSTART:20261207T100000Z\r\n')
  expect(text).toContain('\r\nSUMMARY:Unlock of 4\\,800.00 PLT\r\n')
  expect(screen.queryByRole('alert')).toBeNull()
})

it('says so under the link when the file cannot be made, and logs why', async () => {
  const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined)
  failUrls = true
  const { user } = renderWithProviders(<AddToCalendar event={EVENT} label={LABEL} />)
  await user.click(screen.getByRole('button', { name: LABEL }))
  expect((await screen.findByRole('alert')).textContent).toBe(
    'The calendar file could not be made. Check the connection and try again.',
  )
  expect(logged).toHaveBeenCalledWith('[kit/calendar] calendar file not made', expect.any(Error))
  // A second try that works takes the message away.
  failUrls = false
  await user.click(screen.getByRole('button', { name: LABEL }))
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
  logged.mockRestore()
})
