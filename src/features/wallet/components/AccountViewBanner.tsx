import { Link } from 'react-router-dom'
import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { selectAddress, selectViewAccount, selectViewingOther } from '../selectors'
import { useOwnViewLink } from './viewLink'

const Banner = styled.aside`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 16px;
  margin: 0 0 20px;
  padding: 12px 16px;
  border-radius: ${(p) => p.theme.radius};
  border: 1px solid ${(p) => p.theme.color.accent};
  background: ${(p) => p.theme.color.raised};
  p {
    margin: 0;
    flex: 1 1 320px;
  }
  code {
    font-family: ${(p) => p.theme.mono};
    overflow-wrap: anywhere;
  }
  a {
    color: ${(p) => p.theme.color.accent};
    font-weight: 600;
  }
`

/**
 * Above both pages while they show an `?account=` address that is not the wallet's: whose figures these are, that
 * they are read only, and the way back to one's own (docs/product.md §2.8).
 */
export function AccountViewBanner() {
  const viewing = useAppSelector(selectViewAccount)
  const other = useAppSelector(selectViewingOther)
  const own = useAppSelector(selectAddress)
  const back = useOwnViewLink()
  if (!viewing || !other) return null
  return (
    <Banner aria-label="Viewed account" data-testid="account-view-banner">
      <p>
        Viewing <code>{viewing}</code>, read only: nothing can be claimed, staked or closed for it from here.
      </p>
      <Link to={back}>{own ? 'Back to your own address' : 'Leave this view'}</Link>
    </Banner>
  )
}
