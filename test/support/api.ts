import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { JsonRpcProvider, Wallet } from 'ethers'
import { buildServer } from '../../server/app'
import { answerClaimArgs, type VestingAnswer } from '../../src/domain/vestingAnswer'
import type { ServerConfig } from '../../server/config'
import { devAccountKey, LOCAL_VESTING_SIGNER_INDEX } from '../../src/domain/devAccounts'
import { freePort, runHardhatScript, startHardhatNode, type RunningNode } from '../../scripts/lib/node'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'

export const CHAIN_URL = () => process.env.CHAIN_URL!
export const record = (): DeploymentRecord =>
  JSON.parse(fs.readFileSync(path.join(process.env.TEST_DEPLOYMENTS_DIR!, '31337.json'), 'utf8'))

export function provider(url = CHAIN_URL()): JsonRpcProvider {
  return new JsonRpcProvider(url, 31337, { staticNetwork: true, cacheTimeout: -1 })
}

/** Hardhat account `i` connected to `p`. */
export const account = (i: number, p: JsonRpcProvider) => new Wallet(devAccountKey(i), p)

export async function chainNow(p: JsonRpcProvider): Promise<number> {
  return (await p.getBlock('latest'))!.timestamp
}

export async function travelTo(p: JsonRpcProvider, timestamp: number) {
  await p.send('evm_setNextBlockTimestamp', [timestamp])
  await p.send('evm_mine', [])
}

/** harvest(...)'s arguments from a vesting answer with a signature, as the app sends them. */
export function claimArgs(a: VestingAnswer) {
  const args = answerClaimArgs(a)
  if (!args) throw new Error('the answer holds no signed claim')
  return args
}

/** Writes an allocations file to a temp dir and returns its path. */
export function allocationsFile(content: object): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alloc-')), 'allocations.json')
  fs.writeFileSync(file, JSON.stringify(content))
  return file
}

/**
 * A connection idle this long is closed (idleTimeoutMs): saga tests pass it so a service stops as soon as its test
 * ends, where the production 30 s kept each close waiting for the app's kept-alive connections (28 s a service).
 */
export const QUICK_CLOSE_MS = 2_000

/** An empty data directory for one service (its PGlite, its lock file). */
export const freshDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'api-data-'))

/** The real service on a free port against the test node, with the production defaults; logs are kept so tests can read them. */
export async function startTestApi(overrides: Partial<ServerConfig> = {}) {
  const logs: string[] = []
  const logStream = new PassThrough()
  logStream.on('data', (d) => logs.push(String(d)))
  const dir = process.env.TEST_DEPLOYMENTS_DIR!
  const config: ServerConfig = {
    host: '127.0.0.1',
    port: 0,
    rpcUrl: CHAIN_URL(),
    chainId: 31337,
    allocationsFile: path.join(dir, 'allocations.31337.json'),
    deploymentsDir: dir,
    artifactsDir: path.join(__dirname, '..', '..', 'artifacts'),
    allowedOrigins: ['http://app.test'],
    blockCacheMs: 0,
    cacheMaxEntries: 10_000,
    rpcTimeoutMs: 5_000,
    requestTimeoutMs: 10_000,
    idleTimeoutMs: 30_000,
    rateLimitMax: 300,
    rateLimitWindowMs: 60_000,
    trustProxy: false,
    claimTtlSeconds: 1_800,
    retryAfterSeconds: 5,
    bodyLimitBytes: 16 * 1024,
    logLevel: 'info',
    signerKey: devAccountKey(LOCAL_VESTING_SIGNER_INDEX),
    // Off unless a test is about the index: each PGlite takes seconds of CPU to start.
    indexEnabled: false,
    dataDir: freshDataDir(),
    logsRange: 2_000,
    indexPollMs: 200,
    indexConfirmations: 0,
    rpcCallsPerSecond: 0,
    ...overrides,
  }
  const app = await buildServer(config, { logStream })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  return { app, url, logs, config }
}

export async function getJson(url: string) {
  const res = await fetch(url)
  return { status: res.status, body: await res.json(), headers: res.headers }
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json(), headers: res.headers }
}

/**
 * The service with default settings for a whole test file, and a provider to the node: registers the Jest hooks
 * that start and stop them. Call at the top of a describe block; read `.api` inside tests.
 */
export function apiSession() {
  const session = { p: provider(), rec: record(), api: undefined as unknown as Awaited<ReturnType<typeof startTestApi>> }
  beforeAll(async () => {
    session.api = await startTestApi()
  })
  afterAll(async () => {
    await session.api.app.close()
    session.p.destroy()
  })
  return session
}

/**
 * A Hardhat node of the test's own, deployed and seeded as `npm start` does (its record and allocations in a temp
 * dir), for tests that roll the chain back or restart it. `down()` stops the node; `up()` starts a fresh one on the
 * same port and deploys again: same addresses, new genesis. `apiConfig` points the service at it.
 */
export async function dedicatedChain() {
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-chain-'))
  const start = async () => {
    const node = await startHardhatNode(port)
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir }, { quiet: true })
    return node
  }
  const chain = {
    node: await start(),
    url: `http://127.0.0.1:${port}`,
    dir,
    record: (): DeploymentRecord => JSON.parse(fs.readFileSync(path.join(dir, '31337.json'), 'utf8')),
    apiConfig: {
      rpcUrl: `http://127.0.0.1:${port}`,
      deploymentsDir: dir,
      allocationsFile: path.join(dir, 'allocations.31337.json'),
    } satisfies Partial<ServerConfig>,
    down: () => chain.node.stop(),
    async up() {
      chain.node = await start()
    },
  }
  return chain as typeof chain & { node: RunningNode }
}
