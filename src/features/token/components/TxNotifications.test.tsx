import { act, screen, within } from '@testing-library/react'
import { renderWithProviders, walletState } from '../../../../test/support/render'
import { txConfirmed, txEnded, txFailed, txRejected, txReplaced, txRestored, txSubmitted } from '../../../chain/txActions'
import { TxNotifications } from './TxNotifications'

const setup = () =>
  renderWithProviders(<TxNotifications />, { preloadedState: { wallet: walletState({ networkId: 97, address: '0x1' }) } })

describe('transaction notifications', () => {
  it('shows in progress, then confirmed, with a link to the explorer of the chain it was sent on', () => {
    const { store } = setup()
    act(() => {
      store.dispatch(txSubmitted({ kind: 'stake', hash: '0xaaa', chainId: 97 }))
    })
    const notice = screen.getByText('Transaction in progress').closest('[role="status"]') as HTMLElement
    expect(within(notice).getByText('Stake')).toBeTruthy()
    expect(within(notice).getByRole('link', { name: 'View on BscScan' }).getAttribute('href')).toBe(
      'https://testnet.bscscan.com/tx/0xaaa',
    )
    act(() => {
      store.dispatch(txConfirmed({ kind: 'stake', hash: '0xaaa', receipt: { blockNumber: 5, status: 'success' } }))
    })
    expect(screen.getByText('Transaction confirmed')).toBeTruthy()
  })

  it('follows a replacement to its new hash and shows a failure with its reason', () => {
    const { store } = setup()
    act(() => {
      store.dispatch(txSubmitted({ kind: 'claim', hash: '0xold', chainId: 97 }))
    })
    act(() => {
      store.dispatch(txReplaced({ kind: 'claim', oldHash: '0xold', hash: '0xnew' }))
      store.dispatch(txFailed({ kind: 'claim', hash: '0xnew', message: 'The transaction was reverted.' }))
    })
    expect(screen.getByText('Transaction failed')).toBeTruthy()
    expect(screen.getByText('Claim: The transaction was reverted.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'View on BscScan' }).getAttribute('href')).toBe(
      'https://testnet.bscscan.com/tx/0xnew',
    )
  })

  it('says a restored transaction was sent before the page loaded, and how one that never ran ended', () => {
    const { store } = setup()
    act(() => {
      store.dispatch(txRestored({ kind: 'stake', hash: '0xccc', chainId: 97 }))
      store.dispatch(txSubmitted({ kind: 'unstake', hash: '0xddd', chainId: 97 }))
    })
    expect(screen.getByText('Stake (sent before this page loaded)')).toBeTruthy()
    act(() => {
      store.dispatch(txEnded({ kind: 'stake', hash: '0xccc', end: 'dropped', message: 'Gone.', restored: true }))
      store.dispatch(txEnded({ kind: 'unstake', hash: '0xddd', end: 'replaced', message: 'Cancelled.' }))
    })
    expect(screen.getByText('Transaction dropped').closest('[role="status"]')!.textContent).toContain(
      'Stake (sent before this page loaded): Gone.',
    )
    expect(screen.getByText('Transaction replaced').closest('[role="status"]')!.textContent).toContain('Close stake: Cancelled.')
    expect(screen.queryByText('Transaction in progress')).toBeNull()
  })

  it('closes a notice with its close control', async () => {
    const { store, user } = setup()
    act(() => {
      store.dispatch(txSubmitted({ kind: 'approve', hash: '0xbbb', chainId: 97 }))
    })
    await user.click(screen.getByRole('button', { name: 'Close notification' }))
    expect(store.getState().token.transactions).toEqual([])
    expect(screen.queryByText('Transaction in progress')).toBeNull()
  })

  it('shows a short notice for a rejection, with nothing pending', async () => {
    const { store, user } = setup()
    act(() => {
      store.dispatch(txRejected({ kind: 'stake', message: 'You rejected the transaction in your wallet.' }))
    })
    expect(screen.getByText('You rejected the transaction in your wallet.')).toBeTruthy()
    expect(screen.queryByRole('status', { name: 'Pending' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Close notification' }))
    expect(store.getState().token.rejection).toBeNull()
  })
})
