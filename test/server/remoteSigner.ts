import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Wallet, type TypedDataField } from 'ethers'

export type SignerMode = 'ok' | 'wrong-key' | 'rpc-error' | 'silent'

/**
 * A small JSON-RPC remote signer, as Clef or Web3Signer answer it: eth_accounts and eth_signTypedData_v4 for the one
 * key it holds, on 127.0.0.1. `mode` makes it misbehave the ways a real one can; `calls` counts signing requests.
 */
export async function startRemoteSigner(key: string) {
  const wallet = new Wallet(key)
  const state = { mode: 'ok' as SignerMode, calls: 0 }
  const stranger = Wallet.createRandom()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const { id, method, params } = JSON.parse(Buffer.concat(chunks).toString()) as {
        id: number
        method: string
        params: unknown[]
      }
      const reply = (body: object) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ jsonrpc: '2.0', id, ...body }))
      }
      if (method === 'eth_accounts') return reply({ result: [wallet.address.toLowerCase()] })
      if (method !== 'eth_signTypedData_v4') return reply({ error: { code: -32601, message: `no method ${method}` } })
      state.calls++
      const [account, json] = params as [string, string]
      if (state.mode === 'silent') return // holds the request open, as a hung signer would
      if (state.mode === 'rpc-error') return reply({ error: { code: -32000, message: 'signing denied by rule' } })
      if (account.toLowerCase() !== wallet.address.toLowerCase()) {
        return reply({ error: { code: -32000, message: `unknown account ${account}` } })
      }
      const typed = JSON.parse(json) as {
        domain: Record<string, unknown>
        types: Record<string, TypedDataField[]>
        message: Record<string, unknown>
      }
      const { EIP712Domain: _domain, ...types } = typed.types
      const signer = state.mode === 'wrong-key' ? stranger : wallet
      reply({ result: await signer.signTypedData(typed.domain, types, typed.message) })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    address: wallet.address,
    state,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
