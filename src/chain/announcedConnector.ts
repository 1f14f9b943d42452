import { EIP1193 } from '@web3-react/eip1193'

/**
 * The connector of a wallet that announced itself (EIP-6963): web3-react's EIP-1193 connector over that wallet's own
 * provider, so accounts, chain, sends and events all go through the wallet the person chose.
 */
export class AnnouncedConnector extends EIP1193 {
  /**
   * The account request. EIP1193's own activate falls back to eth_accounts when the person declines, which would leave
   * the Choose Wallet dialog waiting on nothing: a decline here reaches the connect saga as the wallet's error.
   */
  async activate(): Promise<void> {
    const cancel = this.actions.startActivation()
    try {
      const accounts = (await this.provider.request({ method: 'eth_requestAccounts' })) as string[]
      const chainId = (await this.provider.request({ method: 'eth_chainId' })) as string | number
      this.actions.update({ accounts, chainId: typeof chainId === 'string' ? Number.parseInt(chainId, 16) : chainId })
    } catch (err) {
      cancel()
      throw err
    }
  }

  deactivate(): void {
    this.actions.resetState()
  }
}
