import type { ReactNode } from 'react'
import styled from 'styled-components'
import { ConnectPrompt, UnsupportedNetwork } from '../features/wallet/components/ShellMessages'
import { selectShellView } from '../features/wallet/selectors'
import { Spinner } from '../ui/Spinner'
import { useAppSelector } from './hooks'

const Center = styled.div`
  display: grid;
  place-items: center;
  min-height: 40vh;
`

/** The spinner until the wallet layer is ready, then the connect or unsupported-network message, else the page. */
export function Shell({ children }: { children: ReactNode }) {
  const view = useAppSelector(selectShellView)
  if (view === 'loading')
    return (
      <Center>
        <Spinner size={48} label="Loading wallet" />
      </Center>
    )
  if (view === 'connect') return <ConnectPrompt />
  if (view === 'unsupported') return <UnsupportedNetwork />
  return <>{children}</>
}
