import { useAppDispatch } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Muted } from '../../../ui/Card'
import { Modal } from '../../../ui/Modal'
import { modalClosed, modalOpened } from '../slice'

/** Shown when an action needs a wallet; what was asked for is remembered and opens after connecting. */
export function ConnectWalletModal() {
  const dispatch = useAppDispatch()
  return (
    <Modal title="Connect your wallet" onClose={() => dispatch(modalClosed())}>
      <Muted style={{ marginBottom: 20 }}>Connect the wallet to continue working. We will pick up where you left off.</Muted>
      <Button $block onClick={() => dispatch(modalOpened('chooseWallet'))}>
        Connect Wallet
      </Button>
    </Modal>
  )
}
