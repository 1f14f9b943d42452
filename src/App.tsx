import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { Route, Routes } from 'react-router-dom'
import styled from 'styled-components'
import { Shell, ShellLoading } from './app/Shell'
import { useAppSelector } from './app/hooks'
import { TxNotifications } from './features/token/components/TxNotifications'
import { selectOpenModal } from './features/wallet/selectors'
import { CLAIM_TERMS_MODAL, CLAIM_WARNING_MODAL } from './features/vesting/slice'
import { DEPOSIT_MODAL, STAKE_SUMMARY_MODAL } from './features/stake/slice'
import { Button } from './ui/Button'
import { Card } from './ui/Card'
import { Header } from './ui/layout/Header'
import { MobileNav } from './ui/layout/MobileNav'
import { GlobalStyle } from './ui/theme'

const loaders: (() => Promise<unknown>)[] = []

/**
 * A lazy chunk whose components are React.lazy. Once the chunk's modules have loaded (by any of its components, or
 * loadScreens), each of its components renders at once on its first render: React is handed a thenable that calls
 * back synchronously, so nothing suspends (the term chooser opened from the claim warning shows at once).
 */
function lazyChunk<M>(importer: () => Promise<M>) {
  let loaded: M | null = null
  let loading: Promise<M> | null = null
  const load = () => (loading ??= importer().then((m) => (loaded = m)))
  loaders.push(load)
  return (pick: (m: M) => ComponentType) =>
    lazy(() => {
      if (!loaded) return load().then((m) => ({ default: pick(m) }))
      const module = { default: pick(loaded) }
      return { then: (resolve: (m: typeof module) => void) => resolve(module) } as never
    })
}

// The first view is the shell: header, wallet state, notices. Each page is a chunk of its own, fetched when the shell
// shows it (a first visit without a wallet never needs one) and prefetched (a low-priority download once the first
// view's script has run), so connecting or following a link does not wait for it (docs/architecture.md §10).
const claimChunk = lazyChunk(() => import(/* webpackChunkName: "claim", webpackPrefetch: true */ './pages/ClaimPage'))
const stakingChunk = lazyChunk(() => import(/* webpackChunkName: "staking", webpackPrefetch: true */ './pages/StakingPage'))
const ClaimPage = claimChunk((m) => m.ClaimPage)
const StakingPage = stakingChunk((m) => m.StakingPage)

// Dialogs open on a click: one prefetched chunk for the small ones; formik and yup serve only the deposit form, a
// chunk of its own. The first dialog of a chunk shows a moment after the click, once its code has run.
const dialogsChunk = lazyChunk(() =>
  Promise.all([
    import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/wallet/components/ChooseWalletDialog'),
    import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/wallet/components/ConnectWalletModal'),
    import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/vesting/components/StakeWarningModal'),
    import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/vesting/components/TermChooserModal'),
    import(/* webpackChunkName: "dialogs", webpackPrefetch: true */ './features/stake/components/StakeSummaryDialog'),
  ]).then(([choose, connect, warning, terms, summary]) => ({ ...choose, ...connect, ...warning, ...terms, ...summary })),
)
const ChooseWalletDialog = dialogsChunk((m) => m.ChooseWalletDialog)
const ConnectWalletModal = dialogsChunk((m) => m.ConnectWalletModal)
const StakeWarningModal = dialogsChunk((m) => m.StakeWarningModal)
const TermChooserModal = dialogsChunk((m) => m.TermChooserModal)
const StakeSummaryDialog = dialogsChunk((m) => m.StakeSummaryDialog)
const DepositModal = lazyChunk(
  () => import(/* webpackChunkName: "deposit", webpackPrefetch: true */ './features/stake/components/DepositModal'),
)((m) => m.DepositModal)

/** Loads the code of every page and dialog, so they render without suspending (the component tests call it first). */
export const loadScreens = () => Promise.all(loaders.map((load) => load()))

/** A chunk that could not load (offline, or a newer release replaced it) says so and offers a reload: no blank page. */
class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    if (!this.state.failed) return this.props.children
    return (
      <Card role="alert">
        <p>This part of the app could not load. Check the connection and reload the page.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Card>
    )
  }
}

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
      <LoadFailure>
        <Suspense fallback={null}>
          {modal === 'chooseWallet' && <ChooseWalletDialog />}
          {modal === 'connect' && <ConnectWalletModal />}
          {modal === CLAIM_WARNING_MODAL && <StakeWarningModal />}
          {modal === CLAIM_TERMS_MODAL && <TermChooserModal />}
          {modal === DEPOSIT_MODAL && <DepositModal />}
          {modal === STAKE_SUMMARY_MODAL && <StakeSummaryDialog />}
        </Suspense>
      </LoadFailure>
      <TxNotifications />
    </>
  )
}
