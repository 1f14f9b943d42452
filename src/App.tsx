import { Route, Routes } from 'react-router-dom'
import styled from 'styled-components'
import { OpenModal } from './app/OpenModal'
import { Shell } from './app/Shell'
import { TxNotifications } from './features/token/components/TxNotifications'
import { WalletButton } from './features/wallet/components/WalletButton'
import { ClaimPage } from './pages/ClaimPage'
import { StakingPage } from './pages/StakingPage'
import { Header } from './ui/layout/Header'
import { MobileNav } from './ui/layout/MobileNav'
import { GlobalStyle } from './ui/theme'

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
      <Main>
        <Shell>
          <Routes>
            <Route path="/" element={<ClaimPage />} />
            <Route path="/staking" element={<StakingPage />} />
            <Route path="/staking/:id" element={<StakingPage />} />
            <Route path="*" element={<ClaimPage />} />
          </Routes>
        </Shell>
      </Main>
      <MobileNav />
      <OpenModal />
      <TxNotifications />
    </>
  )
}
