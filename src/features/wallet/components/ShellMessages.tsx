import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Card } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { ChainIcon } from '../../../ui/icons'
import { selectSupportedNetworkList, selectSwitchingTo, selectWalletError } from '../selectors'
import { modalOpened, switchChainRequested } from '../slice'

const Box = styled(Card)`
  max-width: 560px;
  margin: 8vh auto 0;
  text-align: center;
  p {
    margin: 0 0 20px;
    font-size: 1.1rem;
  }
`

const Networks = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: 10px;
`

/** Below the networks; the box's own paragraph margin and size give way. */
const Failure = styled(ErrorText)`
  margin-top: 16px !important;
  font-size: 1rem !important;
`

/** The spec's words and button, wherever a wallet is missing: the whole shell, or where a holder's figures go. */
export function ConnectPromptBody() {
  const dispatch = useAppDispatch()
  return (
    <>
      <p>Connect the wallet to continue working</p>
      <Button onClick={() => dispatch(modalOpened('chooseWallet'))}>Connect Wallet</Button>
    </>
  )
}

/** The shell without a wallet, on a build whose default network has no contracts (nothing to show publicly). */
export function ConnectPrompt() {
  return (
    <Box data-holder-prompt="">
      <ConnectPromptBody />
    </Box>
  )
}

/** The unsupported-network message with the supported networks; clicking one asks the wallet to switch. */
export function UnsupportedNetwork() {
  const dispatch = useAppDispatch()
  const networks = useAppSelector(selectSupportedNetworkList)
  const switchingTo = useAppSelector(selectSwitchingTo)
  const error = useAppSelector(selectWalletError)
  return (
    <Box>
      <p>This network is not supported. Please change your network to one of the networks below:</p>
      <Networks>
        {networks.map((n) => (
          <li key={n.chainId}>
            <Button
              $variant="secondary"
              $block
              disabled={switchingTo !== null}
              onClick={() => dispatch(switchChainRequested({ chainId: n.chainId }))}
            >
              <ChainIcon chainId={n.chainId} size={22} />
              {switchingTo === n.chainId ? 'Check your wallet…' : n.name}
            </Button>
          </li>
        ))}
      </Networks>
      {error && <Failure>{error}</Failure>}
    </Box>
  )
}
