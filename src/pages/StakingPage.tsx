import { useEffect } from 'react'
import { useParams } from 'react-router-dom'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../kit/hooks'
import { AccountViewBanner } from '../features/wallet/components/AccountViewBanner'
import { HolderGate } from '../features/wallet/components/HolderGate'
import { selectReadsReady } from '../features/wallet/selectors'
import { ActivitySection } from '../features/token/components/ActivitySection'
import { PoolOverview } from '../features/stake/components/PoolOverview'
import { StakeList } from '../features/stake/components/StakeList'
import { AlphaDisclaimer, SubscriptionBanner } from '../features/stake/components/StakingBanners'
import { PoolStatistics } from '../features/stake/components/PoolStatistics'
import { StakingOutage } from '../features/stake/components/StakingOutage'
import { StakingToolbar } from '../features/stake/components/StakingToolbar'
import { poolSelected, stakingPageClosed, stakingPageOpened } from '../features/stake/slice'
import { PageTitle } from '../ui/Card'

const Stack = styled.div`
  display: grid;
  gap: 20px;
`

/** Reads the route's pool id: a whole number, else the network's default pool. */
export function parsePoolId(raw: string | undefined): number | null {
  return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : null
}

/**
 * 'Staking & Subscription' (docs/product.md §2.3): the pool's figures for anyone; the stake list for the wallet or
 * the `?account=` address, else the connect prompt in its place (§2.8).
 */
export function StakingPage() {
  const dispatch = useAppDispatch()
  const { id } = useParams()
  useEffect(() => {
    dispatch(poolSelected(parsePoolId(id)))
  }, [dispatch, id])
  // The reads are asked for once their sagas run (a first visit shows the page while their chunk arrives).
  const readsReady = useAppSelector(selectReadsReady)
  useEffect(() => {
    if (!readsReady) return
    dispatch(stakingPageOpened())
    return () => {
      dispatch(stakingPageClosed())
    }
  }, [dispatch, readsReady])
  return (
    <Stack>
      <AccountViewBanner />
      <div>
        <PageTitle>Staking &amp; Subscription</PageTitle>
        <StakingToolbar />
      </div>
      <StakingOutage />
      <AlphaDisclaimer />
      <SubscriptionBanner />
      <PoolOverview />
      <HolderGate>
        <StakeList />
      </HolderGate>
      <ActivitySection />
      <PoolStatistics />
    </Stack>
  )
}
