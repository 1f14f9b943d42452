import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { Card } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { selectHolderView, selectViewError } from '../selectors'
import { ConnectPromptBody } from './ShellMessages'
import { useOwnViewLink } from './viewLink'

/** Takes the place of the figures it stands for, across a page's grid. */
const Stand = styled(Card)`
  grid-column: 1 / -1;
  text-align: center;
  p {
    margin: 0 0 16px;
    font-size: 1.05rem;
  }
`

/**
 * A holder's own figures (claim figures, stakes) when the page has an address to show: the wallet's, or a valid
 * `?account=`. Without one, the spec's 'Connect the wallet to continue working' and its Connect Wallet button stand
 * in their place (the public view, docs/product.md §2.8); after a bad link, why it was refused.
 */
export function HolderGate({ children }: { children: ReactNode }) {
  const view = useAppSelector(selectHolderView)
  const error = useAppSelector(selectViewError)
  const back = useOwnViewLink()
  if (view === 'figures') return <>{children}</>
  if (view === 'invalid')
    return (
      <Stand data-testid="account-view-error">
        <ErrorText>{error}</ErrorText>
        <Link to={back}>Show your own address instead</Link>
      </Stand>
    )
  return (
    <Stand data-testid="holder-connect">
      <ConnectPromptBody />
    </Stand>
  )
}
