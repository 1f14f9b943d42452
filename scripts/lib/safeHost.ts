import path from 'node:path'
import fs from 'node:fs'
import { JsonRpcProvider, Network, ZeroAddress, dataLength, getAddress, id, isHexString, type BaseWallet } from 'ethers'
import type { BrowserContext, Frame, Page } from 'playwright-core'
import type { ChainInfo, EnvironmentInfo, SafeInfoExtended } from '@safe-global/safe-apps-sdk'
import {
  CALL,
  encodeMultiSendTransactions,
  executeSafeTx,
  safeNonce,
  safeOwners,
  safeState,
  safeThreshold,
  safeTxFor,
  safeTxHash,
  signSafeTx,
  type SafeCall,
  type SafeSignature,
  type SafeTx,
} from './safe'

/**
 * A stand-in for Safe{Wallet} that runs the app as a Safe App against a real Safe on the test node: a page at
 * https://app.safe.global/apps/open (served by page.route, no network) embeds the app in an iframe and relays the Safe
 * Apps SDK's postMessage requests to this process, which answers them as Safe{Wallet} does (the formats of
 * @safe-global/safe-apps-sdk 9.1.0 and, for getTxBySafeTxHash, the gateway's TransactionDetails). Transactions the app
 * sends become proposals signed by the first owner; the test confirms them with the other owners and executes them.
 */

/** The host page's origin: Safe{Wallet}'s own, so the app's CSP frame-ancestors and SDK allowedDomains see the real one. */
export const SAFE_HOST_ORIGIN = 'https://app.safe.global'
/** The name (and id) of the iframe that holds the app. */
export const SAFE_APP_FRAME = 'safe-app'
/** What Safe{Wallet} answers when the person closes the transaction dialog instead of signing. */
export const REJECT_TRANSACTION_MESSAGE = 'Transaction was rejected'

/** The installed SDK's version, sent with every answer as Safe{Wallet} sends its own (the SDK wants major >= 1). */
const SDK_VERSION = (
  JSON.parse(
    fs.readFileSync(path.join(path.dirname(require.resolve('@safe-global/safe-apps-sdk')), '..', '..', 'package.json'), 'utf8'),
  ) as { version: string }
).version

export interface SafeHostOptions {
  /** The app's URL, loaded in the iframe. */
  appUrl: string
  /** The node's JSON-RPC URL: rpcCall goes there, and the host reads the Safe and executes through it. */
  chainUrl: string
  chainId: number
  safe: string
  /** The Safe's owners; owners[0] is the person using Safe{Wallet}: it proposes, and its signature comes with each proposal. */
  owners: BaseWallet[]
  threshold: number
  /** Sends execTransaction (connected to chainUrl unless it has a provider). */
  executor: BaseWallet
  /** MultiSendCallOnly, for the batches (sendTransactions with several txs). Without it a batch is answered with an error. */
  multiSendCallOnly?: string
  /** getChainInfo's answer, over the defaults (Hardhat, ETH). */
  chainInfo?: Partial<ChainInfo>
}

/** One request the app sent, as received. */
export interface SafeHostRequest {
  method: string
  params: unknown
  at: number
  /** The answer: data, or the error message. */
  result?: unknown
  error?: string
}

/** A transaction as the app sent it in sendTransactions, normalized: `to` checksummed, `value` in decimal. */
export interface ProposedCall {
  to: string
  value: string
  data: string
}

export interface SafeProposal {
  safeTxHash: string
  txs: ProposedCall[]
  /** sendTransactions' `params` (safeTxGas), as sent. */
  params: unknown
  tx: SafeTx
  /** Owners who signed, in the order they did (owners[0] first). */
  confirmations: string[]
  signatures: (SafeSignature & { submittedAt: number })[]
  submittedAt: number
  executedHash: string | null
  /** Block time of the execution, in ms (as the gateway's executedAt). */
  executedAt: number | null
  executor: string | null
}

/** Gateway AddressEx. */
interface AddressEx {
  value: string
}

/**
 * The gateway's TransactionDetails (safe-gateway-typescript-sdk, used by the SDK as GatewayTransactionDetails), as
 * plain strings where the SDK types have enums: what getTxBySafeTxHash answers.
 */
export interface SafeTxDetails {
  safeAddress: string
  txId: string
  executedAt: number | null
  txStatus: 'AWAITING_CONFIRMATIONS' | 'AWAITING_EXECUTION' | 'CANCELLED' | 'FAILED' | 'SUCCESS'
  txInfo: {
    type: 'Custom'
    to: AddressEx
    dataSize: string
    value: string
    methodName: string | null
    actionCount: number | null
    isCancellation: boolean
  }
  txData: {
    hexData: string | null
    dataDecoded: {
      method: string
      parameters: {
        name: string
        type: string
        value: string
        valueDecoded: { operation: number; to: string; value: string; data: string | null; dataDecoded: null }[]
      }[]
    } | null
    to: AddressEx
    value: string
    operation: number
    trustedDelegateCallTarget: boolean
    addressInfoIndex: Record<string, AddressEx>
  }
  txHash: string | null
  detailedExecutionInfo: {
    type: 'MULTISIG'
    submittedAt: number
    nonce: number
    safeTxGas: string
    baseGas: string
    gasPrice: string
    gasToken: string
    refundReceiver: AddressEx
    safeTxHash: string
    executor: AddressEx | null
    signers: AddressEx[]
    confirmationsRequired: number
    confirmations: { signer: AddressEx; signature: string; submittedAt: number }[]
    rejectors: AddressEx[]
    gasTokenInfo: null
    trusted: boolean
    proposer: AddressEx
    proposedByDelegate: null
  }
  safeAppInfo: { name: string; url: string; logoUri: string } | null
  note: null
}

/** An SDK request as the host page relays it (MessageFormatter.makeRequest). */
interface RelayedRequest {
  id: string
  method: string
  params: unknown
  env?: { sdkVersion?: string } | null
}

/** MessageFormatter.makeResponse / makeErrorResponse. */
type SdkResponse =
  { id: string; success: true; data: unknown; version: string } | { id: string; success: false; error: string; version: string }

type Answer = (params: unknown) => unknown

const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * The Node side of the host, usable without a browser: `handle` takes an SDK request and gives the SDK response.
 * openSafeHost wires it to the page.
 */
export class SafeHostBackend {
  readonly provider: JsonRpcProvider
  readonly safe: string
  private readonly list: SafeProposal[] = []
  private readonly log: SafeHostRequest[] = []
  private readonly waiters = new Set<() => void>()
  private readonly overrides = new Map<string, Answer>()
  private rejections: string[] = []
  /** Proposals and executions run one at a time, so each proposal's nonce counts the ones before it. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false
  private rpcId = 0

  constructor(readonly opts: SafeHostOptions) {
    this.provider = new JsonRpcProvider(opts.chainUrl, opts.chainId, { staticNetwork: Network.from(opts.chainId) })
    this.safe = getAddress(opts.safe)
  }

  /** Checks the Safe on the chain is the one described: every given owner an owner, the threshold as given. */
  async verify() {
    const [owners, threshold] = await Promise.all([safeOwners(this.provider, this.safe), safeThreshold(this.provider, this.safe)])
    const missing = this.opts.owners.map((o) => getAddress(o.address)).filter((o) => !owners.includes(o))
    if (missing.length)
      throw new Error(`not owners of the Safe ${this.safe}: ${missing.join(', ')} (owners: ${owners.join(', ')})`)
    if (threshold !== this.opts.threshold)
      throw new Error(`the Safe ${this.safe} has threshold ${threshold}, not ${this.opts.threshold}`)
  }

  /** Answers one SDK request; never throws (an error becomes an error response). */
  async handle(req: RelayedRequest): Promise<SdkResponse> {
    const entry: SafeHostRequest = { method: String(req.method), params: req.params, at: Date.now() }
    this.log.push(entry)
    try {
      const data = await this.answer(entry.method, req.params)
      entry.result = data
      return { id: req.id, success: true, data: data === undefined ? null : data, version: SDK_VERSION }
    } catch (e) {
      entry.error = errorMessage(e)
      return { id: req.id, success: false, error: entry.error, version: SDK_VERSION }
    } finally {
      // A request answered may be the proposal a test waits for.
      for (const w of [...this.waiters]) w()
    }
  }

  private answer(method: string, params: unknown): unknown {
    const override = this.overrides.get(method)
    if (override) return override(params)
    switch (method) {
      case 'getSafeInfo':
        return this.safeInfo()
      case 'getChainInfo':
        return this.chainInfo()
      case 'getEnvironmentInfo':
        return { origin: SAFE_HOST_ORIGIN } satisfies EnvironmentInfo
      case 'rpcCall':
        return this.rpcCall(params)
      case 'sendTransactions':
        return this.sendTransactions(params)
      case 'getTxBySafeTxHash':
        return this.txBySafeTxHash(params)
      case 'signMessage':
      case 'signTypedMessage':
        throw new Error(`${method} is not supported by this host`)
      default:
        throw new Error(`${method} is not supported by this host (unknown method)`)
    }
  }

  private async safeInfo(): Promise<SafeInfoExtended> {
    const s = await safeState(this.provider, this.safe)
    return {
      safeAddress: s.address,
      chainId: this.opts.chainId,
      threshold: s.threshold,
      owners: s.owners,
      isReadOnly: false,
      nonce: Number(s.nonce),
      implementation: s.implementation,
      modules: s.modules,
      fallbackHandler: s.fallbackHandler,
      guard: s.guard,
      version: s.version,
    }
  }

  private chainInfo(): ChainInfo {
    return {
      chainName: 'Hardhat',
      chainId: String(this.opts.chainId),
      shortName: 'hh',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18, logoUri: '' },
      blockExplorerUriTemplate: {
        address: 'https://explorer.invalid/address/{{address}}',
        txHash: 'https://explorer.invalid/tx/{{txHash}}',
        api: 'https://explorer.invalid/api?module={{module}}&action={{action}}&address={{address}}&apiKey={{apiKey}}',
      },
      ...this.opts.chainInfo,
    }
  }

  private async rpcCall(params: unknown) {
    const { call, params: args } = (params ?? {}) as { call?: unknown; params?: unknown }
    if (typeof call !== 'string') throw new Error('rpcCall without a call')
    // Safe{Wallet} keeps the app's settings itself; this host signs nothing off-chain.
    if (call === 'safe_setSettings') {
      const [settings] = (Array.isArray(args) ? args : []) as { offChainSigning?: boolean }[]
      return { ...settings, offChainSigning: false }
    }
    return this.relayRpc(call, Array.isArray(args) ? args : [])
  }

  /** One JSON-RPC request to the node as it is; a JSON-RPC error becomes an Error with the node's own message. */
  private async relayRpc(method: string, params: unknown[]) {
    const res = await fetch(this.opts.chainUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.rpcId, method, params }),
    })
    const text = await res.text()
    let body: { result?: unknown; error?: { code?: number; message?: string } }
    try {
      body = JSON.parse(text)
    } catch {
      throw new Error(`${method}: the node answered ${res.status} ${text.slice(0, 200)}`)
    }
    if (body.error) throw new Error(body.error.message ?? `${method} failed with code ${body.error.code}`)
    return body.result ?? null
  }

  private normalize(raw: unknown, i: number): ProposedCall {
    const t = (raw ?? {}) as { to?: unknown; value?: unknown; data?: unknown }
    if (typeof t.to !== 'string') throw new Error(`transaction #${i} has no "to"`)
    const data = t.data == null || t.data === '' ? '0x' : t.data
    if (typeof data !== 'string' || !isHexString(data)) throw new Error(`transaction #${i} has data that is not hex`)
    const value = t.value == null || t.value === '' ? 0n : BigInt(t.value as string | number)
    return { to: getAddress(t.to), value: value.toString(), data }
  }

  private async sendTransactions(params: unknown) {
    const p = (params ?? {}) as { txs?: unknown; params?: unknown }
    if (!Array.isArray(p.txs) || p.txs.length === 0) throw new Error('No transactions were passed')
    const txs = p.txs.map((t, i) => this.normalize(t, i))
    const rejection = this.rejections.shift()
    if (rejection !== undefined) throw new Error(rejection)
    if (txs.length > 1 && !this.opts.multiSendCallOnly)
      throw new Error('a batch needs MultiSendCallOnly: pass multiSendCallOnly to openSafeHost')
    return this.serial(async () => {
      const onChain = await safeNonce(this.provider, this.safe)
      const pending = this.list.filter((x) => x.executedHash === null && x.tx.nonce >= onChain).length
      const calls: SafeCall[] = txs.map((t) => ({ to: t.to, value: BigInt(t.value), data: t.data }))
      const tx = safeTxFor(
        { multiSendCallOnly: this.opts.multiSendCallOnly ?? ZeroAddress },
        this.safe,
        calls,
        onChain + BigInt(pending),
      )
      const hash = safeTxHash(this.opts.chainId, this.safe, tx)
      const proposer = this.opts.owners[0]
      const now = Date.now()
      const signature = await signSafeTx(proposer, this.opts.chainId, this.safe, tx)
      this.list.push({
        safeTxHash: hash,
        txs,
        params: p.params,
        tx,
        confirmations: [getAddress(proposer.address)],
        signatures: [{ owner: getAddress(proposer.address), signature, submittedAt: now }],
        submittedAt: now,
        executedHash: null,
        executedAt: null,
        executor: null,
      })
      return { safeTxHash: hash }
    })
  }

  /** Records the execution of `p` from the Safe's ExecutionSuccess event naming it (its txHash is indexed from 1.5). */
  private async findExecution(p: SafeProposal) {
    const logs = await this.provider.getLogs({
      address: this.safe,
      topics: [id('ExecutionSuccess(bytes32,uint256)'), p.safeTxHash],
      fromBlock: 0,
      toBlock: 'latest',
    })
    const log = logs[0]
    if (!log || p.executedHash) return
    const block = await this.provider.getBlock(log.blockNumber)
    Object.assign(p, { executedHash: log.transactionHash, executedAt: (block?.timestamp ?? 0) * 1000 })
  }

  private async txBySafeTxHash(params: unknown): Promise<SafeTxDetails> {
    const { safeTxHash: wanted } = (params ?? {}) as { safeTxHash?: unknown }
    const p = typeof wanted === 'string' ? this.find(wanted) : undefined
    if (!p) throw new Error(`No MultisigTransaction matches the given query (safeTxHash ${String(wanted)})`)
    const [onChain, threshold, owners] = await Promise.all([
      safeNonce(this.provider, this.safe),
      safeThreshold(this.provider, this.safe),
      safeOwners(this.provider, this.safe),
    ])
    // Its nonce used: by this transaction (an execution this host has not recorded yet, e.g. an ask that lands while
    // execute() still waits for the receipt), or by another one, which cancelled it.
    if (!p.executedHash && onChain > p.tx.nonce) await this.findExecution(p)
    const status: SafeTxDetails['txStatus'] = p.executedHash
      ? 'SUCCESS'
      : onChain > p.tx.nonce
        ? 'CANCELLED'
        : p.confirmations.length >= threshold
          ? 'AWAITING_EXECUTION'
          : 'AWAITING_CONFIRMATIONS'
    const batch = p.tx.operation !== CALL
    const calls = p.txs.map((t) => ({ to: t.to, value: BigInt(t.value), data: t.data }))
    const address = (value: string): AddressEx => ({ value })
    return {
      safeAddress: this.safe,
      txId: `multisig_${this.safe}_${p.safeTxHash}`,
      executedAt: p.executedAt,
      txStatus: status,
      txInfo: {
        type: 'Custom',
        to: address(p.tx.to),
        dataSize: String(dataLength(p.tx.data)),
        value: p.tx.value.toString(),
        methodName: batch ? 'multiSend' : null,
        actionCount: batch ? p.txs.length : null,
        isCancellation: false,
      },
      txData: {
        hexData: p.tx.data === '0x' ? null : p.tx.data,
        dataDecoded: batch
          ? {
              method: 'multiSend',
              parameters: [
                {
                  name: 'transactions',
                  type: 'bytes',
                  value: encodeMultiSendTransactions(calls),
                  valueDecoded: p.txs.map((t) => ({
                    operation: CALL,
                    to: t.to,
                    value: t.value,
                    data: t.data === '0x' ? null : t.data,
                    dataDecoded: null,
                  })),
                },
              ],
            }
          : null,
        to: address(p.tx.to),
        value: p.tx.value.toString(),
        operation: p.tx.operation,
        trustedDelegateCallTarget: batch,
        addressInfoIndex: {},
      },
      txHash: p.executedHash,
      detailedExecutionInfo: {
        type: 'MULTISIG',
        submittedAt: p.submittedAt,
        nonce: Number(p.tx.nonce),
        safeTxGas: p.tx.safeTxGas.toString(),
        baseGas: p.tx.baseGas.toString(),
        gasPrice: p.tx.gasPrice.toString(),
        gasToken: p.tx.gasToken,
        refundReceiver: address(p.tx.refundReceiver),
        safeTxHash: p.safeTxHash,
        executor: p.executor ? address(p.executor) : null,
        signers: owners.map(address),
        confirmationsRequired: threshold,
        confirmations: p.signatures.map((s) => ({
          signer: address(s.owner),
          signature: s.signature,
          submittedAt: s.submittedAt,
        })),
        rejectors: [],
        gasTokenInfo: null,
        trusted: true,
        proposer: address(p.confirmations[0]),
        proposedByDelegate: null,
      },
      safeAppInfo: { name: 'Safe App', url: this.opts.appUrl, logoUri: '' },
      note: null,
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn)
    this.queue = run.catch(() => undefined)
    return run
  }

  private find(hash: string) {
    return this.list.find((x) => x.safeTxHash.toLowerCase() === hash.toLowerCase())
  }

  private get(hash: string) {
    const p = this.find(hash)
    if (!p) throw new Error(`no proposal ${hash} (proposals: ${this.list.map((x) => x.safeTxHash).join(', ') || 'none'})`)
    return p
  }

  /** The proposals so far, oldest first (copies). */
  proposals(): SafeProposal[] {
    return this.list.map((p) => ({
      ...p,
      txs: p.txs.map((t) => ({ ...t })),
      confirmations: [...p.confirmations],
      signatures: p.signatures.map((s) => ({ ...s })),
      tx: { ...p.tx },
    }))
  }

  /** Every request the app sent, oldest first, with its answer. */
  requests(): SafeHostRequest[] {
    return this.log.map((r) => ({ ...r }))
  }

  /** Resolves with the `count`-th proposal once there is one. */
  waitForProposal(count = 1, timeoutMs = 30_000): Promise<SafeProposal> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.list.length >= count) {
          done()
          resolve(this.proposals()[count - 1])
        } else if (this.closed) {
          done()
          reject(new Error('the Safe host was closed'))
        }
      }
      const timer = setTimeout(() => {
        done()
        const seen = this.log.map((r) =>
          r.method === 'rpcCall' ? `rpcCall(${(r.params as { call?: string })?.call})` : r.method,
        )
        reject(
          new Error(
            `no proposal #${count} within ${timeoutMs} ms (${this.list.length} so far); the app asked: ${seen.join(', ') || 'nothing'}`,
          ),
        )
      }, timeoutMs)
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(check)
      }
      this.waiters.add(check)
      check()
    })
  }

  /** `owner` confirms (signs) the proposal. Returns the signature. */
  async confirm(hash: string, owner: BaseWallet): Promise<string> {
    const p = this.get(hash)
    if (p.executedHash) throw new Error(`proposal ${hash} was already executed in ${p.executedHash}`)
    const address = getAddress(owner.address)
    const owners = await safeOwners(this.provider, this.safe)
    if (!owners.includes(address)) throw new Error(`${address} is not an owner of the Safe ${this.safe}`)
    const had = p.signatures.find((s) => s.owner === address)
    if (had) return had.signature
    const signature = await signSafeTx(owner, this.opts.chainId, this.safe, p.tx)
    p.signatures.push({ owner: address, signature, submittedAt: Date.now() })
    p.confirmations.push(address)
    return signature
  }

  /** The executor sends execTransaction with the confirmations gathered; resolves with the transaction hash once mined. */
  execute(hash: string): Promise<string> {
    return this.serial(async () => {
      const p = this.get(hash)
      if (p.executedHash) throw new Error(`proposal ${hash} was already executed in ${p.executedHash}`)
      const [threshold, onChain] = await Promise.all([
        safeThreshold(this.provider, this.safe),
        safeNonce(this.provider, this.safe),
      ])
      if (p.confirmations.length < threshold)
        throw new Error(`proposal ${hash} has ${p.confirmations.length} of the ${threshold} confirmations it needs`)
      if (p.tx.nonce !== onChain) throw new Error(`proposal ${hash} has nonce ${p.tx.nonce}, the Safe is at ${onChain}`)
      const executor = this.opts.executor.provider ? this.opts.executor : this.opts.executor.connect(this.provider)
      const { hash: txHash, receipt } = await executeSafeTx(executor, this.safe, p.tx, p.signatures)
      const block = await this.provider.getBlock(receipt.blockNumber)
      p.executedHash = txHash
      p.executedAt = (block?.timestamp ?? Math.floor(Date.now() / 1000)) * 1000
      p.executor = getAddress(executor.address)
      return txHash
    })
  }

  /** The next sendTransactions is answered with an error, as when the person closes Safe{Wallet}'s dialog. */
  rejectNextProposal(message = REJECT_TRANSACTION_MESSAGE) {
    this.rejections.push(message)
  }

  /** Answers `method` with `answer` (throw for an error response) instead of the host's own; null restores it. */
  override(method: string, answer: Answer | null) {
    if (answer) this.overrides.set(method, answer)
    else this.overrides.delete(method)
  }

  close() {
    this.closed = true
    for (const w of [...this.waiters]) w()
    this.provider.destroy()
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The host document: the app in a full-size iframe, and a relay of its messages to the exposed function. */
function hostDocument(appUrl: string, relay: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Safe{Wallet}</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;width:100%;height:100%;border:0}</style>
</head>
<body>
<iframe id="${SAFE_APP_FRAME}" name="${SAFE_APP_FRAME}" title="Safe App" src="${escapeHtml(appUrl)}" allow="clipboard-write"></iframe>
<script>
(() => {
  const frame = document.getElementById(${JSON.stringify(SAFE_APP_FRAME)})
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow) return
    const data = event.data
    if (!data || typeof data !== 'object' || typeof data.method !== 'string' || data.id === undefined) return
    const target = event.origin === 'null' ? '*' : event.origin
    const post = (response) => frame.contentWindow && frame.contentWindow.postMessage(response, target)
    window[${JSON.stringify(relay)}]({ id: data.id, method: data.method, params: data.params, env: data.env }).then(post, (e) =>
      post({ id: data.id, success: false, error: String((e && e.message) || e), version: ${JSON.stringify(SDK_VERSION)} }),
    )
  })
})()
</script>
</body>
</html>`
}

export interface SafeHost {
  page: Page
  backend: SafeHostBackend
  /** The app's frame (the iframe), for locators. */
  app(): Frame
  proposals(): SafeProposal[]
  requests(): SafeHostRequest[]
  waitForProposal(count?: number, timeoutMs?: number): Promise<SafeProposal>
  confirm(safeTxHash: string, owner: BaseWallet): Promise<string>
  execute(safeTxHash: string): Promise<string>
  rejectNextProposal(message?: string): void
  override(method: string, answer: Answer | null): void
  /** Uncaught errors in the page and the app's frame. */
  errors(): string[]
  close(): Promise<void>
}

/**
 * Opens Safe{Wallet}'s "open app" page for `opts.safe` in a new page of `context`, with the app loaded in its iframe.
 * Grants the host origin Chrome's local-network-access permission (a public https page may frame http://127.0.0.1 only
 * with it, as a person allows when Chrome asks).
 */
export async function openSafeHost(context: BrowserContext, opts: SafeHostOptions): Promise<SafeHost> {
  const backend = new SafeHostBackend(opts)
  try {
    await backend.verify()
  } catch (e) {
    backend.close()
    throw e
  }
  await context.grantPermissions(['local-network-access'], { origin: SAFE_HOST_ORIGIN })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const relay = '__safeHostRelay'
  await page.exposeFunction(relay, (req: RelayedRequest) => backend.handle(req))
  const hostUrl = `${SAFE_HOST_ORIGIN}/apps/open?safe=hh:${backend.safe}&appUrl=${encodeURIComponent(opts.appUrl)}`
  await page.route(`${SAFE_HOST_ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/apps/open'
      ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: hostDocument(opts.appUrl, relay) })
      : route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }),
  )
  try {
    await page.goto(hostUrl)
  } catch (e) {
    backend.close()
    await page.close()
    throw e
  }
  const app = () => {
    const frame = page.frame({ name: SAFE_APP_FRAME }) ?? page.mainFrame().childFrames()[0]
    if (!frame) throw new Error('the Safe host page has no app frame')
    return frame
  }
  return {
    page,
    backend,
    app,
    proposals: () => backend.proposals(),
    requests: () => backend.requests(),
    waitForProposal: (count = 1, timeoutMs?: number) => backend.waitForProposal(count, timeoutMs),
    confirm: (hash, owner) => backend.confirm(hash, owner),
    execute: (hash) => backend.execute(hash),
    rejectNextProposal: (message?: string) => backend.rejectNextProposal(message),
    override: (method, answer) => backend.override(method, answer),
    errors: () => [...errors],
    async close() {
      backend.close()
      // The context may be closed already (and the page with it).
      await page.close().catch(() => undefined)
    },
  }
}
