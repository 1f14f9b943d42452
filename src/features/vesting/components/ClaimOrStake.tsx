import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { Card, Muted } from '../../../ui/Card'
import type { ClaimOption } from '../claimOrStake'
import { selectClaimOrStake } from '../selectors'

/** The whole width of the claim page's grid (src/pages/ClaimPage.tsx), whichever column it would fall in. */
const Box = styled(Card)`
  grid-column: 1 / -1;
`

const Title = styled.h2`
  margin: 0 0 4px;
  font-size: 1.05rem;
`

const Options = styled.ul`
  list-style: none;
  margin: 16px 0;
  padding: 0;
  display: grid;
  /* Four across a desktop page; one under the other on a phone, each as wide as the screen. */
  grid-template-columns: repeat(auto-fit, minmax(210px, 1fr));
  gap: 12px;
`

const Option = styled.li`
  display: grid;
  align-content: start;
  gap: 10px;
  min-width: 0;
  padding: 14px;
  border-radius: 10px;
  background: ${(p) => p.theme.color.raised};
  h3 {
    margin: 0;
    font-size: 1rem;
  }
  small {
    display: block;
    color: ${(p) => p.theme.color.muted};
    font-size: 0.85rem;
  }
`

/** The option's name and what it comes to: on one line where the card is wide enough (a phone), else one under the other. */
const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: baseline;
  gap: 2px 12px;
`

const Big = styled.span`
  font-size: 1.25rem;
  font-weight: 700;
  font-variant-numeric: tabular-nums;
`

/** Each figure's name above it: a narrow card has no room for both on one line; two across where they fit. */
const Figures = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(120px, 1fr));
  gap: 8px 12px;
  margin: 0;
  dt {
    color: ${(p) => p.theme.color.muted};
    font-size: 0.8rem;
  }
  dd {
    margin: 0;
    font-variant-numeric: tabular-nums;
  }
  dd small {
    font-size: 0.8rem;
  }
`

const Note = styled(Muted)`
  font-size: 0.85rem;
`

function OptionCard({ o }: { o: ClaimOption }) {
  const wallet = o.key === 'wallet'
  return (
    <Option data-testid={`claim-option-${o.key}`} aria-labelledby={`claim-option-${o.key}-title`}>
      <div>
        <Head>
          <h3 id={`claim-option-${o.key}-title`}>{o.title}</h3>
          <Big data-testid="at-release" data-wei={o.atReleaseWei}>
            {o.atRelease}
          </Big>
        </Head>
        {o.terms && <small>{o.terms}</small>}
        <small>{wallet ? 'in your wallet today' : `at the release, ${o.gain} more`}</small>
      </div>
      <Figures>
        <div>
          <dt>APR</dt>
          <dd data-testid="apr">
            {o.apr}
            {o.aprParts && <small>{o.aprParts}</small>}
          </dd>
        </div>
        <div>
          <dt>Release date</dt>
          <dd data-testid="release-date">{wallet ? 'Today' : o.releaseDate}</dd>
        </div>
        <div>
          <dt>Break-even</dt>
          <dd data-testid="break-even">
            {o.breakEvenDays === 0 ? 'Today' : o.breakEvenDate}
            {o.breakEvenDays > 0 && <small>in {o.breakEvenDays} days</small>}
          </dd>
        </div>
      </Figures>
    </Option>
  )
}

/**
 * Claim or stake, side by side (docs/product.md §2.7): the unlocked amount claimed to the wallet now, or staked under
 * each claim-and-stake term, with what the holder has at the release, the APR, the release date and the break-even
 * day. Shown only while something is unlocked.
 */
export function ClaimOrStake() {
  const view = useAppSelector(selectClaimOrStake)
  if (!view) return null
  return (
    <Box aria-labelledby="claim-or-stake">
      <Title id="claim-or-stake">Claim or stake</Title>
      <Muted>Your {view.amount} unlocked, claimed to your wallet now or staked under each term.</Muted>
      <Options>
        {view.options.map((o) => (
          <OptionCard key={o.key} o={o} />
        ))}
      </Options>
      {view.options.length === 1 && <Note>This pool offers no staking terms for claims right now.</Note>}
      <Note>
        A stake pays its bonus at the release. Closed before, it pays less: the early withdrawal fee starts at {view.feePercent}{' '}
        of the amount and falls to 0 at the release. Break-even is the first day a close pays back at least the amount claimed.
        The figures use the pool&apos;s terms today; fees from other stakers&apos; early closes would come on top.
      </Note>
    </Box>
  )
}
