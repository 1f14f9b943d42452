import { RadioCards as Choice } from '../../../ui/RadioCards'
import type { selectApproval } from '../selectors'

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
