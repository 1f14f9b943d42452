import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { isBuiltinWallet, type BuiltinWalletName, type WalletOption } from '../../../chain/wallets'
import { Button } from '../../../ui/Button'
import { ErrorText } from '../../../ui/ErrorText'
import {
  BrowserWalletLogo,
  ConnectionProtocolLogo,
  DevAccountLogo,
  HardwareWalletLogo,
  MobileWalletLogo,
  MultisigLogo,
} from '../../../ui/icons'
import { Modal } from '../../../ui/Modal'
import { selectChooserAction, selectWallet } from '../selectors'
import { connectRequested, disconnectRequested, modalClosed, walletSelected } from '../slice'

const LOGOS: Record<BuiltinWalletName, typeof BrowserWalletLogo> = {
  browser: BrowserWalletLogo,
  mobile: MobileWalletLogo,
  walletconnect: ConnectionProtocolLogo,
  dev: DevAccountLogo,
  safe: MultisigLogo,
}

/** An announced wallet's own icon (a data URI, as an image: never markup of the wallet's), or the spec's logo. */
const Icon = styled.img`
  width: 36px;
  height: 36px;
  object-fit: contain;
  border-radius: 8px;
`

function OptionLogo({ option }: { option: WalletOption }) {
  if (option.icon) return <Icon src={option.icon} alt="" />
  const Logo = isBuiltinWallet(option.name) ? LOGOS[option.name] : BrowserWalletLogo
  return <Logo size={36} />
}

const List = styled.div`
  display: grid;
  gap: 10px;
  margin-bottom: 18px;
`

const Option = styled.label<{ $checked: boolean; $unavailable: boolean }>`
  display: grid;
  grid-template-columns: 36px 1fr;
  gap: 12px;
  align-items: center;
  padding: 12px 14px;
  border-radius: 10px;
  border: 2px solid ${(p) => (p.$checked ? p.theme.color.accent : p.theme.color.border)};
  background: ${(p) => p.theme.color.raised};
  cursor: pointer;
  > svg,
  > img,
  strong {
    opacity: ${(p) => (p.$unavailable ? 0.55 : 1)};
  }
  input {
    position: absolute;
    opacity: 0;
    pointer-events: none;
  }
  &:focus-within {
    outline: 3px solid ${(p) => p.theme.color.focus};
    outline-offset: 2px;
  }
  strong {
    display: block;
  }
  small {
    color: ${(p) => p.theme.color.muted};
  }
`

const Note = styled.small`
  display: block;
  margin-top: 4px;
  color: ${(p) => p.theme.color.warning};
`

const Failure = styled(ErrorText)`
  margin: 0 0 12px;
  font-size: 1rem;
`

const Footer = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  margin-top: 16px;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.85rem;
`

/** 'Choose Wallet' (docs/product.md §2.2): pick an option, then Continue, or Disconnect for the connected one. */
export function ChooseWalletDialog() {
  const dispatch = useAppDispatch()
  const wallet = useAppSelector(selectWallet)
  const action = useAppSelector(selectChooserAction)
  const act = () => {
    if (!wallet.selected) return
    dispatch(action.disconnect ? disconnectRequested() : connectRequested(wallet.selected))
  }
  return (
    <Modal title="Choose Wallet" onClose={() => dispatch(modalClosed())}>
      <List role="radiogroup" aria-label="Wallets">
        {wallet.options.map((o) => {
          const checked = wallet.selected === o.name
          return (
            <Option key={o.name} $checked={checked} $unavailable={!!o.unavailable}>
              <input
                type="radio"
                name="wallet"
                value={o.name}
                checked={checked}
                onChange={() => dispatch(walletSelected(o.name))}
              />
              <OptionLogo option={o} />
              <span>
                <strong>
                  {o.label}
                  {wallet.wallet.connected && wallet.wallet.name === o.name ? ' (connected)' : ''}
                </strong>
                <small>{o.description}</small>
                {o.unavailable && <Note>{o.unavailable}</Note>}
                {o.deepLink && (
                  <Note>
                    <a href={o.deepLink}>Open in the MetaMask app</a>
                  </Note>
                )}
              </span>
            </Option>
          )
        })}
      </List>
      {wallet.error && <Failure>{wallet.error}</Failure>}
      <Button $block disabled={action.disabled} onClick={act}>
        {wallet.connecting ? 'Check your wallet…' : action.label}
      </Button>
      <Footer>
        <HardwareWalletLogo size={28} />
        <span>Hardware wallets connect through your browser wallet or WalletConnect.</span>
      </Footer>
    </Modal>
  )
}
