import type { TypedDataDomain, TypedDataField } from 'ethers'

/**
 * A scripted EIP-1193 wallet for tests: it forwards JSON-RPC to a Hardhat node (whose accounts are unlocked, so the
 * node signs), answers the account request like MetaMask, and can be told to reject a request (4001), not know a
 * chain (4902) or emit accountsChanged / chainChanged. Saga tests use it directly as window.ethereum; the browser
 * tests expose it to the page, so both layers drive the same wallet behaviour.
 */
export interface WalletRequest {
  method: string
  params?: unknown
}

export interface WalletRpcError {
  code: number
  message: string
  data?: unknown
}

type Listener = (...args: unknown[]) => void

/** A key the wallet signs typed data with itself (an account the node does not hold, e.g. a fresh impersonated one). */
export interface TypedDataSigner {
  signTypedData(domain: TypedDataDomain, types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string>
}

let rpcId = 1

export class TestWallet {
  readonly isMetaMask = true
  chainId: number
  account: string
  /** Whether the site holds the account permission (survives page reloads, like a real wallet). */
  permitted = false
  knownChains: Set<number>
  readonly added: unknown[] = []
  readonly requests: WalletRequest[] = []
  private rejectOnce = new Set<string>()
  private listeners = new Map<string, Set<Listener>>()
  /** Signs eth_signTypedData_v4 itself when set; otherwise the node signs (its unlocked accounts). */
  private readonly signer: TypedDataSigner | null
  /** Where emitted events go besides local listeners (the browser harness forwards them into the page). */
  onEmit: ((event: string, args: unknown[]) => void) | null = null

  constructor(
    private readonly rpcUrl: string,
    opts: { account: string; chainId?: number; knownChains?: number[]; signer?: TypedDataSigner },
  ) {
    this.signer = opts.signer ?? null
    this.account = opts.account
    this.chainId = opts.chainId ?? 31337
    this.knownChains = new Set(opts.knownChains ?? [this.chainId, 31337])
  }

  /** The next request for `method` is declined as a person would decline it (EIP-1193 code 4001). */
  rejectNext(method: string) {
    this.rejectOnce.add(method)
  }

  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set())
    this.listeners.get(event)!.add(listener)
    return this
  }

  removeListener(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener)
    return this
  }

  emit(event: string, ...args: unknown[]) {
    this.listeners.get(event)?.forEach((l) => l(...args))
    this.onEmit?.(event, args)
  }

  switchAccount(account: string) {
    this.account = account
    this.emit('accountsChanged', [account])
  }

  private hexChain() {
    return `0x${this.chainId.toString(16)}`
  }

  async request({ method, params }: WalletRequest): Promise<unknown> {
    this.requests.push({ method, params })
    if (this.rejectOnce.delete(method)) throw rpcError(4001, 'User rejected the request.')
    const first = Array.isArray(params) ? (params[0] as Record<string, unknown>) : undefined
    switch (method) {
      case 'eth_requestAccounts':
        this.permitted = true
        return [this.account]
      case 'eth_accounts':
        return this.permitted ? [this.account] : []
      case 'eth_chainId':
        return this.hexChain()
      case 'net_version':
        return String(this.chainId)
      case 'wallet_switchEthereumChain': {
        const id = Number(first?.chainId)
        if (!this.knownChains.has(id)) throw rpcError(4902, `Unrecognized chain ID ${first?.chainId}.`)
        if (id !== this.chainId) {
          this.chainId = id
          this.emit('chainChanged', this.hexChain())
        }
        return null
      }
      case 'wallet_addEthereumChain':
        this.added.push(first)
        this.knownChains.add(Number(first?.chainId))
        return null
      case 'wallet_watchAsset':
        return true
      case 'eth_signTypedData_v4': {
        if (!this.signer) return this.forward(method, params)
        const typed = JSON.parse((params as [string, string])[1]) as {
          domain: TypedDataDomain
          types: Record<string, TypedDataField[]>
          message: Record<string, unknown>
        }
        const { EIP712Domain: _domain, ...types } = typed.types
        return this.signer.signTypedData(typed.domain, types, typed.message)
      }
      default:
        return this.forward(method, params)
    }
  }

  private async forward(method: string, params: unknown) {
    const res = await fetch(this.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params: params ?? [] }),
    })
    const body = (await res.json()) as { result?: unknown; error?: WalletRpcError }
    if (body.error) throw rpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }
}

export function rpcError(code: number, message: string, data?: unknown): WalletRpcError & Error {
  return Object.assign(new Error(message), { code, data })
}
