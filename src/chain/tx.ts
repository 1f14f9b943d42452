import { all, call, delay, fork, put } from 'redux-saga/effects'
import type { SagaIterator } from 'redux-saga'
import type { JsonRpcProvider, JsonRpcSigner, TransactionReceipt, TransactionResponse } from 'ethers'
import { lists, timers } from '../config/timers'
import { log } from '../platform/log'
import { getChain, getEnv } from './sagaContext'
import type { BrowserEnv } from '../platform/browserEnv'
import { isUserRejection, toUserMessage } from './errors'
import type { ChainLayer } from './layer'
import { readSafeAccount, safeTxOnChain, type SafeAccount, type SafeTxStatus } from './safe'
import { entriesFor, forget, rehash, remember, type JournalEntry, type JournalLimits } from './txJournal'
import {
  txConfirmed,
  txEnded,
  txFailed,
  txReplaced,
  txRequested,
  txRejected,
  txNotKept,
  txRestored,
  txSubmitted,
  txAwaitingOwners,
  safeTxProposed,
  type TxKind,
  type TxReceiptInfo,
} from './txActions'

export interface TxOutcome {
  ok: boolean
  hash: string | null
  blockNumber: number | null
  /** A short message when it did not confirm (rejection, revert, RPC failure). */
  error: string | null
  /** The person declined it in the wallet: nothing was sent, whatever it was built from is still good. */
  rejected?: boolean
  /**
   * Proposed to a Safe's owners, not yet run (`hash` is its safeTxHash): nothing to wait for here; it is followed on
   * its own (followSafeTx) and its page refreshes when it runs.
   */
  proposed?: boolean
}

/** One contract call to send: the target and its calldata (`contract.interface.encodeFunctionData(...)`). */
export interface TxRequest {
  to: string
  data: string
}

/** Blocks a Safe's execution is looked for again after it was read past: a reorg this deep may replace them. */
const REORG_DEPTH = 12

/** What the wallet is given as gas limit: the simulation's estimate plus this share, for state that moves meanwhile. */
const GAS_MARGIN_PERCENT = 20n

export const MESSAGES = {
  rejected: 'You rejected the transaction in your wallet.',
  reverted: 'The transaction was reverted.',
  replaced: 'Your wallet sent another transaction in its place (a cancel), so this one did not run.',
  taken: 'It did not run: another transaction from your wallet took its place.',
  forgotten: 'It was never mined and the network no longer has it, so nothing was done. Send it again if you still want it.',
  safeCancelled: "The Safe's owners replaced it with another transaction (a rejection), so it did not run.",
  safeFailed: 'The Safe executed it, but the call inside failed, so nothing was done.',
}

const journalLimits = (): JournalLimits => ({ keepMs: timers.TX_KEEP_MS, maxEntries: lists.TX_KEPT_MAX })

/** A mined transaction as the node lists it in a block. */
interface MinedTx {
  hash: string
  to: string | null
  data: string
}

/**
 * The transaction that used `entry`'s nonce, found by a binary search over the sender's mined nonce between the
 * block before it was sent and the latest (about log2(blocks) reads however long ago that was), or null when the
 * node cannot say (one without old state answers only for recent blocks).
 */
export async function findNonceTaker(provider: JsonRpcProvider, entry: JournalEntry): Promise<MinedTx | null> {
  try {
    let lo = entry.fromBlock
    let hi = await provider.getBlockNumber()
    if ((await provider.getTransactionCount(entry.from, hi)) <= entry.nonce) return null
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if ((await provider.getTransactionCount(entry.from, mid)) > entry.nonce) hi = mid
      else lo = mid + 1
    }
    const block = await provider.getBlock(lo, true)
    const tx = block?.prefetchedTransactions.find((t) => t.from.toLowerCase() === entry.from && t.nonce === entry.nonce)
    return tx ? { hash: tx.hash.toLowerCase(), to: tx.to?.toLowerCase() ?? null, data: tx.data.toLowerCase() } : null
  } catch (err) {
    log.warn('tx', 'could not look for the transaction that took the nonce', err)
    return null
  }
}

const receiptInfo = (r: TransactionReceipt): TxReceiptInfo => ({
  blockNumber: r.blockNumber,
  status: r.status === 1 ? 'success' : 'reverted',
})

type Poll = [TransactionReceipt | null, number, TransactionResponse | null]

/**
 * Follows a sent transaction to its end, polling every RECEIPT_POLL_MS (the receipt, the sender's mined nonce and
 * whether the node knows it, in one batched request): mined (confirmed or reverted); sped up (another transaction
 * with its nonce and the same call: followed instead); replaced by a different one (a cancel); or dropped (its
 * nonce taken by nothing found, or the node forgot it while the nonce stayed free for TX_FORGOTTEN_MS). At its end
 * it leaves the journal. A read that fails is tried again: an outage is not an end.
 */
export function* followTx(entry: JournalEntry, restored: boolean): SagaIterator<TxOutcome> {
  const chain: ChainLayer = yield getChain()
  const env: BrowserEnv = yield getEnv()
  const provider = chain.readProvider(entry.chainId)
  const { kind } = entry
  let hash = entry.hash
  let unknownBefore = false
  let warned = false
  const end = (): void => forget(env.storage, hash, Date.now(), journalLimits())
  const flag = restored ? { restored: true } : {}
  for (;;) {
    let poll: Poll
    try {
      poll = yield all([
        call([provider, provider.getTransactionReceipt], hash),
        call([provider, provider.getTransactionCount], entry.from, 'latest'),
        call([provider, provider.getTransaction], hash),
      ])
    } catch (err) {
      if (!warned) log.warn('tx', `${kind} ${hash}: the node did not answer; still following`, err)
      warned = true
      yield delay(timers.RECEIPT_POLL_MS)
      continue
    }
    const [receipt, mined, known] = poll
    if (receipt) {
      end()
      chain.sawBlock(entry.chainId, receipt.blockNumber)
      if (receipt.status === 1) {
        yield put(txConfirmed({ kind, hash, receipt: receiptInfo(receipt), ...flag }))
        return { ok: true, hash, blockNumber: receipt.blockNumber, error: null }
      }
      yield put(txFailed({ kind, hash, message: MESSAGES.reverted, receipt: receiptInfo(receipt), ...flag }))
      return { ok: false, hash, blockNumber: receipt.blockNumber, error: MESSAGES.reverted }
    }
    if (mined > entry.nonce) {
      const taker: MinedTx | null = yield call(findNonceTaker, provider, entry)
      // Mined between the reads: the next poll has its receipt.
      if (taker?.hash === hash) continue
      if (taker && taker.to === entry.to && taker.data === entry.data) {
        yield put(txReplaced({ kind, oldHash: hash, hash: taker.hash }))
        rehash(env.storage, hash, taker.hash, Date.now(), journalLimits())
        hash = taker.hash
        continue
      }
      end()
      const message = taker ? MESSAGES.replaced : MESSAGES.taken
      yield put(txEnded({ kind, hash, end: taker ? 'replaced' : 'dropped', message, ...flag }))
      return { ok: false, hash, blockNumber: null, error: message }
    }
    // One answer without it may be a node behind the one the wallet sent to: only two in a row, when it is old, count.
    if (!known && unknownBefore && Date.now() - entry.sentAt >= timers.TX_FORGOTTEN_MS) {
      end()
      yield put(txEnded({ kind, hash, end: 'dropped', message: MESSAGES.forgotten, ...flag }))
      return { ok: false, hash, blockNumber: null, error: MESSAGES.forgotten }
    }
    unknownBefore = !known
    yield delay(timers.RECEIPT_POLL_MS)
  }
}

/** The gas limit the app sets on a transaction: the estimate plus a margin (fees.ts quotes with the same). */
export const withMargin = (gas: bigint) => gas + (gas * GAS_MARGIN_PERCENT) / 100n

/**
 * Sends one transaction from the connected wallet and follows it to its end. Every write in the app goes through
 * here, so simulation, the notification stack, rejection handling, the journal and replacement tracking are the same
 * everywhere. It is simulated first (eth_estimateGas from the sender, on the app's node): a revert comes back as its
 * decoded reason (errors.ts) before the wallet is asked, so the dialog that asked can say why. Once sent it is kept
 * in the browser until it ends, so a reload follows it again (resumeSentTxs; docs/product.md §11). `chainId` is
 * the wallet's network (null when none is connected): the caller reads it from the store, so this layer does not.
 */
export function* runTx(
  kind: TxKind,
  request: TxRequest | TxRequest[],
  chainId: number | null,
  opts: { atLeastBlock?: number } = {},
): SagaIterator<TxOutcome> {
  const chain: ChainLayer = yield getChain()
  const calls = Array.isArray(request) ? request : [request]
  yield put(txRequested({ kind }))
  let tx: TransactionResponse
  let fromBlock: number
  try {
    if (chainId === null) throw new Error('No wallet is connected.')
    const provider = chain.readProvider(chainId)
    // Inside Safe{Wallet} the Safe App channel proposes; elsewhere the wallet sends, and a Safe over WalletConnect
    // answers a send with a safeTxHash, which only the account's code tells apart.
    const channel = chain.wallets.safeChannel()
    const signer: JsonRpcSigner | null = channel ? null : yield call([chain.wallets, chain.wallets.signer])
    const from: string = channel ? channel.account.address : yield call([signer!, signer!.getAddress])
    const safe: SafeAccount | null = channel ? channel.account : yield call(readSafeAccount, provider, from)
    // Only Safe{Wallet} takes several calls as one (a MultiSend batch); a wallet over WalletConnect sends one each.
    if (!channel && calls.length > 1) throw new Error('Only a Safe open in Safe{Wallet} sends several calls as one transaction.')
    // The first call is simulated; in a batch the later ones build on it (a stake on its approval), which a plain
    // estimate cannot apply, so Safe{Wallet} simulates the whole batch before the owners sign.
    const [gas, latest]: [bigint, number] = yield call(simulateAtFloor, chain, chainId, {
      from,
      to: calls[0].to,
      data: calls[0].data,
      atLeastBlock: opts.atLeastBlock ?? 0,
    })
    fromBlock = latest
    if (safe) {
      const safeTxHash: string = channel
        ? yield call([channel, channel.propose], calls)
        : yield call([signer!, signer!.sendUncheckedTransaction], { to: calls[0].to, data: calls[0].data })
      return yield call(followProposal, kind, safe, calls[0], safeTxHash, chainId, fromBlock)
    }
    tx = yield call([signer!, signer!.sendTransaction], { to: calls[0].to, data: calls[0].data, gasLimit: withMargin(gas) })
  } catch (err) {
    if (isUserRejection(err)) {
      yield put(txRejected({ kind, message: MESSAGES.rejected }))
      return { ok: false, hash: null, blockNumber: null, error: MESSAGES.rejected, rejected: true }
    }
    // A refusal found by the simulation is the contract's answer, not a fault of the app: a warning.
    log.warn('tx', `${kind} was not sent`, err)
    const message = toUserMessage(err)
    yield put(txFailed({ kind, hash: null, message }))
    return { ok: false, hash: null, blockNumber: null, error: message }
  }
  const entry = journalEntry(kind, chainId, calls[0], fromBlock, { hash: tx.hash, from: tx.from, nonce: tx.nonce })
  yield put(txSubmitted({ kind, hash: tx.hash, chainId, from: entry.from, at: entry.sentAt }))
  yield call(keep, entry)
  return yield call(followTx, entry, false)
}

/**
 * The gas of `from` calling `to` with `data`, simulated on a node that has reached the newest block this app saw hold
 * something it did (an approval's receipt) and `atLeastBlock` (the block a signed claim names), with that node's block
 * number. Behind a load balancer the simulation and the block number go in one batch, so to one backend; one that
 * trails them is asked again (BEHIND_RETRY_MS, at most BEHIND_ATTEMPTS times) instead of refusing what the chain
 * would take ("approve first", "the claim is ahead of the chain").
 */
export function* simulateAtFloor(
  chain: ChainLayer,
  chainId: number,
  tx: { from: string; to: string; data: string; atLeastBlock: number },
): SagaIterator<[bigint, number]> {
  const provider = chain.readProvider(chainId)
  const floor = Math.max(chain.blockFloor(chainId), tx.atLeastBlock)
  const estimate = (): Promise<{ gas: bigint } | { error: unknown }> =>
    provider.estimateGas({ from: tx.from, to: tx.to, data: tx.data }).then(
      (gas) => ({ gas }),
      (error: unknown) => ({ error }),
    )
  for (let attempt = 1; ; attempt++) {
    const [sim, latest]: [{ gas: bigint } | { error: unknown }, number] = yield all([
      call(estimate),
      call([provider, provider.getBlockNumber]),
    ])
    if (latest >= floor || attempt >= timers.BEHIND_ATTEMPTS) {
      if ('error' in sim) throw sim.error
      return [sim.gas, latest]
    }
    yield delay(timers.BEHIND_RETRY_MS)
  }
}

/** What the journal keeps of a send: the call (its first, for a batch), who sent it, and the block before. */
function journalEntry(
  kind: TxKind,
  chainId: number,
  first: TxRequest,
  fromBlock: number,
  sent: { hash: string; from: string; nonce: number },
  safe = false,
): JournalEntry {
  return {
    hash: sent.hash.toLowerCase(),
    kind,
    chainId,
    from: sent.from.toLowerCase(),
    nonce: sent.nonce,
    to: first.to.toLowerCase(),
    data: first.data.toLowerCase(),
    sentAt: Date.now(),
    fromBlock,
    ...(safe ? { safe: true as const } : {}),
  }
}

/** Keeps a send in the browser; one it will not keep (storage full or blocked) would be lost on a reload: say so. */
function* keep(entry: JournalEntry): SagaIterator {
  const env: BrowserEnv = yield getEnv()
  if (!remember(env.storage, entry, Date.now(), journalLimits())) yield put(txNotKept({ hash: entry.hash }))
}

/**
 * A Safe transaction was proposed: kept like a sent one, and handed to the token saga, which follows it through its
 * owners to its end (safeTxProposed). The caller does not wait: owners take minutes or days, so the dialog that asked
 * closes now and the page refreshes itself when it runs, as for a transaction found again after a reload.
 */
function* followProposal(
  kind: TxKind,
  safe: SafeAccount,
  first: TxRequest,
  safeTxHash: string,
  chainId: number,
  fromBlock: number,
): SagaIterator<TxOutcome> {
  const hash = safeTxHash.toLowerCase()
  // The Safe's own nonce is not a sender's: a Safe transaction is never followed by nonce (followSafeTx).
  const entry = journalEntry(kind, chainId, first, fromBlock, { hash, from: safe.address, nonce: 0 }, true)
  yield put(txSubmitted({ kind, hash, chainId, safe: true, from: entry.from, at: entry.sentAt }))
  yield call(keep, entry)
  yield put(safeTxProposed({ entry }))
  return { ok: true, hash, blockNumber: null, error: null, proposed: true }
}

/**
 * Follows a Safe transaction (docs/product.md §11.4): while its owners confirm, the notice says how many have of how
 * many it needs (Safe{Wallet} tells, inside it; over WalletConnect only the chain answers, which sees the execution
 * but not the confirmations). It waits as long as the owners take: a Safe transaction is never dropped for waiting.
 * Once an owner executes it, the chain transaction that did is followed to its receipt. Cancelled in Safe{Wallet}
 * (another transaction took its Safe nonce), it ends as replaced.
 */
export function* followSafeTx(entry: JournalEntry): SagaIterator<TxOutcome> {
  const chain: ChainLayer = yield getChain()
  const env: BrowserEnv = yield getEnv()
  const provider = chain.readProvider(entry.chainId)
  const channel = chain.wallets.safeChannel()
  const { kind, hash } = entry
  // No dialog waits for a Safe transaction, proposed now or before a reload: its end refreshes the page itself.
  const flag = { restored: true }
  const end = (): void => forget(env.storage, hash, Date.now(), journalLimits())
  let account: SafeAccount | null = channel?.account ?? null
  // Over WalletConnect the Safe's events are read from here on: each poll reads only the blocks since the last one
  // (a Safe's owners may take days, and public RPCs cap a log read's range), save the last few, which a reorg could
  // replace.
  let scanFrom = entry.fromBlock
  let shown = ''
  let warned = false
  let status: SafeTxStatus
  for (;;) {
    try {
      account ??= yield call(readSafeAccount, provider, entry.from)
      if (!account) throw new Error(`${entry.from} does not answer as a Safe`)
      if (channel) status = yield call([channel, channel.status], hash)
      else {
        const head: number = yield call([provider, provider.getBlockNumber])
        status = yield call(safeTxOnChain, provider, account, hash, scanFrom, head)
        scanFrom = Math.max(scanFrom, head - REORG_DEPTH + 1)
      }
    } catch (err) {
      if (!warned) log.warn('tx', `${kind} ${hash}: the Safe's state could not be read; still following`, err)
      warned = true
      yield delay(timers.SAFE_POLL_MS)
      continue
    }
    if (status.state === 'cancelled') {
      end()
      yield put(txEnded({ kind, hash, end: 'replaced', message: MESSAGES.safeCancelled, ...flag }))
      return { ok: false, hash, blockNumber: null, error: MESSAGES.safeCancelled }
    }
    if (status.txHash) break
    const now = `${status.confirmations}/${status.required}`
    if (now !== shown) yield put(txAwaitingOwners({ kind, hash, confirmations: status.confirmations, required: status.required }))
    shown = now
    yield delay(timers.SAFE_POLL_MS)
  }
  const executed = status.txHash
  yield put(txReplaced({ kind, oldHash: hash, hash: executed }))
  for (;;) {
    let receipt: TransactionReceipt | null = null
    try {
      receipt = yield call([provider, provider.getTransactionReceipt], executed)
    } catch (err) {
      log.warn('tx', `${kind} ${executed}: no receipt yet; still following`, err)
    }
    if (receipt) {
      end()
      chain.sawBlock(entry.chainId, receipt.blockNumber)
      // The execution can succeed while the Safe's call failed inside it (ExecutionFailure): nothing was done.
      if (receipt.status === 1 && status.state === 'executed') {
        yield put(txConfirmed({ kind, hash: executed, receipt: receiptInfo(receipt), ...flag }))
        return { ok: true, hash: executed, blockNumber: receipt.blockNumber, error: null }
      }
      const message = receipt.status === 1 ? MESSAGES.safeFailed : MESSAGES.reverted
      yield put(txFailed({ kind, hash: executed, message, receipt: receiptInfo(receipt), ...flag }))
      return { ok: false, hash: executed, blockNumber: receipt.blockNumber, error: message }
    }
    yield delay(timers.RECEIPT_POLL_MS)
  }
}

/**
 * After a load (or an account change), the connected wallet's transactions on this chain that were sent before and
 * have not ended: each shows its notice again and is followed to its end like a new one. Those this page already
 * follows (`followed`, lower-case hashes) are left alone.
 */
export function* resumeSentTxs(chainId: number | null, address: string | null, followed: string[]): SagaIterator {
  const env: BrowserEnv = yield getEnv()
  if (chainId === null || !address) return
  const entries = entriesFor(env.storage, chainId, address, Date.now(), journalLimits())
  for (const e of entries) {
    if (followed.includes(e.hash)) continue
    yield put(
      txRestored({
        kind: e.kind,
        hash: e.hash,
        chainId: e.chainId,
        from: e.from,
        at: e.sentAt,
        ...(e.safe ? { safe: true } : {}),
      }),
    )
    if (e.safe) yield fork(followSafeTx, e)
    else yield fork(followTx, e, true)
  }
}
