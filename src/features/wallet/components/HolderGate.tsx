import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { Card } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { Spinner } from '../../../ui/Spinner'
import { selectHolderView, selectViewError } from '../selectors'
import { ConnectPromptBody } from './ShellMessages'
import { useOwnViewLink } from './viewLink'

/**
 * Takes the place of the figures it stands for, across a page's grid; the same box whether it waits for the wallet
 * or asks for one, so nothing moves when one gives way to the other.
 */
const Stand = styled(Card)<{ $waiting?: boolean }>`
  grid-column: 1 / -1;
  display: grid;
  place-items: center;
  align-content: center;
  min-height: ${(p) => (p.$waiting ? '100vh' : '140px')};
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
  if (view === 'waiting')
    return (
      // A viewport high: the wallet's figures, much taller than the prompt, then replace it and only push what was
      // already below the fold (no layout shift the person sees). The returning-wallet document does the same.
      <Stand $waiting aria-busy="true" data-testid="holder-waiting">
        <Spinner size={36} label="Loading wallet" />
      </Stand>
    )
  if (view === 'invalid')
    return (
      <Stand data-testid="account-view-error">
        <ErrorText>{error}</ErrorText>
        <Link to={back}>Show your own address instead</Link>
      </Stand>
    )
  return (
    // data-holder-prompt: a returning wallet's document hides it before the first paint (src/hosting/documents.ts).
    <Stand data-testid="holder-connect" data-holder-prompt="">
      <ConnectPromptBody />
    </Stand>
  )
}
