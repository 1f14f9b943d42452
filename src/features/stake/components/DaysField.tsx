import type { FocusEventHandler } from 'react'
import { TextField } from '../../../ui/TextField'
import { acceptDaysText, daysRangeText } from '../days'

/**
 * The "Days" field of the deposit and restake dialogs (docs/product.md §4.2): digits only, at most four, the allowed
 * range as its hint ("From 1 to 1095") and `error` in its place once the dialog shows it. `onChange` gets the text to
 * keep; a key that would make anything else is refused.
 */
export function DaysField(props: {
  id: string
  value: string
  limits: { min: number; max: number }
  error: string | null
  onChange: (text: string) => void
  onBlur?: FocusEventHandler<HTMLInputElement>
}) {
  const { id, value, limits, error, onChange, onBlur } = props
  return (
    <TextField
      id={id}
      label="Days"
      name="days"
      inputMode="numeric"
      autoComplete="off"
      value={value}
      error={error}
      onChange={(e) => {
        const next = acceptDaysText(e.target.value)
        if (next !== null) onChange(next)
      }}
      onBlur={onBlur}
      hint={daysRangeText(limits)}
    />
  )
}
