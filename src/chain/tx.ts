import { call, delay, put, select } from 'redux-saga/effects'
import type { SagaIterator } from 'redux-saga'
import type { JsonRpcProvider, Signer, TransactionReceipt, TransactionResponse } from 'ethers'
import { timers } from '../app/config'
import { log } from '../app/log'
import { getChain } from '../app/sagaContext'
import type { RootState } from '../app/store'
import { isUserRejection, toUserMessage } from './errors'
import type { ChainLayer } from './layer'
import {
  txConfirmed,
  txFailed,
  txReplaced,
  txRequested,
  txRejected,
  txSubmitted,
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
}

interface SentTx {
  hash: string
  from: string
  nonce: number
}

/**
 * The transaction that took `sent`'s nonce, if one did: the wallet sped it up or cancelled it with the same nonce.
 * Looks only when the sender's mined nonce has moved past it, then scans the blocks mined since it was sent.
 */
export async function findReplacement(provider: JsonRpcProvider, sent: SentTx, fromBlock: number): Promise<string | null> {
  const mined = await provider.getTransactionCount(sent.from, 'latest')
  if (mined <= sent.nonce) return null
  const latest = await provider.getBlockNumber()
  for (let n = latest; n >= fromBlock; n--) {
    const block = await provider.getBlock(n, true)
    const tx = block?.prefetchedTransactions.find(
      (t) => t.from.toLowerCase() === sent.from.toLowerCase() && t.nonce === sent.nonce,
    )
    if (tx) return tx.hash
  }
  return null
}

const receiptInfo = (r: TransactionReceipt): TxReceiptInfo => ({
  blockNumber: r.blockNumber,
  status: r.status === 1 ? 'success' : 'reverted',
})

/** Polls for the receipt every RECEIPT_POLL_MS, following a replacement to its new hash. */
function* waitForReceipt(
  kind: TxKind,
  provider: JsonRpcProvider,
  sent: SentTx,
  fromBlock: number,
): SagaIterator<{ hash: string; receipt: TransactionReceipt }> {
  let hash = sent.hash
  while (true) {
    const receipt: TransactionReceipt | null = yield call([provider, provider.getTransactionReceipt], hash)
    if (receipt) return { hash, receipt }
    const replacement: string | null = yield call(findReplacement, provider, sent, fromBlock)
    if (replacement && replacement !== hash) {
      yield put(txReplaced({ kind, oldHash: hash, hash: replacement }))
      hash = replacement
      continue
    }
    yield delay(timers.RECEIPT_POLL_MS)
  }
}

/**
 * Sends one transaction from the connected wallet and follows it to its receipt. Every write in the app goes
 * through here, so the notification stack, rejection handling and replacement tracking are the same everywhere.
 * A rejection or a failed send returns ok: false (the spec's "returns false; message only logged").
 */
export function* runTx(kind: TxKind, send: (signer: Signer) => Promise<TransactionResponse>): SagaIterator<TxOutcome> {
  const chain: ChainLayer = yield getChain()
  const chainId: number | null = yield select((s: RootState) => s.wallet.networkId)
  yield put(txRequested({ kind }))
  let tx: TransactionResponse
  let provider: JsonRpcProvider
  let fromBlock: number
  try {
    if (chainId === null) throw new Error('No wallet is connected.')
    provider = chain.readProvider(chainId)
    fromBlock = yield call([provider, provider.getBlockNumber])
    const signer: Signer = yield call([chain.wallets, chain.wallets.signer])
    tx = yield call(send, signer)
  } catch (err) {
    if (isUserRejection(err)) {
      const message = 'You rejected the transaction in your wallet.'
      yield put(txRejected({ kind, message }))
      return { ok: false, hash: null, blockNumber: null, error: message, rejected: true }
    }
    log.error('tx', `${kind} was not sent`, err)
    const message = toUserMessage(err)
    yield put(txFailed({ kind, hash: null, message }))
    return { ok: false, hash: null, blockNumber: null, error: message }
  }
  yield put(txSubmitted({ kind, hash: tx.hash, chainId }))
  try {
    const { hash, receipt } = yield call(
      waitForReceipt,
      kind,
      provider,
      { hash: tx.hash, from: tx.from, nonce: tx.nonce },
      fromBlock,
    )
    if (receipt.status === 1) {
      yield put(txConfirmed({ kind, hash, receipt: receiptInfo(receipt) }))
      return { ok: true, hash, blockNumber: receipt.blockNumber, error: null }
    }
    const message = 'The transaction was reverted.'
    yield put(txFailed({ kind, hash, message, receipt: receiptInfo(receipt) }))
    return { ok: false, hash, blockNumber: receipt.blockNumber, error: message }
  } catch (err) {
    log.error('tx', `${kind} could not be followed`, err)
    const message = toUserMessage(err)
    yield put(txFailed({ kind, hash: tx.hash, message }))
    return { ok: false, hash: tx.hash, blockNumber: null, error: message }
  }
}
