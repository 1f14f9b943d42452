import { lazy, Suspense, type ComponentType } from 'react'
import { ChooseWalletDialog } from '../features/wallet/components/ChooseWalletDialog'
import { ConnectWalletModal } from '../features/wallet/components/ConnectWalletModal'
import { selectOpenModal } from '../features/wallet/selectors'
import { StakeWarningModal } from '../features/vesting/components/StakeWarningModal'
import { TermChooserModal } from '../features/vesting/components/TermChooserModal'
import { StakeSummaryDialog } from '../features/stake/components/StakeSummaryDialog'
import { useAppSelector } from './hooks'
import type { ModalName } from './modals'

// formik and yup serve only this form: a chunk of its own keeps them out of the first view (budget 250 KB gzip),
// and the prefetch hint has the browser fetch it while idle, so the modal opens at once.
const DepositModal = lazy(() =>
  import(/* webpackChunkName: "deposit", webpackPrefetch: true */ '../features/stake/components/DepositModal').then((m) => ({
    default: m.DepositModal,
  })),
)

/** Each dialog's component, by its name in src/app/modals.ts: a name without one does not compile. */
const MODAL_COMPONENTS: Record<ModalName, ComponentType> = {
  chooseWallet: ChooseWalletDialog,
  connect: ConnectWalletModal,
  deposit: DepositModal,
  stakeSummary: StakeSummaryDialog,
  claimWarning: StakeWarningModal,
  claimTerms: TermChooserModal,
}

/** The dialog open, if any (one at a time); a lazy one shows nothing until its chunk has loaded. */
export function OpenModal() {
  const name = useAppSelector(selectOpenModal)
  if (name === null) return null
  const Dialog = MODAL_COMPONENTS[name]
  return (
    <Suspense fallback={null}>
      <Dialog />
    </Suspense>
  )
}
