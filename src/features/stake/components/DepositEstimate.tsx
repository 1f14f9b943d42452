import styled from 'styled-components'
import { FigureList } from '../../../ui/FigureList'
import type { depositPreview } from '../selectors'

type Estimate = ReturnType<typeof depositPreview>
export type Shortfall = NonNullable<Estimate['shortfall']>

const Preview = styled(FigureList)`
  gap: 6px 12px;
  margin: 4px 0 20px;
  padding: 14px;
  border-radius: 10px;
  background: ${(p) => p.theme.color.raised};
  .split {
    padding-top: 6px;
    border-top: 1px solid ${(p) => p.theme.color.border};
  }
  dd.split {
    margin-left: -12px;
    padding-left: 12px;
  }
`

const Shortfall = styled.p`
  margin: -8px 0 16px;
  color: ${(p) => p.theme.color.warning};
  font-size: 0.9rem;
`

const Accept = styled.label`
  display: flex;
  gap: 10px;
  align-items: flex-start;
  margin: -6px 0 18px;
  font-size: 0.9rem;
  cursor: pointer;
  input {
    flex: none;
    width: 18px;
    height: 18px;
    margin: 1px 0 0;
    accent-color: ${(p) => p.theme.color.warning};
  }
`

const Terms = styled.p`
  margin: -8px 0 20px;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.85rem;
`

/** "a bonus of 0.00 PLT instead of 10.00 PLT and a reward of ..." for the parts the reservoir cuts. */
function cutTerms(s: Shortfall): string {
  return [
    s.bonusCut ? `a bonus of ${s.bonus} instead of ${s.bonusWanted}` : null,
    s.rewardCut ? `a reward of ${s.reward} instead of ${s.rewardWanted}` : null,
  ]
    .filter((t) => t !== null)
    .join(' and ')
}

/**
 * The deposit's estimate as the person types (docs/product.md §2.6): shares, bonuses, the reward and what the release
 * pays; when the reservoir cannot fund the full bonus and reward, what it can fund and the box that accepts it.
 */
export function DepositEstimate(props: {
  preview: Estimate
  v1: boolean
  accepted: boolean
  canAccept: boolean
  onAccept: (accepted: boolean) => void
}) {
  const { preview, v1 } = props
  const shortfall = preview.shortfall
  return (
    <>
      <Preview aria-label="Estimate">
        {v1 && (
          <>
            <dt>Pool shares to receive</dt>
            <dd data-testid="preview-base-shares">{preview.baseShares}</dd>
            <dt>Referral bonus</dt>
            <dd data-testid="preview-referral-bonus">{preview.referralBonus}</dd>
          </>
        )}
        <dt>Length bonus</dt>
        <dd data-testid="preview-length-bonus">{preview.lengthBonus}</dd>
        <dt>Total estimated shares</dt>
        <dd data-testid="preview-total-shares">{preview.totalShares}</dd>
        <dt>Share of the pool</dt>
        <dd data-testid="preview-share-of-pool">{preview.shareOfPool}</dd>
        <dt className="split">Bonus at release</dt>
        <dd className="split" data-testid="preview-bonus">
          {preview.bonus}
        </dd>
        {preview.hasReward && (
          <>
            <dt>Inflation reward</dt>
            <dd data-testid="preview-reward">{preview.reward}</dd>
          </>
        )}
        <dt>To receive at release</dt>
        <dd data-testid="preview-at-maturity">{preview.atMaturity}</dd>
      </Preview>
      {shortfall && (
        <>
          <Shortfall role="status" data-testid="preview-shortfall">
            The reward reservoir can fund only {shortfall.funded} of the {shortfall.wanted} bonus and reward this stake would
            earn. The pool stakes it on these lower terms only if you accept them.
          </Shortfall>
          <Accept>
            <input
              type="checkbox"
              data-testid="accept-lower-terms"
              checked={props.accepted}
              disabled={!props.canAccept}
              onChange={(e) => props.onAccept(e.target.checked)}
            />
            <span>I accept {cutTerms(shortfall)}.</span>
          </Accept>
        </>
      )}
      <Terms>
        {preview.hasReward ? 'The reward is earned day by day; the bonus' : 'The bonus'} is paid at the release date. Closing
        earlier costs a fee of up to {preview.feePercent} of the amount, falling to 0 at the release, and forfeits the bonus
        {preview.hasReward ? ' and the reward not yet earned' : ''}.
      </Terms>
    </>
  )
}
