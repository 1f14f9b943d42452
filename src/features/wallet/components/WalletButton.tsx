import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { ChainIcon } from '../../../ui/icons'
import { selectNetworkId, selectWalletButton } from '../selectors'
import { modalOpened } from '../slice'

const Pill = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 10px;
  min-height: 44px;
  padding: 0 16px 0 10px;
  border-radius: 999px;
  border: 1px solid ${(p) => p.theme.color.border};
  background: ${(p) => p.theme.color.raised};
  color: ${(p) => p.theme.color.text};
  font-weight: 600;
  cursor: pointer;
  &:hover {
    border-color: ${(p) => p.theme.color.accent};
  }
`

const Lines = styled.span`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  line-height: 1.2;
  small {
    color: ${(p) => p.theme.color.muted};
    font-weight: 500;
    font-size: 0.75rem;
  }
`

const ConnectPill = styled(Pill)`
  padding: 0 18px;
  background: ${(p) => p.theme.color.accent};
  color: ${(p) => p.theme.color.accentText};
  border-color: transparent;
`

/** 'Connect Wallet', or the shortened address with the network name; either way it opens Choose Wallet. */
export function WalletButton() {
  const dispatch = useAppDispatch()
  const button = useAppSelector(selectWalletButton)
  const chainId = useAppSelector(selectNetworkId)
  const open = () => dispatch(modalOpened('chooseWallet'))
  if (!button.connected) return <ConnectPill onClick={open}>Connect Wallet</ConnectPill>
  return (
    // Named by what it shows ("label in name", WCAG 2.5.3): "Wallet 0xf3 ... 2266 Localhost".
    <Pill onClick={open}>
      <span className="visually-hidden">Wallet </span>
      <ChainIcon chainId={chainId} size={26} />
      <Lines>
        <span>{button.label}</span>
        <small>{button.networkName}</small>
      </Lines>
    </Pill>
  )
}
