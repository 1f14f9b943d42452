import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import compress from '@fastify/compress'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import { getAddress } from 'ethers'
import { LOCAL_CHAIN_ID, type ServerConfig } from './config'
import { ADDRESS, VESTING_REPLY, eip55Keyword } from './schemas'
import {
  MAX_HEADER_BYTES,
  clientErrorHandler,
  errorBody,
  frameworkErrors,
  headersOnEveryAnswer,
  helmetHeaders,
  requireHost,
} from './security'
import { BlockCache } from './chain/blockCache'
import { ChainClient } from './chain/client'
import { DeploymentCheck } from './chain/deploymentCheck'
import { asChainFailure } from './chain/errors'
import { OutageLog } from './chain/outages'
import { keySigner, remoteSigner, type ClaimSigner } from './signer'
import { loadAllocations } from './vesting/allocations'
import { VestingService } from './vesting/service'
import { loadAbis } from './parser/abis'
import { StakersCount } from './parser/stakers'
import { readDeploymentFrom } from './deployment'
import { registerLocalExplorer } from './explorer/routes'
import { IndexService } from './indexer/service'
import { registerActivityRoutes } from './activity/routes'

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
/**
 * Node keeps a kept-alive connection open this long past `keepAliveTimeout` (the time it advertises in Keep-Alive), so
 * that a client does not send on a connection being closed; the idle timeout counts it in.
 */
const NODE_KEEP_ALIVE_BUFFER_MS = 1_000
/** Addresses one multipleAbi request may name (400 above); repeated addresses are answered once. */
export const MAX_ABI_ADDRESSES = 50
/** Error codes whose message is ours or Fastify's fixed text, so it can be shown as it is (never the request's input). */
const OWN_MESSAGES = new Set(['UNKNOWN_NETWORK', 'NOT_FOUND', 'FST_ERR_VALIDATION', 'BAD_QUERY'])
const errorReply = {
  type: 'object',
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
} as const

/**
 * Every route, its JSON schema, the per-block read sharing and the protections every answer gets (security headers,
 * compression, a per-client rate limit, request and idle timeouts, 503 with Retry-After when the chain or the signer
 * is down, logged once per outage); `close()` stops the chain connection and the signer too.
 */
export async function buildServer(
  config: ServerConfig,
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<FastifyInstance> {
  const securityHeaders = helmetHeaders()
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    // A client has this long to send its whole request (a body trickled in byte by byte is cut off with 408) ...
    requestTimeout: config.requestTimeoutMs,
    // ... and a connection is closed after this long without traffic: a new one that sends nothing (the socket
    // timeout), and a kept-alive one between requests (keepAliveTimeout plus Node's buffer; Fastify's default is 72 s).
    connectionTimeout: config.idleTimeoutMs,
    keepAliveTimeout: Math.max(1, config.idleTimeoutMs - NODE_KEEP_ALIVE_BUFFER_MS),
    // Node checks request timeouts only every 30 s by default, too coarse for a limit of seconds; and it enforces the
    // request timeout only when the headers timeout is not longer (Node's default headers timeout is 60 s).
    http: {
      connectionsCheckingInterval: Math.max(250, Math.min(1_000, config.requestTimeoutMs / 4)),
      headersTimeout: config.requestTimeoutMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Refused by requireHost (below), with the headers Node's own 400 lacks.
      requireHostHeader: false,
    },
    // A path parameter as long as the request line can be reaches its schema and gets a 400 that says what is wrong
    // (Fastify's default, 100 characters, answers a longer one with a 414 quoting the whole URL).
    routerOptions: { maxParamLength: MAX_HEADER_BYTES },
    // What the HTTP parser or the router refuse before a route runs: answered with the same headers, never quoted.
    clientErrorHandler: clientErrorHandler(securityHeaders),
    frameworkErrors,
    // Fastify takes a hop count too (proxy-addr), though its types omit it.
    trustProxy: config.trustProxy as boolean | string,
    logger: {
      level: config.logLevel,
      // Nothing secret is put in logs, and these paths are cut even if it were.
      redact: ['req.headers.authorization', 'signerKey', 'config.signerKey', '*.signerKey'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false }, plugins: [eip55Keyword] },
  })
  headersOnEveryAnswer(app.server, securityHeaders)
  app.addHook('onRequest', requireHost)

  const record = readDeploymentFrom(config.deploymentsDir, config.chainId)
  const chain = new ChainClient(config.rpcUrl, config.chainId, config.rpcTimeoutMs, config.rpcCallsPerSecond)
  const cache = new BlockCache(chain, config.blockCacheMs, config.cacheMaxEntries, (e) =>
    app.log.warn(
      { from: { number: e.from.number, hash: e.from.hash }, to: { number: e.to.number, hash: e.to.hash } },
      e.kind === 'restart'
        ? 'new genesis: the chain was restarted; cached answers dropped'
        : 'reorg: cached answers of the old branch dropped',
    ),
  )
  const book = loadAllocations(config.allocationsFile)
  const outages = new OutageLog(app.log, config.retryAfterSeconds * 1000)
  const deployment = new DeploymentCheck(chain, cache, record)
  const signer = onEachSignature(
    config.signerUrl
      ? remoteSigner(config.signerUrl, config.signerAddress!, config.chainId, config.rpcTimeoutMs)
      : keySigner(config.signerKey!),
    () => outages.succeeded('signer'),
  )
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
  const index = new IndexService(
    {
      enabled: config.indexEnabled,
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      logsRange: config.logsRange,
      pollMs: config.indexPollMs,
      partRows: config.indexPartRows,
      confirmations: config.indexConfirmations,
      rpcCallsPerSecond: config.rpcCallsPerSecond,
      rpcUrl: config.rpcUrl,
      rpcTimeoutMs: config.rpcTimeoutMs,
      chainId: config.chainId,
    },
    record,
    app.log,
  )
  app.decorate('index', index)
  app.log.info(
    { chainId: config.chainId, signer: signer.address, signerKind: signer.kind, allocations: book.byAddress.size },
    'api configured',
  )

  // helmet's headers are on every answer already (headersOnEveryAnswer). Answers over 1 KB are compressed for a
  // client that accepts it (br, gzip or deflate); request bodies are taken as sent, never inflated.
  await app.register(compress, { globalDecompression: false })
  await app.register(cors, { origin: config.allowedOrigins, methods: ['GET', 'POST'] })
  if (config.rateLimitMax > 0) {
    await app.register(rateLimit, { max: config.rateLimitMax, timeWindow: config.rateLimitWindowMs })
  }
  // A request that needed the chain (or the deployment on it) and got its answer ends an outage of it.
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode < 300) for (const d of req.routeOptions.config?.dependsOn ?? []) outages.succeeded(d)
  })

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const unavailable = asChainFailure(err)
    if (unavailable) {
      outages.failed(unavailable, req.log)
      return reply
        .status(503)
        .header('retry-after', String(config.retryAfterSeconds))
        .send({ ...errorBody(503, unavailable.message), reason: unavailable.reason })
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
    if (status >= 500) req.log.error({ err }, 'request failed')
    // Schema errors name the field and the rule, ours name validated values, body and rate limits state the limit;
    // anything else gets the status text, so no message can quote what the client sent.
    const known = err.validation || OWN_MESSAGES.has(err.code) || err.code?.startsWith('FST_ERR_CTP_') || status === 429
    const message = status >= 500 ? 'Internal error. Try again shortly.' : known ? err.message : errorBody(status, '').error
    reply.status(status).send(errorBody(status, message))
  })
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send(errorBody(404, `No route ${req.method} at this path: the routes are in the API section of README.md.`)),
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

  // Its own rate-limit bucket: a client's requests cannot use up a monitor's, nor health checks a client's.
  const ownBucket =
    config.rateLimitMax > 0 ? { rateLimit: { max: config.rateLimitMax, timeWindow: config.rateLimitWindowMs } } : {}
  app.get('/health', { config: { ...ownBucket, dependsOn: ['chain', 'deployment'] } }, async () => {
    const head = await cache.head()
    await deployment.assertAt(head)
    // The index's progress is reported, never a reason for a 503: claims work while it catches up.
    const indexedBlock = await index.indexedBlock().catch(() => null)
    return {
      status: 'ok',
      chainId: config.chainId,
      block: head.number,
      hash: head.hash,
      cacheEntries: cache.size,
      index:
        indexedBlock === null
          ? null
          : { block: indexedBlock, lag: Math.max(0, head.number - indexedBlock), writer: index.writer },
    }
  })

  app.get<{ Params: { wallet: string } }>(
    '/vesting/address/:wallet',
    {
      schema: {
        params: { type: 'object', required: ['wallet'], properties: { wallet: ADDRESS } },
        response: { 200: VESTING_REPLY, 400: errorReply },
      },
      config: { dependsOn: ['chain'] },
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
          properties: {
            address: { type: 'array', items: ADDRESS, minItems: 1, maxItems: MAX_ABI_ADDRESSES },
            network: NETWORK,
          },
        },
      },
    },
    async (req) => {
      checkNetwork(req.body.network)
      // Each contract once, in the order first named: 50 copies of one address are one ABI, not 50.
      const addresses = [...new Set(req.body.address.map((a) => a.toLowerCase()))].map((a) => getAddress(a))
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
    { schema: ADDRESS_ON_NETWORK, config: { dependsOn: ['chain'] } },
    async (req) => {
      checkNetwork(req.body.network)
      const pool = pools.get(req.body.address.toLowerCase())
      if (!pool) throw notFound(`${req.body.address} is not a staking pool on chain ${config.chainId}.`)
      return { status: 'success', data: await stakers.of(pool) }
    },
  )

  // Only the local chain lacks a public explorer; elsewhere the app links to the network's own.
  if (config.chainId === LOCAL_CHAIN_ID) registerLocalExplorer(app, { provider: chain.provider, record, abis })
  registerActivityRoutes(app, index, cache)

  app.addHook('onClose', async () => {
    await index.close()
    outages.close()
    chain.destroy()
    signer.close()
  })
  return app
}

/** `signer`, calling `onSigned` after each signature it makes (which ends a signer outage). */
function onEachSignature(signer: ClaimSigner, onSigned: () => void): ClaimSigner {
  return {
    ...signer,
    close: () => signer.close(),
    async sign(domain, claim) {
      const signed = await signer.sign(domain, claim)
      onSigned()
      return signed
    },
  }
}
