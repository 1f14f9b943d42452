import { STATUS_CODES } from 'node:http'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import { getAddress } from 'ethers'
import { LOCAL_CHAIN_ID, type ServerConfig } from './config'
import { ADDRESS } from './schemas'
import { BlockCache } from './chain/blockCache'
import { ChainClient } from './chain/client'
import { asChainFailure } from './chain/errors'
import { keySigner, remoteSigner } from './signer'
import { loadAllocations } from './vesting/allocations'
import { VestingService } from './vesting/service'
import { loadAbis } from './parser/abis'
import { StakersCount } from './parser/stakers'
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
const nullableString = { type: ['string', 'null'] } as const
/** The vesting answer (src/domain/vestingAnswer.ts); a schema also lets Fastify serialise it without JSON.stringify. */
const vestingReply = {
  type: 'object',
  required: ['total', 'claimed', 'unlocked', 'lastUpdateBlock', 'currentBlock', 'deadline', 'message', 'signature'],
  properties: {
    total: { type: 'string' },
    claimed: { type: 'string' },
    unlocked: { type: 'string' },
    lastUpdateBlock: { type: 'string' },
    currentBlock: { type: 'string' },
    deadline: nullableString,
    message: nullableString,
    signature: nullableString,
    rewardToken: { type: 'string' },
    next: {
      type: ['object', 'null'],
      required: ['amount', 'date'],
      properties: { amount: { type: 'string' }, date: { type: 'string' } },
    },
  },
} as const

/**
 * Every route, its JSON schema, the per-block read sharing and the protections every answer gets (security headers,
 * a per-client rate limit, request timeouts, 503 with Retry-After when the chain or the signer is down);
 * `close()` stops the chain connection and the signer too.
 */
export async function buildServer(
  config: ServerConfig,
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    // A client has this long to send its whole request (a body trickled in byte by byte is cut off with 408) ...
    requestTimeout: config.requestTimeoutMs,
    // ... and an idle connection is closed after this long.
    connectionTimeout: config.idleTimeoutMs,
    // Node checks request timeouts only every 30 s by default, too coarse for a limit of seconds; and it enforces the
    // request timeout only when the headers timeout is not longer (Node's default headers timeout is 60 s).
    http: {
      connectionsCheckingInterval: Math.max(250, Math.min(1_000, config.requestTimeoutMs / 4)),
      headersTimeout: config.requestTimeoutMs,
    },
    // Fastify takes a hop count too (proxy-addr), though its types omit it.
    trustProxy: config.trustProxy as boolean | string,
    logger: {
      level: config.logLevel,
      // Nothing secret is put in logs, and these paths are cut even if it were.
      redact: ['req.headers.authorization', 'signerKey', 'config.signerKey', '*.signerKey'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  })

  const record = readDeploymentFrom(config.deploymentsDir, config.chainId)
  const chain = new ChainClient(config.rpcUrl, config.chainId, config.rpcTimeoutMs)
  const cache = new BlockCache(chain, config.blockCacheMs, config.cacheMaxEntries, (e) =>
    app.log.warn(
      { from: { number: e.from.number, hash: e.from.hash }, to: { number: e.to.number, hash: e.to.hash } },
      e.kind === 'restart'
        ? 'new genesis: the chain was restarted; cached answers dropped'
        : 'reorg: cached answers of the old branch dropped',
    ),
  )
  const book = loadAllocations(config.allocationsFile)
  const signer = config.signerUrl
    ? remoteSigner(config.signerUrl, config.signerAddress!, config.chainId, config.rpcTimeoutMs)
    : keySigner(config.signerKey!)
  const vesting = new VestingService(
    chain,
    cache,
    book,
    signer,
    config.chainId,
    record.contracts.harvest,
    record.contracts.token,
    config.claimTtlSeconds,
  )
  const abis = loadAbis(record, config.artifactsDir)
  // Keyed by the lower-case address: a lookup costs no checksum (keccak) per request.
  const pools = new Map(record.pools.map((p) => [p.address.toLowerCase(), getAddress(p.address)]))
  const stakers = new StakersCount(chain, cache)
  app.log.info(
    { chainId: config.chainId, signer: signer.address, signerKind: signer.kind, allocations: book.byAddress.size },
    'api configured',
  )

  await app.register(helmet, {
    // JSON answers load nothing (and helmet's default page policy would add 250 bytes to each); the explorer pages set
    // their own, slightly wider policy.
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    // The app on another origin reads these answers (CORS decides who may).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  })
  await app.register(cors, { origin: config.allowedOrigins, methods: ['GET', 'POST'] })
  if (config.rateLimitMax > 0) {
    await app.register(rateLimit, { max: config.rateLimitMax, timeWindow: config.rateLimitWindowMs })
  }

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const unavailable = asChainFailure(err)
    if (unavailable) {
      req.log.error({ err, reason: unavailable.reason }, 'request failed: service unavailable')
      return reply
        .status(503)
        .header('retry-after', String(config.retryAfterSeconds))
        .send({ statusCode: 503, error: 'Service Unavailable', message: unavailable.message, reason: unavailable.reason })
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
    if (status >= 500) req.log.error({ err }, 'request failed')
    const message = status >= 500 ? 'Internal error. Try again shortly.' : err.message
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

  app.get('/health', async () => {
    const head = await cache.head()
    return { status: 'ok', chainId: config.chainId, block: head.number, hash: head.hash, cacheEntries: cache.size }
  })

  app.get<{ Params: { wallet: string } }>(
    '/vesting/address/:wallet',
    {
      schema: {
        params: { type: 'object', required: ['wallet'], properties: { wallet: ADDRESS } },
        response: { 200: vestingReply, 400: errorReply },
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
      const pool = pools.get(req.body.address.toLowerCase())
      if (!pool) throw notFound(`${req.body.address} is not a staking pool on chain ${config.chainId}.`)
      return { status: 'success', data: await stakers.of(pool) }
    },
  )

  // Only the local chain lacks a public explorer; elsewhere the app links to the network's own.
  if (config.chainId === LOCAL_CHAIN_ID) registerLocalExplorer(app, { provider: chain.provider, record, abis })

  app.addHook('onClose', async () => {
    chain.destroy()
    signer.close()
  })
  return app
}
