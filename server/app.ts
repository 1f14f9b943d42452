import { STATUS_CODES } from 'node:http'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import cors from '@fastify/cors'
import { JsonRpcProvider, Wallet, getAddress } from 'ethers'
import { LOCAL_CHAIN_ID, type ServerConfig } from './config'
import { ADDRESS } from './schemas'
import { BlockCache } from './chain/blockCache'
import { loadAllocations } from './vesting/allocations'
import { VestingService } from './vesting/service'
import { loadAbis } from './parser/abis'
import { HolderIndex } from './parser/holders'
import { readDeploymentFrom } from './deployment'
import { registerLocalExplorer } from './explorer/routes'

const NETWORK = {
  anyOf: [
    { type: 'integer', minimum: 1 },
    { type: 'string', pattern: '^[0-9]{1,12}$' },
  ],
} as const
/** Body of the single-address contract-parser routes. */
const ADDRESS_ON_NETWORK = {
  body: {
    type: 'object',
    required: ['address', 'network'],
    additionalProperties: false,
    properties: { address: ADDRESS, network: NETWORK },
  },
} as const
const errorReply = {
  type: 'object',
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
} as const

/** Every route, its JSON schema, and the per-block read sharing; `close()` stops the provider too. */
export async function buildServer(
  config: ServerConfig,
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    logger: {
      level: config.logLevel,
      // Nothing secret is put in logs, and these paths are cut even if it were.
      redact: ['req.headers.authorization', 'signerKey', 'config.signerKey', '*.signerKey'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  })

  const record = readDeploymentFrom(config.deploymentsDir, config.chainId)
  const provider = new JsonRpcProvider(config.rpcUrl, config.chainId, { staticNetwork: true, cacheTimeout: -1 })
  const cache = new BlockCache(() => provider.getBlockNumber(), config.blockCacheMs)
  const book = loadAllocations(config.allocationsFile)
  const signer = new Wallet(config.signerKey)
  const vesting = new VestingService(
    provider,
    cache,
    book,
    signer,
    config.chainId,
    record.contracts.harvest,
    record.contracts.token,
  )
  const abis = loadAbis(record, config.artifactsDir)
  const holders = new Map(
    record.pools.map((p) => [getAddress(p.address), new HolderIndex(provider, p.address, record.startBlock)]),
  )
  app.log.info({ chainId: config.chainId, signer: signer.address, allocations: book.byAddress.size }, 'api configured')

  await app.register(cors, { origin: config.allowedOrigins, methods: ['GET', 'POST'] })

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
    if (status >= 500) req.log.error({ err }, 'request failed')
    const message = status >= 500 ? 'Internal error; the chain may be unreachable. Try again shortly.' : err.message
    reply.status(status).send({ statusCode: status, error: STATUS_CODES[status] ?? 'Error', message })
  })
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No route ${req.method} ${req.url}` }),
  )

  const checkNetwork = (network: number | string) => {
    if (Number(network) !== config.chainId) {
      const err = new Error(`Unknown network ${network}: this service serves chain ${config.chainId}.`) as FastifyError
      err.statusCode = 400
      err.code = 'UNKNOWN_NETWORK'
      throw err
    }
  }
  const notFound = (message: string) => Object.assign(new Error(message), { statusCode: 404, code: 'NOT_FOUND' }) as FastifyError

  app.get('/health', async () => ({ status: 'ok', chainId: config.chainId, block: await cache.blockNumber() }))

  app.get<{ Params: { wallet: string } }>(
    '/vesting/address/:wallet',
    {
      schema: {
        params: { type: 'object', required: ['wallet'], properties: { wallet: ADDRESS } },
        response: { 400: errorReply },
      },
    },
    async (req) => vesting.status(req.params.wallet),
  )

  app.post<{ Body: { address: string; network: number | string } }>(
    '/contract-parser/api/contract/abi',
    { schema: ADDRESS_ON_NETWORK },
    async (req) => {
      checkNetwork(req.body.network)
      const found = abis.get(getAddress(req.body.address.toLowerCase()))
      if (!found) throw notFound(`No known contract at ${req.body.address} on chain ${config.chainId}.`)
      return { status: 'success', data: found.abi, name: found.name }
    },
  )

  app.post<{ Body: { address: string[]; network: number | string } }>(
    '/contract-parser/api/contract/multipleAbi',
    {
      schema: {
        body: {
          type: 'object',
          required: ['address', 'network'],
          additionalProperties: false,
          properties: { address: { type: 'array', items: ADDRESS, minItems: 1, maxItems: 50 }, network: NETWORK },
        },
      },
    },
    async (req) => {
      checkNetwork(req.body.network)
      const addresses = req.body.address.map((a) => getAddress(a.toLowerCase()))
      const unknown = addresses.filter((a) => !abis.has(a))
      if (unknown.length > 0) throw notFound(`No known contract at ${unknown.join(', ')} on chain ${config.chainId}.`)
      return {
        status: 'success',
        data: addresses.map((address) => ({ address, name: abis.get(address)!.name, abi: abis.get(address)!.abi })),
      }
    },
  )

  app.post<{ Body: { address: string; network: number | string } }>(
    '/contract-parser/api/contract/token-holders',
    { schema: ADDRESS_ON_NETWORK },
    async (req) => {
      checkNetwork(req.body.network)
      const index = holders.get(getAddress(req.body.address.toLowerCase()))
      if (!index) throw notFound(`${req.body.address} is not a staking pool on chain ${config.chainId}.`)
      const block = await cache.blockNumber()
      return { status: 'success', data: { count: await index.count(block), block } }
    },
  )

  // Only the local chain lacks a public explorer; elsewhere the app links to the network's own.
  if (config.chainId === LOCAL_CHAIN_ID) registerLocalExplorer(app, { provider, record, abis })

  app.addHook('onClose', async () => provider.destroy())
  return app
}
