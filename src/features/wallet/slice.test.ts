import reducer, {
  connectFailed,
  connectRequested,
  initialWalletState,
  modalClosed,
  modalOpened,
  networkNamed,
  switchChainRequested,
  switchChainSettled,
  walletChanged,
} from './slice'

const connected = reducer(
  { ...initialWalletState, openModal: 'chooseWallet', connecting: true },
  walletChanged({ name: 'browser', account: '0xAbC', chainId: 97, networkName: 'BNB Smart Chain Testnet' }),
)

describe('wallet slice', () => {
  it('records a connection and closes the wallet dialogs', () => {
    expect(connected).toMatchObject({
      address: '0xAbC',
      networkId: 97,
      networkName: 'BNB Smart Chain Testnet',
      wallet: { name: 'browser', connected: true },
      connecting: false,
      openModal: null,
    })
  })

  it('keeps a feature modal open across a wallet change', () => {
    const s = reducer(
      { ...connected, openModal: 'deposit' },
      walletChanged({ name: 'browser', account: '0xDef', chainId: 97, networkName: 'x' }),
    )
    expect(s.openModal).toBe('deposit')
  })

  it('preselects the connected wallet when the chooser opens, and resets on close', () => {
    const open = reducer(connected, modalOpened('chooseWallet'))
    expect(open.selected).toBe('browser')
    const failed = reducer(reducer(open, connectRequested('mobile')), connectFailed({ message: 'no' }))
    expect(failed).toMatchObject({ connecting: false, error: 'no' })
    expect(reducer(failed, modalClosed())).toMatchObject({ openModal: null, error: null, connecting: false })
  })

  it('names a chain only while the wallet is still on it', () => {
    expect(reducer(connected, networkNamed({ chainId: 97, name: 'BSC test' })).networkName).toBe('BSC test')
    expect(reducer(connected, networkNamed({ chainId: 1, name: 'Ethereum' })).networkName).toBe('BNB Smart Chain Testnet')
  })

  it('tracks a switch request until the wallet answers', () => {
    const asking = reducer(connected, switchChainRequested({ chainId: 4 }))
    expect(asking.switchingTo).toBe(4)
    expect(reducer(asking, switchChainSettled({ error: 'rejected' }))).toMatchObject({ switchingTo: null, error: 'rejected' })
  })
})
