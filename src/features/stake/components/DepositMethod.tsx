import { RadioCards } from '../../../ui/RadioCards'

export type DepositMethodName = 'permit' | 'approve'

/**
 * How the tokens reach the pool (docs/product.md §4.6): one signature and one transaction with nothing left behind
 * (an EIP-2612 permit, the default where the wallet can sign one), or an approval and then the stake.
 */
export function DepositMethod(props: {
  method: DepositMethodName
  disabled: boolean
  onChange: (method: DepositMethodName) => void
}) {
  return (
    <RadioCards disabled={props.disabled} data-testid="deposit-method">
      <legend>How to deposit:</legend>
      <label>
        <input type="radio" name="deposit-method" checked={props.method === 'permit'} onChange={() => props.onChange('permit')} />
        <span>Sign and stake</span>
        <small>Sign a permit for this amount (free), then one transaction; no allowance is left behind</small>
      </label>
      <label>
        <input
          type="radio"
          name="deposit-method"
          checked={props.method === 'approve'}
          onChange={() => props.onChange('approve')}
        />
        <span>Approve, then stake</span>
        <small>Two transactions: an approval for the pool, then the stake</small>
      </label>
    </RadioCards>
  )
}
