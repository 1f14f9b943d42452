import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  Contract,
  Interface,
  formatEther,
  formatUnits,
  getAddress,
  type InterfaceAbi,
  type JsonRpcProvider,
  type Log,
  type ParamType,
  type Result,
} from 'ethers'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import type { Abi } from '../parser/abis'
import { ADDRESS } from '../schemas'
import { renderPage, type Field, type Section } from './page'

const TX_HASH = { type: 'string', maxLength: 66, pattern: '^0x[0-9a-fA-F]{64}$' } as const
/** Raw input shown in full up to this many hex characters (a transaction's data can be megabytes). */
const RAW_INPUT_CHARS = 4_096
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
}

/** What the deployment record calls each address, e.g. 'Pool 1 (version 1)' or 'token (PlatformToken)'. */
function namesOf(record: DeploymentRecord, abis: Map<string, { name: string }>): Map<string, string> {
  const names = new Map<string, string>()
  for (const [key, address] of Object.entries(record.contracts)) {
    const a = getAddress(address)
    names.set(a, `${key} (${abis.get(a)?.name ?? 'contract'})`)
  }
  for (const p of record.pools) names.set(getAddress(p.address), `Pool ${p.id} (version ${p.version})`)
  return names
}

/** A decoded argument list on one line, named as the ABI names them: numbers in base units, tuples bracketed. */
function formatArgs(inputs: readonly ParamType[], r: Result): string {
  const one = (v: unknown): string =>
    Array.isArray(v) ? `[${v.map(one).join(', ')}]` : typeof v === 'bigint' ? v.toString() : String(v)
  return inputs.map((p, i) => (p.name ? `${p.name}: ${one(r[i])}` : one(r[i]))).join(', ')
}

/** `parse()`, or null when the bytes do not decode (anyone can send any calldata or emit any log to a known address). */
function tryDecode<T>(parse: () => T | null | undefined): T | null {
  try {
    return parse() ?? null
  } catch {
    return null
  }
}

const rawInput = (data: string) =>
  data.length <= RAW_INPUT_CHARS ? data : `${data.slice(0, RAW_INPUT_CHARS)}… (${(data.length - 2) / 2} bytes in all)`

/**
 * A block explorer for the local chain only (31337 has none), so the app's "view on explorer" links lead somewhere
 * real in development and in the browser tests: /explorer/tx/:hash and /explorer/address/:address, as HTML,
 * decoding calls and events of the deployed contracts with their ABIs.
 */
export function registerLocalExplorer(
  app: FastifyInstance,
  deps: { provider: JsonRpcProvider; record: DeploymentRecord; abis: Map<string, { name: string; abi: Abi }> },
) {
  const { provider, record, abis } = deps
  const names = namesOf(record, abis)
  const interfaces = new Map([...abis].map(([a, { abi }]) => [a, new Interface(abi as InterfaceAbi)]))
  const token = new Contract(record.contracts.token, abis.get(getAddress(record.contracts.token))!.abi as InterfaceAbi, provider)
  const addressField = (label: string, address: string | null): Field =>
    address
      ? {
          label,
          value: names.has(getAddress(address)) ? `${address} · ${names.get(getAddress(address))}` : address,
          href: `/explorer/address/${address}`,
        }
      : { label, value: '(contract creation)' }
  const send = (reply: FastifyReply, status: number, html: string) => reply.status(status).headers(HEADERS).send(html)

  const eventLine = (log: Log): Field => {
    const iface = interfaces.get(getAddress(log.address))
    const parsed = tryDecode(() => iface?.parseLog({ topics: [...log.topics], data: log.data }))
    const source = names.get(getAddress(log.address)) ?? log.address
    return {
      label: `#${log.index}`,
      value: parsed
        ? `${parsed.name}(${formatArgs(parsed.fragment.inputs, parsed.args)}) · ${source}`
        : `${log.topics[0]} · ${source}`,
    }
  }

  app.get<{ Params: { hash: string } }>(
    '/explorer/tx/:hash',
    {
      schema: { params: { type: 'object', required: ['hash'], properties: { hash: TX_HASH } } },
      config: { dependsOn: ['chain'] },
    },
    async (req, reply) => {
      const hash = req.params.hash.toLowerCase()
      const [tx, receipt] = await Promise.all([provider.getTransaction(hash), provider.getTransactionReceipt(hash)])
      if (!tx)
        return send(
          reply,
          404,
          renderPage(
            'Transaction not found',
            `No transaction ${hash} on chain ${record.chainId}. Was the local chain restarted?`,
            [],
          ),
        )
      const block = receipt ? await provider.getBlock(receipt.blockNumber) : null
      const iface = tx.to ? interfaces.get(getAddress(tx.to)) : undefined
      const call = tryDecode(() => iface?.parseTransaction({ data: tx.data, value: tx.value }))
      const fields: Field[] = [
        { label: 'Status', value: !receipt ? 'Pending' : receipt.status === 1 ? 'Success' : 'Failed' },
        { label: 'Block', value: receipt ? String(receipt.blockNumber) : '—' },
        {
          label: 'Time (UTC)',
          value: block ? new Date(block.timestamp * 1000).toISOString().replace('T', ' ').slice(0, 19) : '—',
        },
        addressField('From', tx.from),
        addressField('To', tx.to),
        {
          label: 'Method',
          value: call
            ? `${call.name}(${formatArgs(call.fragment.inputs, call.args)})`
            : tx.data === '0x'
              ? 'transfer of ETH'
              : tx.data.slice(0, 10),
        },
        ...(call || tx.data === '0x' ? [] : [{ label: 'Input (not decoded)', value: rawInput(tx.data) }]),
        { label: 'Value', value: `${formatEther(tx.value)} ETH` },
        { label: 'Gas used', value: receipt ? receipt.gasUsed.toLocaleString('en-US') : '—' },
        { label: 'Nonce', value: String(tx.nonce) },
      ]
      const sections: Section[] = [{ title: 'Overview', fields }]
      if (receipt && receipt.logs.length > 0)
        sections.push({ title: `Events (${receipt.logs.length})`, fields: receipt.logs.map(eventLine) })
      return send(reply, 200, renderPage('Transaction', hash, sections))
    },
  )

  app.get<{ Params: { address: string } }>(
    '/explorer/address/:address',
    {
      schema: { params: { type: 'object', required: ['address'], properties: { address: ADDRESS } } },
      config: { dependsOn: ['chain'] },
    },
    async (req, reply) => {
      const address = getAddress(req.params.address.toLowerCase())
      const [code, balance, nonce, tokens, symbol] = await Promise.all([
        provider.getCode(address),
        provider.getBalance(address),
        provider.getTransactionCount(address),
        token.balanceOf(address) as Promise<bigint>,
        token.symbol() as Promise<string>,
      ])
      const fields: Field[] = [
        { label: 'Kind', value: code === '0x' ? 'Account' : `Contract${names.has(address) ? ` · ${names.get(address)}` : ''}` },
        { label: 'ETH balance', value: formatEther(balance) },
        { label: `${symbol} balance`, value: formatUnits(tokens, 18) },
        { label: 'Transactions sent', value: String(nonce) },
      ]
      return send(reply, 200, renderPage(names.get(address) ?? 'Address', address, [{ title: 'Overview', fields }]))
    },
  )
}
