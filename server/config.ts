import fs from 'node:fs'
import path from 'node:path'
import { HDNodeWallet, Mnemonic, Wallet, getAddress, isAddress } from 'ethers'
import { HARDHAT_MNEMONIC } from '../src/domain/devAccounts'

export interface ServerConfig {
  host: string
  port: number
  rpcUrl: string
  chainId: number
  /** allocations JSON: { tge?, months?, monthSeconds?, allocations: { [address]: { round, amount } } } */
  allocationsFile: string
  deploymentsDir: string
  artifactsDir: string
  allowedOrigins: string[]
  /** How long a fetched head block is trusted (ms); concurrent requests share one fetch regardless. */
  blockCacheMs: number
  /** Cached answers kept per block (least recently used go first): bounds memory under a flood of wallets. */
  cacheMaxEntries: number
  /** Time limit of one JSON-RPC call to the node or the remote signer (ms). */
  rpcTimeoutMs: number
  /** Time limit for receiving a whole request, headers and body (ms): slow-loris bodies are cut off with 408. */
  requestTimeoutMs: number
  /** An idle connection is closed after this long (ms). */
  idleTimeoutMs: number
  /** Requests per client (IP) and window; 0 turns the limit off (the load benchmark does). */
  rateLimitMax: number
  rateLimitWindowMs: number
  /** Fastify's trustProxy: behind a reverse proxy, the client is read from X-Forwarded-For (hops or addresses). */
  trustProxy: boolean | number | string
  /** How long a signed claim stays valid (seconds of chain time): its deadline is the block time plus this. */
  claimTtlSeconds: number
  /** Retry-After of a 503 (chain or signer unavailable), seconds. */
  retryAfterSeconds: number
  bodyLimitBytes: number
  logLevel: string
  /** Never logged: see redaction in app.ts. Set this or signerUrl + signerAddress. */
  signerKey?: string
  /** JSON-RPC remote signer (eth_signTypedData_v4, e.g. Clef or Web3Signer). */
  signerUrl?: string
  /** The address the remote signer signs with (the one RewardHarvest trusts). */
  signerAddress?: string
  /** Whether this process keeps and serves the activity index (API_INDEX=off: a claims-only service). */
  indexEnabled: boolean
  /** PostgreSQL for the index (replicas share it); without it, PGlite in dataDir. */
  databaseUrl?: string
  /** PGlite's directory (API_DATA_DIR). */
  dataDir: string
  /** Blocks per eth_getLogs, narrowed while a node refuses a range as too large. */
  logsRange: number
  /** How often a caught-up index asks for new blocks, ms. */
  indexPollMs: number
  /** Rows one index transaction writes at most (tests only; default 2,000). */
  indexPartRows?: number
  /**
   * Blocks the index stays behind the newest head (API_INDEX_CONFIRMATIONS; default 0 on the local chain, 2 elsewhere):
   * every backend of a load-balanced endpoint then has what it reads. It grows by itself to the lag it sees.
   */
  indexConfirmations: number
  /** The endpoint's limit of JSON-RPC calls a second, each call of a batch counted (API_RPC_CALLS_PER_SECOND; 0: none). */
  rpcCallsPerSecond: number
}

const ROOT = path.join(__dirname, '..')
/** The Hardhat chain: development keys are allowed, and the API serves its local explorer. */
export const LOCAL_CHAIN_ID = 31337

/** Whether `address` is one of Hardhat's 20 public development accounts: usable on the local chain only. */
export function isHardhatDevAddress(address: string): boolean {
  const m = Mnemonic.fromPhrase(HARDHAT_MNEMONIC)
  for (let i = 0; i < 20; i++)
    if (HDNodeWallet.fromMnemonic(m, `m/44'/60'/0'/0/${i}`).address === getAddress(address)) return true
  return false
}

export function isHardhatDevKey(key: string): boolean {
  return isHardhatDevAddress(new Wallet(key).address)
}

export class ConfigError extends Error {}

/**
 * Reads the service configuration from the environment, over an optional JSON file named by API_CONFIG.
 * Refuses to produce a config without exactly one valid signer (a key, or a remote signer's URL and address), or with a
 * Hardhat development key or address on a chain other than 31337.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const file = env.API_CONFIG ? (JSON.parse(fs.readFileSync(env.API_CONFIG, 'utf8')) as Partial<ServerConfig>) : {}
  const pick = <T>(name: string, fromFile: T | undefined, fallback: T, parse: (v: string) => T): T =>
    env[name] !== undefined && env[name] !== '' ? parse(env[name]!) : (fromFile ?? fallback)
  const num = (v: string) => {
    const n = Number(v)
    if (!Number.isFinite(n)) throw new ConfigError(`not a number: ${v}`)
    return n
  }
  const chainId = pick('API_CHAIN_ID', file.chainId, LOCAL_CHAIN_ID, num)
  const deploymentsDir = pick('DEPLOYMENTS_DIR', file.deploymentsDir, path.join(ROOT, 'deployments'), String)
  const config: ServerConfig = {
    host: pick('API_HOST', file.host, '127.0.0.1', String),
    port: pick('API_PORT', file.port, 8787, num),
    rpcUrl: pick('API_RPC_URL', file.rpcUrl, 'http://127.0.0.1:8545', String),
    chainId,
    allocationsFile: pick(
      'ALLOCATIONS_FILE',
      file.allocationsFile,
      path.join(deploymentsDir, `allocations.${chainId}.json`),
      String,
    ),
    deploymentsDir,
    artifactsDir: pick('ARTIFACTS_DIR', file.artifactsDir, path.join(ROOT, 'artifacts'), String),
    allowedOrigins: pick('API_ALLOWED_ORIGINS', file.allowedOrigins, ['http://127.0.0.1:3000', 'http://localhost:3000'], (v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    blockCacheMs: pick('API_BLOCK_CACHE_MS', file.blockCacheMs, 1000, num),
    cacheMaxEntries: pick('API_CACHE_MAX_ENTRIES', file.cacheMaxEntries, 10_000, num),
    rpcTimeoutMs: pick('API_RPC_TIMEOUT_MS', file.rpcTimeoutMs, 5_000, num),
    requestTimeoutMs: pick('API_REQUEST_TIMEOUT_MS', file.requestTimeoutMs, 10_000, num),
    idleTimeoutMs: pick('API_IDLE_TIMEOUT_MS', file.idleTimeoutMs, 30_000, num),
    rateLimitMax: pick('API_RATE_LIMIT_MAX', file.rateLimitMax, 300, num),
    rateLimitWindowMs: pick('API_RATE_LIMIT_WINDOW_MS', file.rateLimitWindowMs, 60_000, num),
    trustProxy: pick('API_TRUST_PROXY', file.trustProxy, false, (v) =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
    ),
    claimTtlSeconds: pick('API_CLAIM_TTL_SECONDS', file.claimTtlSeconds, 1_800, num),
    retryAfterSeconds: pick('API_RETRY_AFTER_SECONDS', file.retryAfterSeconds, 5, num),
    bodyLimitBytes: pick('API_BODY_LIMIT', file.bodyLimitBytes, 16 * 1024, num),
    logLevel: pick('API_LOG_LEVEL', file.logLevel, 'info', String),
    signerKey: env.VESTING_SIGNER_KEY || undefined,
    signerUrl: env.VESTING_SIGNER_URL || undefined,
    signerAddress: env.VESTING_SIGNER_ADDRESS || undefined,
    indexEnabled: pick('API_INDEX', file.indexEnabled, true, (v) => {
      if (v !== 'on' && v !== 'off') throw new ConfigError('API_INDEX must be on or off.')
      return v === 'on'
    }),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: pick('API_DATA_DIR', file.dataDir, path.join(ROOT, 'data', `api-${chainId}`), String),
    logsRange: pick('API_LOGS_RANGE', file.logsRange, 2_000, num),
    indexPollMs: pick('API_INDEX_POLL_MS', file.indexPollMs, 1_000, num),
    indexConfirmations: pick('API_INDEX_CONFIRMATIONS', file.indexConfirmations, chainId === LOCAL_CHAIN_ID ? 0 : 2, num),
    rpcCallsPerSecond: pick('API_RPC_CALLS_PER_SECOND', file.rpcCallsPerSecond, 0, num),
  }
  for (const key of ['indexConfirmations', 'rpcCallsPerSecond'] as const) {
    if (!Number.isInteger(config[key]) || config[key] < 0) throw new ConfigError(`${key} must be a whole number, 0 or more.`)
  }
  for (const key of [
    'cacheMaxEntries',
    'rpcTimeoutMs',
    'requestTimeoutMs',
    'idleTimeoutMs',
    'claimTtlSeconds',
    'logsRange',
    'indexPollMs',
  ] as const) {
    if (!(config[key] > 0)) throw new ConfigError(`${key} must be positive.`)
  }
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl))
    throw new ConfigError('DATABASE_URL must be a postgres:// URL.')
  checkSigner(config)
  return config
}

function checkSigner(config: ServerConfig) {
  const local = config.chainId === LOCAL_CHAIN_ID
  if (config.signerKey && config.signerUrl) {
    throw new ConfigError('Set either VESTING_SIGNER_KEY or VESTING_SIGNER_URL (with VESTING_SIGNER_ADDRESS), not both.')
  }
  if (config.signerUrl) {
    if (!/^https?:\/\//.test(config.signerUrl)) throw new ConfigError('VESTING_SIGNER_URL must be an http(s) URL.')
    if (!config.signerAddress || !isAddress(config.signerAddress)) {
      throw new ConfigError('VESTING_SIGNER_ADDRESS must be the address the remote signer signs with.')
    }
    if (!local && isHardhatDevAddress(config.signerAddress)) {
      throw new ConfigError(`VESTING_SIGNER_ADDRESS is a public Hardhat development account; refused on chain ${config.chainId}.`)
    }
    return
  }
  if (!config.signerKey) {
    throw new ConfigError('Neither VESTING_SIGNER_KEY nor VESTING_SIGNER_URL is set: the service cannot sign claims.')
  }
  try {
    new Wallet(config.signerKey)
  } catch {
    throw new ConfigError('VESTING_SIGNER_KEY is not a valid private key.')
  }
  if (!local && isHardhatDevKey(config.signerKey)) {
    throw new ConfigError(`VESTING_SIGNER_KEY is a public Hardhat development key; refused on chain ${config.chainId}.`)
  }
}
