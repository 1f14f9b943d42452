import { Connector, type Actions, type RequestArguments } from '@web3-react/types'
import { EventedProvider, jsonRpc } from './eip1193'

/**
 * A wallet for the local chain only: the Hardhat node holds unlocked development accounts and signs for them, so a
 * newcomer without a wallet extension can try every flow. Requests go to the node as they are, except that the
 * account request answers with the chosen development account.
 */
export class NodeAccountProvider extends EventedProvider {
  constructor(
    private readonly rpcUrl: string,
    private readonly accountIndex = 0,
  ) {
    super()
  }

  async request({ method, params }: RequestArguments): Promise<unknown> {
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') {
      const accounts = (await jsonRpc(this.rpcUrl, 'eth_accounts')) as string[]
      return accounts.slice(this.accountIndex, this.accountIndex + 1)
    }
    return jsonRpc(this.rpcUrl, method, params ?? [])
  }
}

export class DevAccountConnector extends Connector {
  declare provider: NodeAccountProvider

  constructor(actions: Actions, rpcUrl: string, accountIndex = 0) {
    super(actions)
    this.provider = new NodeAccountProvider(rpcUrl, accountIndex)
  }

  async activate(): Promise<void> {
    const cancel = this.actions.startActivation()
    try {
      const [accounts, chainId] = await Promise.all([
        this.provider.request({ method: 'eth_requestAccounts' }) as Promise<string[]>,
        this.provider.request({ method: 'eth_chainId' }) as Promise<string>,
      ])
      this.actions.update({ accounts, chainId: Number(chainId) })
    } catch (err) {
      cancel()
      throw err
    }
  }

  async connectEagerly(): Promise<void> {
    try {
      await this.activate()
    } catch {
      this.actions.resetState()
    }
  }

  deactivate(): void {
    this.actions.resetState()
  }
}
