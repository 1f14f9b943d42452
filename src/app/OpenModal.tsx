import { Suspense, type ComponentType } from 'react'
import { selectOpenModal } from '../features/wallet/selectors'
import { useAppSelector } from '../kit/hooks'
import { lazyChunk, LoadFailure } from '../kit/lazyChunk'
import type { ModalName } from '../kit/modals'

// Dialogs open on a click, so none is in the first view: one chunk for the small ones (Restake among them: it shows the
// deposit's estimate and curve, but takes no form library); formik and yup serve only the deposit form, a chunk of its
// own. Both are prefetched once the page is idle (loaderScript, src/hosting/documents.ts).
// The first dialog of a chunk shows a moment after the click.
const dialogsChunk = lazyChunk(() =>
  Promise.all([
    import(/* webpackChunkName: "dialogs" */ '../features/wallet/components/ChooseWalletDialog'),
    import(/* webpackChunkName: "dialogs" */ '../features/wallet/components/ConnectWalletModal'),
    import(/* webpackChunkName: "dialogs" */ '../features/vesting/components/StakeWarningModal'),
    import(/* webpackChunkName: "dialogs" */ '../features/vesting/components/TermChooserModal'),
    import(/* webpackChunkName: "dialogs" */ '../features/stake/components/StakeSummaryDialog'),
    import(/* webpackChunkName: "dialogs" */ '../features/stake/components/CloseAllMaturedDialog'),
    import(/* webpackChunkName: "dialogs" */ '../features/stake/components/RestakeDialog'),
  ]).then(([choose, connect, warning, terms, summary, closeAll, restake]) => ({
    ...choose,
    ...connect,
    ...warning,
    ...terms,
    ...summary,
    ...closeAll,
    ...restake,
  })),
)
const DepositModal = lazyChunk(() => import(/* webpackChunkName: "deposit" */ '../features/stake/components/DepositModal'))(
  (m) => m.DepositModal,
)

/** Each dialog's component, by its name in src/app/modals.ts: a name without one does not compile. */
const MODAL_COMPONENTS: Record<ModalName, ComponentType> = {
  chooseWallet: dialogsChunk((m) => m.ChooseWalletDialog),
  connect: dialogsChunk((m) => m.ConnectWalletModal),
  deposit: DepositModal,
  stakeSummary: dialogsChunk((m) => m.StakeSummaryDialog),
  closeAllMatured: dialogsChunk((m) => m.CloseAllMaturedDialog),
  restake: dialogsChunk((m) => m.RestakeDialog),
  claimWarning: dialogsChunk((m) => m.StakeWarningModal),
  claimTerms: dialogsChunk((m) => m.TermChooserModal),
}

/** The dialog open, if any (one at a time); a lazy one shows nothing until its chunk has loaded. */
export function OpenModal() {
  const name = useAppSelector(selectOpenModal)
  if (name === null) return null
  const Dialog = MODAL_COMPONENTS[name]
  return (
    <LoadFailure>
      <Suspense fallback={null}>
        <Dialog />
      </Suspense>
    </LoadFailure>
  )
}
