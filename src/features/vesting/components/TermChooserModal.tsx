import { useEffect } from 'react'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Muted } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { Modal } from '../../../ui/Modal'
import { Spinner } from '../../../ui/Spinner'
import { ScheduledChanges } from '../../../ui/ScheduledChanges'
import { scheduledCallsRequested } from '../../token/slice'
import { modalClosed } from '../../wallet/slice'
import {
  selectClaimView,
  selectHarvestPool,
  selectHarvestScheduled,
  selectHarvestTermRewards,
  selectSelectedTerm,
  selectTermOptions,
  selectVestingInfo,
} from '../selectors'
import { stakingRequested, termSelected } from '../slice'
import { FeeLine, useFeeQuote } from '../../wallet/components/FeeLine'

const Terms = styled.fieldset`
  border: 0;
  margin: 0 0 20px;
  padding: 0;
  display: grid;
  gap: 10px;
  legend {
    padding: 0;
    margin-bottom: 10px;
    color: ${(p) => p.theme.color.muted};
  }
`

const Term = styled.label<{ $checked: boolean }>`
  display: grid;
  grid-template-columns: auto 1fr auto;
  align-items: center;
  gap: 12px;
  padding: 12px 14px;
  border-radius: 10px;
  cursor: pointer;
  background: ${(p) => p.theme.color.raised};
  border: 1px solid ${(p) => (p.$checked ? p.theme.color.accent : p.theme.color.border)};
  input {
    accent-color: ${(p) => p.theme.color.accent};
    width: 18px;
    height: 18px;
    margin: 0;
  }
  small {
    display: block;
    color: ${(p) => p.theme.color.muted};
  }
  b {
    color: ${(p) => p.theme.color.accent};
    font-variant-numeric: tabular-nums;
  }
`

const FeeSpace = styled.div`
  margin: 0 0 12px;
`

const Failure = styled(ErrorText)`
  margin: 0 0 16px;
  font-size: 1rem;
`

/**
 * The staking-term chooser: the pool's harvest terms with days, bonus and APR (the spec's, of the bonus); in a
 * version 1 pool also the inflation reward the term earns. The second term by default.
 */
export function TermChooserModal() {
  const dispatch = useAppDispatch()
  const options = useAppSelector(selectTermOptions)
  const selected = useAppSelector(selectSelectedTerm)
  const rewards = useAppSelector(selectHarvestTermRewards)
  const { claiming, error } = useAppSelector(selectClaimView)
  const busy = claiming !== null
  const pool = useAppSelector(selectHarvestPool)
  const scheduled = useAppSelector(selectHarvestScheduled)
  const { unlocked } = useAppSelector(selectVestingInfo)
  // The network fee of claiming and staking for the selected term (docs/product.md §4.4).
  const fee = useFeeQuote(selected && !busy ? { kind: 'claimStake', hold: selected.hold, unlocked } : null)
  // Changes the owner has scheduled for the claim-and-stake pool show before the claim is staked (docs/product.md §2.7).
  useEffect(() => {
    if (pool) dispatch(scheduledCallsRequested({ target: pool }))
  }, [dispatch, pool])
  return (
    <Modal title="Choose a staking term" onClose={() => dispatch(modalClosed())}>
      <ScheduledChanges lines={scheduled} />
      {options.length === 0 ? (
        <Muted style={{ marginBottom: 20 }}>This pool offers no staking terms for claims right now.</Muted>
      ) : (
        <Terms disabled={busy}>
          <legend>Your claim is staked for the term you choose.</legend>
          {options.map((o) => (
            <Term key={o.index} $checked={selected?.index === o.index}>
              <input
                type="radio"
                name="claim-term"
                value={o.index}
                checked={selected?.index === o.index}
                onChange={() => dispatch(termSelected(o.index))}
              />
              <span>
                {o.days} days
                <small>+{o.bonus}% bonus</small>
                {rewards[o.hold] && <small>+{rewards[o.hold]}% inflation reward</small>}
              </span>
              <b>{o.apr}% APR</b>
            </Term>
          ))}
        </Terms>
      )}
      {error && <Failure>{error}</Failure>}
      <FeeSpace>
        <FeeLine quote={fee.quote} />
      </FeeSpace>
      <Button
        $block
        disabled={!selected || busy || fee.blocked}
        onClick={() => selected && dispatch(stakingRequested({ hold: selected.hold }))}
      >
        {busy && <Spinner size={18} label="Claiming and staking" />}
        Claim and stake
      </Button>
    </Modal>
  )
}
