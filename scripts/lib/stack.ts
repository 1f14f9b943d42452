/**
 * The whole local stack for browser tests, on free ports: a Hardhat node with the contracts deployed and seeded,
 * the API, and a production build of the app served with history fallback and the build's headers (its CSP included),
 * by the same server as `npm run serve`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, runHardhatScript, startHardhatNode } from './node'
import { startApi } from './api'
import { buildApp, serveStatic } from './app'
import { startRpcProxy } from './rpcProxy'

export interface E2EStack {
  chainUrl: string
  apiUrl: string
  appUrl: string
  deploymentsDir: string
  /** The production build the app is served from. */
  distDir: string
  /**
   * The counting proxy the app's reads go through (the API and the wallet talk to the node directly), with a fault
   * switch: tests cut the app's chain with it (proxyFault) and restore it.
   */
  rpc: Awaited<ReturnType<typeof startRpcProxy>>
  /** The same in front of the API, as the app reaches it. */
  apiProxy: Awaited<ReturnType<typeof startRpcProxy>>
  /**
   * Proxies in front of the node for the scripted wallet and for the API (its reads and its index): plain unless a
   * network profile is applied (scripts/lib/networkProfiles.ts).
   */
  walletRpc: Awaited<ReturnType<typeof startRpcProxy>>
  apiRpc: Awaited<ReturnType<typeof startRpcProxy>>
  stop: () => Promise<void>
}

export interface E2EStackOptions {
  /** Unused: the counting proxy is always there (kept so callers need not change). */
  countRpc?: boolean
  /** Extra build-time environment for the app (e.g. RENDER_COUNTS=1). */
  buildEnv?: NodeJS.ProcessEnv
  /** A folder for webpack's persistent cache (APP_BUILD_CACHE), shared by stacks whose builds differ only in URLs. */
  buildCache?: string
  /** The build waits for this (another stack that fills `buildCache`) before it starts; the rest starts at once. */
  buildAfter?: Promise<unknown>
  /** Extra environment for the API (e.g. its calls-a-second budget under a network profile). */
  apiEnv?: NodeJS.ProcessEnv
}

export async function startE2EStack(opts: E2EStackOptions = {}): Promise<E2EStack> {
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined)
  }
  try {
    const deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-deployments-'))
    // Its record, build and index (about 45 MB) go when the stack stops, after everything that uses them.
    stops.push(() => fs.promises.rm(deploymentsDir, { recursive: true, force: true }))
    const node = await startHardhatNode(await freePort())
    stops.push(node.stop)
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: deploymentsDir }, { quiet: true })
    const [apiPort, appPort] = [await freePort(), await freePort()]
    const appUrl = `http://127.0.0.1:${appPort}`
    const rpc = await startRpcProxy(node.url)
    stops.push(rpc.stop)
    const apiProxy = await startRpcProxy(`http://127.0.0.1:${apiPort}`)
    stops.push(apiProxy.stop)
    const walletRpc = await startRpcProxy(node.url)
    stops.push(walletRpc.stop)
    const apiRpc = await startRpcProxy(node.url)
    stops.push(apiRpc.stop)
    const dist = path.join(deploymentsDir, 'dist')
    // The API opens its index (PGlite's first start takes seconds) while the app builds: neither waits for the other.
    const [api] = await Promise.all([
      startApi(
        apiPort,
        apiRpc.url,
        {
          ...opts.apiEnv,
          DEPLOYMENTS_DIR: deploymentsDir,
          API_ALLOWED_ORIGINS: appUrl,
          API_LOG_LEVEL: 'warn',
          API_BLOCK_CACHE_MS: '0',
          // The index of this stack's chain, in its own directory (PGlite), asking for new blocks four times a second.
          API_DATA_DIR: path.join(deploymentsDir, 'api-data'),
          API_INDEX_POLL_MS: '250',
        },
        undefined,
        (piece) => stops.push(piece.stop),
      ),
      Promise.resolve(opts.buildAfter).then(() =>
        buildApp(dist, {
          ...opts.buildEnv,
          ...(opts.buildCache ? { APP_BUILD_CACHE: opts.buildCache } : {}),
          DEPLOYMENTS_DIR: deploymentsDir,
          LOCAL_RPC_URL: rpc.url,
          LOCAL_API_URL: apiProxy.url,
        }),
      ),
    ])
    const app = await serveStatic(dist, appPort)
    stops.push(app.stop)
    return {
      chainUrl: node.url,
      apiUrl: api.url,
      appUrl: app.url,
      deploymentsDir,
      distDir: dist,
      rpc,
      apiProxy,
      walletRpc,
      apiRpc,
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}
