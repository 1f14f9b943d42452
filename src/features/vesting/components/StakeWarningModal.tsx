import styled from 'styled-components'
import { useAppDispatch } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Modal } from '../../../ui/Modal'
import { modalClosed, modalOpened } from '../../wallet/slice'

const Points = styled.ul`
  margin: 0 0 24px;
  padding-left: 20px;
  display: grid;
  gap: 10px;
  li::marker {
    color: ${(p) => p.theme.color.warning};
  }
`

/** The first step of claim and stake (docs/product.md §2.7): what the user gives up before choosing a term. */
export function StakeWarningModal() {
  const dispatch = useAppDispatch()
  return (
    <Modal title="Before you stake" onClose={() => dispatch(modalClosed())}>
      <Points>
        <li>Staking is in alpha: withdrawing before the end of the term costs 100% penalties.</li>
        <li>Once you approve it in your wallet, the stake cannot be cancelled.</li>
      </Points>
      <Button $block onClick={() => dispatch(modalOpened('claimTerms'))}>
        I want to stake
      </Button>
    </Modal>
  )
}
