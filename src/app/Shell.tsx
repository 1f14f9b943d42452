import type { ReactNode } from 'react'
import styled from 'styled-components'
import { ConnectPrompt, UnsupportedNetwork } from '../features/wallet/components/ShellMessages'
import { selectShellView } from '../features/wallet/selectors'
import { Spinner } from '../ui/Spinner'
import { useAppSelector } from '../kit/hooks'

const Center = styled.div`
  display: grid;
  place-items: center;
  min-height: 40vh;
`

/** The shell's loading look; App.tsx shows it too while a page's code loads. */
export function ShellLoading({ label }: { label: string }) {
  return (
    <Center>
      <Spinner size={48} label={label} />
    </Center>
  )
}

/** The spinner until the wallet layer is ready, then the connect or unsupported-network message, else the page. */
export function Shell({ children }: { children: ReactNode }) {
  const view = useAppSelector(selectShellView)
  if (view === 'loading') return <ShellLoading label="Loading wallet" />
  if (view === 'connect') return <ConnectPrompt />
  if (view === 'unsupported') return <UnsupportedNetwork />
  return <>{children}</>
}
