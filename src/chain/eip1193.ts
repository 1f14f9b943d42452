import type { Provider, RequestArguments } from '@web3-react/types'

type Listener = (...args: unknown[]) => void

/** The error shape EIP-1193 wallets throw, which ethers' BrowserProvider knows how to decode. */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/** Listener bookkeeping for a hand-made EIP-1193 provider. */
export abstract class EventedProvider implements Provider {
  private listeners = new Map<string | symbol, Set<Listener>>()

  abstract request(args: RequestArguments): Promise<unknown>

  on(event: string | symbol, listener: Listener): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set())
    this.listeners.get(event)!.add(listener)
    return this
  }

  removeListener(event: string | symbol, listener: Listener): this {
    this.listeners.get(event)?.delete(listener)
    return this
  }

  protected emit(event: string, ...args: unknown[]) {
    this.listeners.get(event)?.forEach((l) => l(...args))
  }
}

let nextId = 1

/** One JSON-RPC call over HTTP; errors come back as ProviderRpcError with the node's code and revert data. */
export async function jsonRpc(url: string, method: string, params: unknown = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
  if (body.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
  return body.result
}
