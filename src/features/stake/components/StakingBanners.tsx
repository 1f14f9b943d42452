import styled from 'styled-components'

const Disclaimer = styled.p`
  margin: 0;
  padding: 12px 16px;
  border-radius: 10px;
  border: 1px solid ${(p) => p.theme.color.warning};
  color: ${(p) => p.theme.color.warning};
  background: rgba(255, 210, 122, 0.06);
  font-size: 0.95rem;
`

const Subscription = styled.aside`
  padding: 18px 20px;
  border-radius: ${(p) => p.theme.radius};
  background: linear-gradient(120deg, rgba(61, 220, 132, 0.16), rgba(61, 220, 132, 0.03));
  border: 1px solid ${(p) => p.theme.color.border};
  h2 {
    margin: 0 0 6px;
    font-size: 1.1rem;
  }
  ul {
    margin: 0;
    padding-left: 20px;
    color: ${(p) => p.theme.color.muted};
  }
`

/** The alpha disclaimer (docs/product.md §1.4). */
export function AlphaDisclaimer() {
  return <Disclaimer role="note">Alpha: the smart contracts are in audit. You use them at your own risk.</Disclaimer>
}

/** The subscription info banner (docs/product.md §2.3). */
export function SubscriptionBanner() {
  return (
    <Subscription aria-labelledby="subscription-title">
      <h2 id="subscription-title">Stake for a subscription to analyst data</h2>
      <ul>
        <li>The minimum stake time for a subscription is 6 months.</li>
        <li>The more you stake, the higher your access.</li>
      </ul>
    </Subscription>
  )
}
