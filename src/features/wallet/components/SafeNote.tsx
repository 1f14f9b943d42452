import styled from 'styled-components'
import type { SafeAccount } from '../../../chain/safe'
import { useAppSelector } from '../../../kit/hooks'
import { selectSafe } from '../selectors'

/** What a send from a Safe means (docs/product.md §11.4): the person proposes, the other owners must confirm. */
export function ownersMustConfirm(safe: SafeAccount): string {
  const others = safe.threshold - 1
  if (others <= 0) return 'This Safe needs one confirmation: confirm and execute it in your Safe.'
  return (
    `This Safe needs ${safe.threshold} of its ${safe.owners} owners to confirm. You propose it here; ` +
    `${others === 1 ? 'another owner' : `${others} other owners`} must confirm it in the Safe before it runs.`
  )
}

const Note = styled.p`
  margin: 0;
  padding: 10px 12px;
  border-radius: 8px;
  border: 1px solid ${(p) => p.theme.color.border};
  background: ${(p) => p.theme.color.raised};
  color: ${(p) => p.theme.color.text};
  font-size: 0.9rem;
`

/** The Safe's note in a dialog that sends, with what this send does in it (`extra`); nothing for a wallet with a key. */
export function SafeNote({ extra }: { extra?: string }) {
  const safe = useAppSelector(selectSafe)
  if (!safe) return null
  return (
    <Note data-testid="safe-note">
      {extra ? `${extra} ` : ''}
      {ownersMustConfirm(safe)}
    </Note>
  )
}
