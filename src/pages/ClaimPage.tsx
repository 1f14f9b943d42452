import { useEffect } from 'react'
import styled from 'styled-components'
import { useAppDispatch } from '../kit/hooks'
import { TokenContractLink } from '../features/token/components/TokenContractLink'
import { ClaimActions } from '../features/vesting/components/ClaimActions'
import { VestingFigures } from '../features/vesting/components/VestingFigures'
import { VestingOutage } from '../features/vesting/components/VestingOutage'
import { UnlockTimeline } from '../features/vesting/components/UnlockTimeline'
import { VestingSchedules } from '../features/vesting/components/VestingSchedules'
import { claimPageClosed, claimPageOpened, vestingRefreshRequested } from '../features/vesting/slice'
import { PageTitle } from '../ui/Card'

const Grid = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
  gap: 20px;
  @media (max-width: ${(p) => p.theme.narrow}) {
    grid-template-columns: minmax(0, 1fr);
  }
`

const Wide = styled.div`
  grid-column: 1 / -1;
`

/** 'Claim your allocation' (docs/product.md §2.7): vesting figures, the two ways to claim, the unlock timeline, schedules. */
export function ClaimPage() {
  const dispatch = useAppDispatch()
  useEffect(() => {
    dispatch(claimPageOpened())
    dispatch(vestingRefreshRequested())
    return () => {
      dispatch(claimPageClosed())
    }
  }, [dispatch])
  return (
    <>
      <PageTitle>Claim your allocation</PageTitle>
      <TokenContractLink />
      <VestingOutage />
      <Grid>
        <VestingFigures />
        <ClaimActions />
        <Wide>
          <UnlockTimeline />
        </Wide>
        <Wide>
          <VestingSchedules />
        </Wide>
      </Grid>
    </>
  )
}
