import type { SagaIterator } from 'redux-saga'
import { all, call } from 'redux-saga/effects'
import type { FeeData, Signer } from 'ethers'
import { toUserMessage } from './errors'
import type { ChainLayer } from './layer'
import { getChain } from './sagaContext'
import { simulateAtFloor, withMargin, type TxRequest } from './tx'

/**
 * The network fee of `request` from the connected wallet, before anything is signed (docs/product.md §4.4): the same
 * simulation runTx makes (eth_estimateGas from the sender), the fee per gas now, and the sender's balance, in one
 * round of reads. `fee` = estimate × gas price, what the sender should expect to pay; `need` = the gas limit runTx
 * sets × the most per gas the transaction may pay (maxFeePerGas on an EIP-1559 network), what the wallet checks the
 * balance against before it sends. A refusal or an unreachable node gives its reason instead.
 */
/** A quote in wei (decimal strings), or why there is none. */
export type FeeFigures = { fee: string; need: string; balance: string } | { error: string }

export function* quoteFee(request: TxRequest, chainId: number): SagaIterator<FeeFigures> {
  const chain: ChainLayer = yield getChain()
  try {
    const provider = chain.readProvider(chainId)
    const signer: Signer = yield call([chain.wallets, chain.wallets.signer])
    const from: string = yield call([signer, signer.getAddress])
    // The gas as a node that has reached this app's last transaction (an approval) sees it: simulateAtFloor.
    const [[gas], feeData, balance]: [[bigint, number], FeeData, bigint] = yield all([
      call(simulateAtFloor, chain, chainId, { from, to: request.to, data: request.data, atLeastBlock: 0 }),
      call([provider, provider.getFeeData]),
      call([provider, provider.getBalance], from),
    ])
    const price = feeData.gasPrice ?? feeData.maxFeePerGas ?? 0n
    const most = feeData.maxFeePerGas ?? price
    return { fee: (gas * price).toString(), need: (withMargin(gas) * most).toString(), balance: balance.toString() }
  } catch (err) {
    return { error: toUserMessage(err) }
  }
}
