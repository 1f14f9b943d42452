/**
 * A stake's term in days as the dialogs take it (docs/product.md §4.2): what may be typed, the allowed range and its
 * message. The deposit dialog's form (depositForm.ts) and the restake dialog share them, so both accept and refuse
 * the same days with the same words. No formik or yup here: the restake dialog has no form library.
 */

/** The term a dialog starts with (docs/product.md §3.7: a deposit dialog opens at 365 days). */
export const DEFAULT_DAYS = '365'

const DAYS_TYPING = /^\d{0,4}$/

/** The text to keep for what was typed in the days field (spaces dropped), or null to refuse the key. */
export function acceptDaysText(typed: string): string | null {
  const t = typed.replace(/\s+/g, '')
  return DAYS_TYPING.test(t) ? t : null
}

/** The days field's hint, and its message when the days are outside it: "From 1 to 1095". */
export const daysRangeText = (limits: { min: number; max: number }) => `From ${limits.min} to ${limits.max}`

/** Whether `text` is a whole number of days within `limits`. */
export const daysInRange = (text: string, limits: { min: number; max: number }) =>
  /^\d+$/.test(text) && Number(text) >= limits.min && Number(text) <= limits.max

/** The days typed as a number (0 while the text is not a whole number). */
export const daysOf = (text: string) => (/^\d+$/.test(text) ? Number(text) : 0)
