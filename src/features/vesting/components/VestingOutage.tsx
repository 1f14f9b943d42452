import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { OutageBanner } from '../../../ui/OutageBanner'
import { selectVestingOutage } from '../selectors'
import { vestingRefreshRequested } from '../slice'

const Gap = styled.div`
  margin: 16px 0 20px;
`

/** The claim page's reads failed: what is shown and how old it is, and a Retry (issue #14). */
export function VestingOutage() {
  const dispatch = useAppDispatch()
  const outage = useAppSelector(selectVestingOutage)
  if (!outage) return null
  return (
    <Gap>
      <OutageBanner {...outage} onRetry={() => dispatch(vestingRefreshRequested())} testId="claim-outage" />
    </Gap>
  )
}
