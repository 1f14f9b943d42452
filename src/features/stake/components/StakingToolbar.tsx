import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../app/hooks'
import { Button } from '../../../ui/Button'
import { TokenContractLink } from '../../token/components/TokenContractLink'
import { watchAssetRequested } from '../../token/slice'
import { modalRequested } from '../../wallet/slice'
import { selectPoolView } from '../selectors'
import { DEPOSIT_MODAL } from '../slice'

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  p {
    margin: 0;
  }
  /* On a narrow screen the badge and Deposit always take a line of their own: the APR badge arriving with the pool
     read would otherwise wrap them onto a new line and push the whole page down (layout shift). */
  @media (max-width: ${(p) => p.theme.narrow}) {
    > :last-child {
      flex-basis: 100%;
    }
  }
`

const Side = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 10px;
`

const AprBadge = styled.span`
  padding: 4px 12px;
  border-radius: 999px;
  font-weight: 700;
  font-size: 0.9rem;
  color: ${(p) => p.theme.color.accentText};
  background: ${(p) => p.theme.color.accent};
`

/** Token link, add-to-wallet, the APR badge (version 1 with inflation only) and the Deposit button. */
export function StakingToolbar() {
  const dispatch = useAppDispatch()
  const { apr, paused } = useAppSelector(selectPoolView)
  const canWatch = useAppSelector((s) => s.wallet.wallet.name !== 'dev' && s.token.symbol !== '')
  return (
    <Bar>
      <Side>
        <TokenContractLink />
        {canWatch && (
          <Button $variant="text" onClick={() => dispatch(watchAssetRequested())}>
            Add token to wallet
          </Button>
        )}
      </Side>
      <Side>
        {apr && <AprBadge data-testid="apr-badge">APR {apr}</AprBadge>}
        <Button disabled={paused} onClick={() => dispatch(modalRequested({ name: DEPOSIT_MODAL, needsWallet: true }))}>
          Deposit
        </Button>
      </Side>
    </Bar>
  )
}
