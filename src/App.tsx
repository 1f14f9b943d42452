import { lazy, Suspense } from 'react'
import { Route, Routes } from 'react-router-dom'
import styled from 'styled-components'
import { Shell } from './app/Shell'
import { useAppSelector } from './app/hooks'
import { TxNotifications } from './features/token/components/TxNotifications'
import { ChooseWalletDialog } from './features/wallet/components/ChooseWalletDialog'
import { ConnectWalletModal } from './features/wallet/components/ConnectWalletModal'
import { selectOpenModal } from './features/wallet/selectors'
import { StakeWarningModal } from './features/vesting/components/StakeWarningModal'
import { TermChooserModal } from './features/vesting/components/TermChooserModal'
import { CLAIM_TERMS_MODAL, CLAIM_WARNING_MODAL } from './features/vesting/slice'
import { StakeSummaryDialog } from './features/stake/components/StakeSummaryDialog'
import { DEPOSIT_MODAL, STAKE_SUMMARY_MODAL } from './features/stake/slice'
import { ClaimPage } from './pages/ClaimPage'
import { StakingPage } from './pages/StakingPage'
import { Header } from './ui/layout/Header'
import { MobileNav } from './ui/layout/MobileNav'
import { GlobalStyle } from './ui/theme'

// formik and yup serve only this form: a chunk of its own keeps them out of the first view (budget 250 KB gzip),
// and the prefetch hint has the browser fetch it while idle, so the modal opens at once.
const DepositModal = lazy(() =>
  import(/* webpackChunkName: "deposit", webpackPrefetch: true */ './features/stake/components/DepositModal').then((m) => ({
    default: m.DepositModal,
  })),
)

const Main = styled.main`
  flex: 1;
  width: min(1120px, 100%);
  margin: 0 auto;
  padding: 32px clamp(16px, 4vw, 40px) 96px;
`

/** The frame every screen lives in: header, shell states, routes, dialogs and the notification stack. */
export function App() {
  const modal = useAppSelector(selectOpenModal)
  return (
    <>
      <GlobalStyle />
      <Header />
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
      {modal === 'chooseWallet' && <ChooseWalletDialog />}
      {modal === 'connect' && <ConnectWalletModal />}
      {modal === CLAIM_WARNING_MODAL && <StakeWarningModal />}
      {modal === CLAIM_TERMS_MODAL && <TermChooserModal />}
      {modal === DEPOSIT_MODAL && (
        <Suspense fallback={null}>
          <DepositModal />
        </Suspense>
      )}
      {modal === STAKE_SUMMARY_MODAL && <StakeSummaryDialog />}
      <TxNotifications />
    </>
  )
}
