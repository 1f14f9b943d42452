import styled from 'styled-components'
import type { selectApproval } from '../selectors'

/** Before Approve: how much the pool may spend now, what this deposit needs, and how much to approve. */
const Choice = styled.fieldset`
  border: 0;
  margin: 0 0 16px;
  padding: 0;
  display: grid;
  gap: 8px;
  legend {
    padding: 0;
    margin-bottom: 8px;
    font-size: 0.9rem;
    color: ${(p) => p.theme.color.muted};
  }
  label {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 2px 10px;
    align-items: center;
    padding: 10px 12px;
    border-radius: 10px;
    background: ${(p) => p.theme.color.raised};
    border: 1px solid ${(p) => p.theme.color.border};
    cursor: pointer;
    font-size: 0.95rem;
  }
  label:has(input:checked) {
    border-color: ${(p) => p.theme.color.accent};
  }
  label:has(input:disabled) {
    cursor: default;
    opacity: 0.6;
  }
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${(p) => p.theme.color.accent};
  }
  small {
    grid-column: 2;
    color: ${(p) => p.theme.color.muted};
    font-size: 0.8rem;
  }
`

/**
 * Before Approve (docs/product.md §3.3): how much the pool may spend now, what this deposit needs, and how much to
 * approve: exactly this deposit, or the spec's standing 1e28.
 */
export function ApproveAmount(props: {
  approval: ReturnType<typeof selectApproval>
  symbol: string
  disabled: boolean
  exact: boolean
  onExact: (exact: boolean) => void
}) {
  const { approval, symbol } = props
  return (
    <Choice disabled={props.disabled} data-testid="approve-choice">
      <legend>
        {approval.short
          ? `The pool may spend ${approval.allowanceText} of yours; this deposit needs ${approval.exact?.text}. Approve:`
          : `First allow the pool to spend your ${symbol || 'tokens'}. Approve:`}
      </legend>
      <label>
        <input
          type="radio"
          name="approve-amount"
          checked={props.exact && approval.exact !== null}
          disabled={approval.exact === null}
          onChange={() => props.onExact(true)}
        />
        <span>Exactly {approval.exact?.text ?? 'the amount'}</span>
        <small>Only this deposit; the next one asks again</small>
      </label>
      <label>
        <input
          type="radio"
          name="approve-amount"
          checked={!props.exact || approval.exact === null}
          onChange={() => props.onExact(false)}
        />
        <span>Unlimited</span>
        <small>{approval.unlimited.text}, so later deposits need no approval</small>
      </label>
    </Choice>
  )
}
