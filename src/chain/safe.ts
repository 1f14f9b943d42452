import { dataSlice, id, Interface, type JsonRpcProvider } from 'ethers'
import { logsInRanges } from './logs'

/**
 * Safe multisig accounts (docs/product.md §11.4). A Safe does not send what it is asked to: the request becomes a
 * Safe transaction, identified by its safeTxHash, that runs once enough owners have confirmed it and one of them
 * executes it. Everything the app needs to follow one is here, for both ways a Safe reaches the app: as a Safe App
 * inside Safe{Wallet} (the SDK answers for the Safe: src/chain/safeApp.ts), and over WalletConnect, where only the
 * chain can tell (this file's on-chain reads).
 */

/** The Safe the app acts for: plain JSON for the store. */
export interface SafeAccount {
  address: string
  threshold: number
  owners: number
}

/** Where one Safe transaction stands. */
export interface SafeTxStatus {
  state: 'awaiting' | 'executed' | 'failed' | 'cancelled'
  /** Owners who have confirmed it so far; null where only the chain answers (its off-chain confirmations are unseen). */
  confirmations: number | null
  required: number
  /** The chain transaction that executed it, once one has. */
  txHash: string | null
}

/** One call of a Safe transaction. */
export interface SafeCall {
  to: string
  data: string
}

/** What Safe{Wallet} does for an app it hosts (src/chain/safeApp.ts implements it over the Safe Apps SDK). */
export interface SafeChannel {
  account: SafeAccount
  chainId: number
  /** Proposes the calls as one Safe transaction (a MultiSend batch when several); its safeTxHash. */
  propose(calls: SafeCall[]): Promise<string>
  status(safeTxHash: string): Promise<SafeTxStatus>
}

// The views of Safe 1.3 and later that the app reads, and their execution events (txHash indexed only from 1.5).
const SAFE_ABI = ['function getThreshold() view returns (uint256)', 'function getOwners() view returns (address[])']
const SUCCESS = id('ExecutionSuccess(bytes32,uint256)')
const FAILURE = id('ExecutionFailure(bytes32,uint256)')

/** The safeTxHash an execution event names: a topic from Safe 1.5 on, the first data word before it. */
const executedHash = (log: { topics: readonly string[]; data: string }): string =>
  (log.topics.length > 1 ? log.topics[1] : dataSlice(log.data, 0, 32)).toLowerCase()
export const safeInterface = new Interface(SAFE_ABI)

/** The Safe at `address`, or null when the account is not one (no code, or code that does not answer as a Safe). */
export async function readSafeAccount(provider: JsonRpcProvider, address: string): Promise<SafeAccount | null> {
  const code = await provider.getCode(address)
  if (code === '0x') return null
  try {
    const [threshold, owners] = await Promise.all([
      provider.call({ to: address, data: safeInterface.encodeFunctionData('getThreshold') }),
      provider.call({ to: address, data: safeInterface.encodeFunctionData('getOwners') }),
    ])
    return {
      address,
      threshold: Number(safeInterface.decodeFunctionResult('getThreshold', threshold)[0]),
      owners: (safeInterface.decodeFunctionResult('getOwners', owners)[0] as string[]).length,
    }
  } catch {
    // Another kind of contract account: it sends through its own wallet, followed as any other.
    return null
  }
}

/**
 * A Safe transaction as the chain tells it, for a Safe reached over WalletConnect (no Safe{Wallet} to ask): the
 * ExecutionSuccess or ExecutionFailure the Safe logged for `safeTxHash` from `fromBlock` to `toBlock` (in ranges,
 * logs.ts), else still awaiting its owners (how many have confirmed off-chain, only Safe{Wallet} knows).
 */
export async function safeTxOnChain(
  provider: JsonRpcProvider,
  account: SafeAccount,
  safeTxHash: string,
  fromBlock: number,
  toBlock: number,
): Promise<SafeTxStatus> {
  const logs = await logsInRanges(provider, { address: account.address, topics: [[SUCCESS, FAILURE]] }, fromBlock, toBlock)
  const wanted = safeTxHash.toLowerCase()
  for (const log of logs) {
    if (executedHash(log) !== wanted) continue
    return {
      state: log.topics[0] === SUCCESS ? 'executed' : 'failed',
      confirmations: account.threshold,
      required: account.threshold,
      txHash: log.transactionHash.toLowerCase(),
    }
  }
  return { state: 'awaiting', confirmations: null, required: account.threshold, txHash: null }
}
