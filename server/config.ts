import fs from 'node:fs'
import path from 'node:path'
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers'
import { HARDHAT_MNEMONIC } from '../scripts/lib/devAccounts'

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
  /** How long a fetched block number is trusted (ms); concurrent requests share one fetch regardless. */
  blockCacheMs: number
  bodyLimitBytes: number
  logLevel: string
  /** Never logged: see redaction in app.ts. */
  signerKey: string
}

const ROOT = path.join(__dirname, '..')
/** The Hardhat chain: development keys are allowed, and the API serves its local explorer. */
export const LOCAL_CHAIN_ID = 31337

/** Addresses of Hardhat's 20 public development keys: usable on the local chain only. */
export function isHardhatDevKey(key: string): boolean {
  const address = new Wallet(key).address
  const m = Mnemonic.fromPhrase(HARDHAT_MNEMONIC)
  for (let i = 0; i < 20; i++) if (HDNodeWallet.fromMnemonic(m, `m/44'/60'/0'/0/${i}`).address === address) return true
  return false
}

export class ConfigError extends Error {}

/**
 * Reads the service configuration from the environment, over an optional JSON file named by API_CONFIG.
 * Refuses to produce a config without a valid signer key, or with a Hardhat key on a chain other than 31337.
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
    bodyLimitBytes: pick('API_BODY_LIMIT', file.bodyLimitBytes, 16 * 1024, num),
    logLevel: pick('API_LOG_LEVEL', file.logLevel, 'info', String),
    signerKey: env.VESTING_SIGNER_KEY ?? '',
  }
  if (!config.signerKey) throw new ConfigError('VESTING_SIGNER_KEY is not set: the service cannot sign claims without it.')
  try {
    new Wallet(config.signerKey)
  } catch {
    throw new ConfigError('VESTING_SIGNER_KEY is not a valid private key.')
  }
  if (config.chainId !== LOCAL_CHAIN_ID && isHardhatDevKey(config.signerKey)) {
    throw new ConfigError(`VESTING_SIGNER_KEY is a public Hardhat development key; refused on chain ${config.chainId}.`)
  }
  return config
}
