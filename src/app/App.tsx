import { Suspense } from 'react'
import { Route, Routes } from 'react-router-dom'
import styled from 'styled-components'
import { lazyChunk, LoadFailure } from '../kit/lazyChunk'
import { OpenModal } from './OpenModal'
import { Shell, ShellLoading } from './Shell'
import { TxNotifications } from '../features/token/components/TxNotifications'
import { WalletButton } from '../features/wallet/components/WalletButton'
import { AccountParam } from '../features/wallet/components/AccountParam'
import { Header } from '../ui/layout/Header'
import { MobileNav } from '../ui/layout/MobileNav'
import { GlobalStyle } from '../ui/theme'

export { loadScreens } from '../kit/lazyChunk'

// The first view is the shell: header, wallet state, notices. Each page is a chunk of its own; the documents' loader
// fetches both beside the entry, which loads them before its first render (docs/architecture.md §10).
const claimChunk = lazyChunk(() => import(/* webpackChunkName: "claim" */ '../pages/ClaimPage'))
const stakingChunk = lazyChunk(() => import(/* webpackChunkName: "staking" */ '../pages/StakingPage'))
const ClaimPage = claimChunk((m) => m.ClaimPage)
const StakingPage = stakingChunk((m) => m.StakingPage)

/**
 * Both pages' code. Every visit shows a page now (the public view), so the entry loads them before its first render
 * and the build renders them into the documents: the first render then matches the markup on screen.
 */
export async function loadPages(between: () => Promise<void> = async () => {}) {
  // One after the other, `between` in between (the entry yields to the browser there): their modules are evaluated
  // as each load resolves, and both arrive in one file (webpack.config.ts), so together they would be one long task.
  await claimChunk.load()
  await between()
  await stakingChunk.load()
}

const Main = styled.main`
  flex: 1;
  width: min(1120px, 100%);
  margin: 0 auto;
  padding: 32px clamp(16px, 4vw, 40px) 96px;
`

/** The frame every screen lives in: header, shell states, routes, the open dialog and the notification stack. */
export function App() {
  return (
    <>
      <GlobalStyle />
      <Header actions={<WalletButton />} />
      <AccountParam />
      <Main>
        <Shell>
          {/* While a page's chunk loads, the shell's spinner stays where it was. */}
          <LoadFailure>
            <Suspense fallback={<ShellLoading label="Loading page" />}>
              <Routes>
                <Route path="/" element={<ClaimPage />} />
                <Route path="/staking" element={<StakingPage />} />
                <Route path="/staking/:id" element={<StakingPage />} />
                <Route path="*" element={<ClaimPage />} />
              </Routes>
            </Suspense>
          </LoadFailure>
        </Shell>
      </Main>
      <MobileNav />
      <OpenModal />
      <TxNotifications />
    </>
  )
}
