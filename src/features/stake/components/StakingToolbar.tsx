import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { SpreadRow } from '../../../ui/SpreadRow'
import { TokenContractLink } from '../../token/components/TokenContractLink'
import { selectCanWatchAsset } from '../../token/selectors'
import { watchAssetRequested } from '../../token/slice'
import { modalOpened } from '../../wallet/slice'
import { selectActBlock } from '../../wallet/selectors'
import { selectPoolView } from '../selectors'

const Bar = styled(SpreadRow)`
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
  const canWatch = useAppSelector(selectCanWatchAsset)
  const blocked = useAppSelector(selectActBlock)
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
        <Button disabled={paused || !!blocked} title={blocked ?? undefined} onClick={() => dispatch(modalOpened('deposit'))}>
          Deposit
        </Button>
      </Side>
    </Bar>
  )
}
