import SafeAppsSDK, { TransactionStatus, type GatewayTransactionDetails, type SafeInfo } from '@safe-global/safe-apps-sdk'
import { SafeAppProvider } from '@safe-global/safe-apps-provider'
import { EIP1193 } from '@web3-react/eip1193'
import type { SafeChannel, SafeTxStatus } from './safe'

/**
 * The app as a Safe App inside Safe{Wallet} (docs/product.md §11.4): Safe's Apps SDK and its EIP-1193 provider. Its
 * own lazy chunk ("safe"), loaded only in a frame, so no other visit pays for the SDK.
 */

/** A Safe{Wallet} that answered: the provider the connector uses, and the channel sends go through. */
export interface SafeApp {
  provider: SafeAppProvider
  channel: SafeChannel
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** How a Safe transaction stands, from Safe{Wallet}'s own record of it. */
export function statusOf(details: GatewayTransactionDetails, threshold: number): SafeTxStatus {
  const info = details.detailedExecutionInfo
  const multisig = info?.type === 'MULTISIG' ? info : null
  const state: SafeTxStatus['state'] =
    details.txStatus === TransactionStatus.SUCCESS
      ? 'executed'
      : details.txStatus === TransactionStatus.FAILED
        ? 'failed'
        : details.txStatus === TransactionStatus.CANCELLED
          ? 'cancelled'
          : 'awaiting'
  return {
    state,
    confirmations: multisig ? multisig.confirmations.length : null,
    required: multisig?.confirmationsRequired ?? threshold,
    txHash: details.txHash ? details.txHash.toLowerCase() : null,
  }
}

/**
 * Asks the parent window whether it is Safe{Wallet}: the Safe's details, or null when no allowed origin answers
 * within `waitMs` (a page framed by something else, or not a Safe at all).
 */
export async function connectSafeApp(allowedOrigins: string[], waitMs: number): Promise<SafeApp | null> {
  const sdk = new SafeAppsSDK({ allowedDomains: allowedOrigins.map((o) => new RegExp(`^${escapeRegExp(o)}$`)) })
  let timer: ReturnType<typeof setTimeout> | undefined
  const info: SafeInfo | null = await Promise.race([
    sdk.safe.getInfo(),
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs))),
  ]).finally(() => clearTimeout(timer))
  if (!info) return null
  const account = { address: info.safeAddress, threshold: info.threshold, owners: info.owners.length }
  return {
    provider: new SafeAppProvider(info, sdk),
    channel: {
      account,
      chainId: info.chainId,
      async propose(calls) {
        const { safeTxHash } = await sdk.txs.send({ txs: calls.map((c) => ({ to: c.to, value: '0', data: c.data })) })
        return safeTxHash.toLowerCase()
      },
      async status(safeTxHash) {
        return statusOf(await sdk.txs.getBySafeTxHash(safeTxHash), account.threshold)
      },
    },
  }
}

/**
 * web3-react's EIP-1193 connector over the Safe App provider. A Safe App is connected by being opened: no account
 * request (the provider has none), just the Safe's address and chain.
 */
export class SafeAppConnector extends EIP1193 {
  async activate(): Promise<void> {
    const cancel = this.actions.startActivation()
    try {
      const accounts = (await this.provider.request({ method: 'eth_accounts' })) as string[]
      const chainId = (await this.provider.request({ method: 'eth_chainId' })) as string
      this.actions.update({ accounts, chainId: Number.parseInt(chainId, 16) })
    } catch (err) {
      cancel()
      throw err
    }
  }

  async connectEagerly(): Promise<void> {
    await this.activate()
  }

  deactivate(): void {
    this.actions.resetState()
  }
}
