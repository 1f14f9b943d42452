import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { OutageBanner } from '../../../ui/OutageBanner'
import { selectStakeOutage } from '../selectors'
import { stakeRefreshRequested } from '../slice'

/** The staking page's reads failed: what is shown and how old it is, paused updates, and a Retry (issue #14). */
export function StakingOutage() {
  const dispatch = useAppDispatch()
  const outage = useAppSelector(selectStakeOutage)
  if (!outage) return null
  return <OutageBanner {...outage} onRetry={() => dispatch(stakeRefreshRequested())} testId="staking-outage" />
}
