import { useEffect } from 'react'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../kit/hooks'
import { AccountViewBanner } from '../features/wallet/components/AccountViewBanner'
import { HolderGate } from '../features/wallet/components/HolderGate'
import { selectReadsReady } from '../features/wallet/selectors'
import { ActivitySection } from '../features/token/components/ActivitySection'
import { TokenContractLink } from '../features/token/components/TokenContractLink'
import { ClaimActions } from '../features/vesting/components/ClaimActions'
import { ClaimOrStake } from '../features/vesting/components/ClaimOrStake'
import { VestingFigures } from '../features/vesting/components/VestingFigures'
import { VestingOutage } from '../features/vesting/components/VestingOutage'
import { UnlockTimeline } from '../features/vesting/components/UnlockTimeline'
import { VestingSchedules } from '../features/vesting/components/VestingSchedules'
import { claimPageClosed, claimPageOpened } from '../features/vesting/slice'
import { selectClaimView } from '../features/vesting/selectors'
import { PageTitle } from '../ui/Card'
import { useStages } from '../ui/useStages'

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

/**
 * The holder's part of the grid. Until the holder's first answer has rendered whole it stays a viewport high, as the
 * box that waited for the wallet was: the answered figures are taller than their placeholders, and would otherwise
 * push the schedules below them down in front of the person (a layout shift; Lighthouse measured 0.35 on a phone).
 */
const HolderPart = styled.div<{ $settling: boolean }>`
  grid-column: 1 / -1;
  display: grid;
  grid-template-columns: inherit;
  gap: inherit;
  align-content: start;
  min-height: ${(p) => (p.$settling ? '100vh' : '0')};
`

/**
 * 'Claim your allocation' (docs/product.md §2.7): vesting figures, the two ways to claim, the unlock timeline, the
 * holder's activity (§2.9), the schedules. Without an address to show, the schedules and the token link alone, the connect prompt where the figures
 * go (§2.8).
 */
export function ClaimPage() {
  const dispatch = useAppDispatch()
  // The reads are asked for once their sagas run (a first visit shows the page while their chunk arrives).
  const readsReady = useAppSelector(selectReadsReady)
  const answered = !useAppSelector(selectClaimView).loading
  // The first answer renders in four tasks: the figures and the claim, then the comparison, the timeline and the
  // activity a task apart (in one, the three were a task of 50-60 ms on this machine, their components' first styles
  // included); the part keeps its viewport-high box until the last, so nothing below it moves in between.
  const stages = useStages(answered, 3)
  useEffect(() => {
    if (!readsReady) return
    // Shown, the page reads its figures unless they were just read (a returning wallet's load read them already).
    dispatch(claimPageOpened())
    return () => {
      dispatch(claimPageClosed())
    }
  }, [dispatch, readsReady])
  return (
    <>
      <AccountViewBanner />
      <PageTitle>Claim your allocation</PageTitle>
      <TokenContractLink />
      <VestingOutage />
      <Grid>
        <HolderGate>
          <HolderPart $settling={stages < 3} data-testid="holder-part">
            <VestingFigures />
            <ClaimActions />
            {stages >= 1 && <ClaimOrStake />}
            {stages >= 2 && (
              <Wide>
                <UnlockTimeline />
              </Wide>
            )}
            {stages >= 3 && (
              <Wide>
                <ActivitySection />
              </Wide>
            )}
          </HolderPart>
        </HolderGate>
        <Wide>
          <VestingSchedules />
        </Wide>
      </Grid>
    </>
  )
}
