import type { InputHTMLAttributes, ReactNode } from 'react'
import styled from 'styled-components'
import { ErrorText } from './ErrorText'

const Field = styled.div`
  margin-bottom: 16px;
  label {
    display: block;
    font-size: 0.9rem;
    color: ${(p) => p.theme.color.muted};
    margin-bottom: 6px;
  }
  input,
  select {
    width: 100%;
    min-height: 44px;
    padding: 0 12px;
    border-radius: 10px;
    border: 1px solid ${(p) => p.theme.color.border};
    background: ${(p) => p.theme.color.raised};
    color: ${(p) => p.theme.color.text};
  }
  input:disabled {
    color: ${(p) => p.theme.color.muted};
  }
  input[aria-invalid='true'] {
    border-color: ${(p) => p.theme.color.danger};
  }
`

const Inline = styled.div`
  display: flex;
  gap: 8px;
  > :first-child {
    flex: 1;
    min-width: 0;
  }
  select {
    width: auto;
  }
`

const Hint = styled.small`
  display: block;
  margin-top: 4px;
  color: ${(p) => p.theme.color.muted};
`

const FieldError = styled(ErrorText)`
  display: block;
  margin-top: 4px;
  font-size: smaller;
`

type Props = InputHTMLAttributes<HTMLInputElement> & {
  id: string
  label: ReactNode
  /** Under the input while there is no error: the balance, the allowed range. */
  hint?: ReactNode
  /**
   * The validation message to show, or null while there is none; it takes the hint's place, marks the input invalid
   * and is announced. Leave it out for a field that is not validated.
   */
  error?: string | null
  /** Beside the input, on the same line: a MAX button, a select. */
  beside?: ReactNode
}

/**
 * A labelled text input with, under it, its hint or its validation message (`{id}-help`, which describes the input).
 * Every other prop goes to the input.
 */
export function TextField({ id, label, hint, error, beside, ...input }: Props) {
  const helpId = `${id}-help`
  const validated = error !== undefined
  const described = validated || hint !== undefined
  const field = (
    <input
      id={id}
      aria-invalid={validated ? Boolean(error) : undefined}
      aria-describedby={described ? helpId : undefined}
      {...input}
    />
  )
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      {beside ? (
        <Inline>
          {field}
          {beside}
        </Inline>
      ) : (
        field
      )}
      {error ? (
        <FieldError as="small" id={helpId}>
          {error}
        </FieldError>
      ) : (
        described && <Hint id={helpId}>{hint}</Hint>
      )}
    </Field>
  )
}
