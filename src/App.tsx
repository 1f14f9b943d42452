import { lazy, Suspense, type ComponentType } from 'react'
import { Route, Routes } from 'react-router-dom'
import styled from 'styled-components'
import { Shell, ShellLoading } from './app/Shell'
import { useAppSelector } from './app/hooks'
import { TxNotifications } from './features/token/components/TxNotifications'
import { selectOpenModal } from './features/wallet/selectors'
import { CLAIM_TERMS_MODAL, CLAIM_WARNING_MODAL } from './features/vesting/slice'
import { DEPOSIT_MODAL, STAKE_SUMMARY_MODAL } from './features/stake/slice'
import { Header } from './ui/layout/Header'
import { MobileNav } from './ui/layout/MobileNav'
import { GlobalStyle } from './ui/theme'

const loaders: (() => Promise<unknown>)[] = []

/**
 * React.lazy for a component a module exports by name. When its chunk has loaded before its first render
 * (loadScreens), it renders at once: React is handed a thenable that calls back synchronously, so nothing suspends.
 */
function lazyNamed<M>(importer: () => Promise<M>, pick: (m: M) => ComponentType) {
  let loaded: { default: ComponentType } | null = null
  const load = () => importer().then((m) => (loaded = { default: pick(m) }))
  loaders.push(load)
  return lazy(() => (loaded ? ({ then: (resolve: (m: typeof loaded) => void) => resolve(loaded) } as never) : load()))
}

// The first view is the shell: header, wallet state, notices. Each page is a chunk of its own, fetched when the shell
// shows it (a first visit without a wallet never needs one) and prefetched while the browser is idle, so following a
// link or connecting does not wait for it (docs/architecture.md §10, budget 200 KB gzip).
const ClaimPage = lazyNamed(
  () => import(/* webpackChunkName: "claim", webpackPrefetch: true */ './pages/ClaimPage'),
  (m) => m.ClaimPage,
)
const StakingPage = lazyNamed(
  () => import(/* webpackChunkName: "staking", webpackPrefetch: true */ './pages/StakingPage'),
  (m) => m.StakingPage,
)

// Dialogs open on a click: one prefetched chunk for the small ones; formik and yup serve only the deposit form, a
// chunk of its own. A dialog whose chunk is still on its way shows a moment later, over the page it opens on.
const ChooseWalletDialog = lazyNamed(
  () => import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/wallet/components/ChooseWalletDialog'),
  (m) => m.ChooseWalletDialog,
)
const ConnectWalletModal = lazyNamed(
  () => import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/wallet/components/ConnectWalletModal'),
  (m) => m.ConnectWalletModal,
)
const StakeWarningModal = lazyNamed(
  () => import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/vesting/components/StakeWarningModal'),
  (m) => m.StakeWarningModal,
)
const TermChooserModal = lazyNamed(
  () => import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/vesting/components/TermChooserModal'),
  (m) => m.TermChooserModal,
)
const StakeSummaryDialog = lazyNamed(
  () => import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/stake/components/StakeSummaryDialog'),
  (m) => m.StakeSummaryDialog,
)
const DepositModal = lazyNamed(
  () => import(/* webpackChunkName: "deposit", webpackPrefetch: true */ './features/stake/components/DepositModal'),
  (m) => m.DepositModal,
)

/** Loads the code of every page and dialog, so they render without suspending (the component tests call it first). */
export const loadScreens = () => Promise.all(loaders.map((load) => load()))

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
          {/* While a page's chunk loads, the shell's spinner stays where it was. */}
          <Suspense fallback={<ShellLoading label="Loading page" />}>
            <Routes>
              <Route path="/" element={<ClaimPage />} />
              <Route path="/staking" element={<StakingPage />} />
              <Route path="/staking/:id" element={<StakingPage />} />
              <Route path="*" element={<ClaimPage />} />
            </Routes>
          </Suspense>
        </Shell>
      </Main>
      <MobileNav />
      <Suspense fallback={null}>
        {modal === 'chooseWallet' && <ChooseWalletDialog />}
        {modal === 'connect' && <ConnectWalletModal />}
        {modal === CLAIM_WARNING_MODAL && <StakeWarningModal />}
        {modal === CLAIM_TERMS_MODAL && <TermChooserModal />}
        {modal === DEPOSIT_MODAL && <DepositModal />}
        {modal === STAKE_SUMMARY_MODAL && <StakeSummaryDialog />}
      </Suspense>
      <TxNotifications />
    </>
  )
}
