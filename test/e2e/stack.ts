/**
 * The whole local stack for browser tests, on free ports: a Hardhat node with the contracts deployed and seeded,
 * the API, and a production build of the app served with history fallback.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, runHardhatScript, startHardhatNode } from '../../scripts/lib/node'
import { startApi } from '../../scripts/lib/api'
import { buildApp, serveStatic } from '../../scripts/lib/app'

export interface E2EStack {
  chainUrl: string
  apiUrl: string
  appUrl: string
  deploymentsDir: string
  stop: () => Promise<void>
}

export async function startE2EStack(): Promise<E2EStack> {
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined)
  }
  try {
    const deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-deployments-'))
    const node = await startHardhatNode(await freePort())
    stops.push(node.stop)
    await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: deploymentsDir })
    const [apiPort, appPort] = [await freePort(), await freePort()]
    const appUrl = `http://127.0.0.1:${appPort}`
    const api = await startApi(apiPort, node.url, {
      DEPLOYMENTS_DIR: deploymentsDir,
      API_ALLOWED_ORIGINS: appUrl,
      API_LOG_LEVEL: 'warn',
      API_BLOCK_CACHE_MS: '0',
    })
    stops.push(api.stop)
    const dist = path.join(deploymentsDir, 'dist')
    await buildApp(dist, { DEPLOYMENTS_DIR: deploymentsDir, LOCAL_RPC_URL: node.url, LOCAL_API_URL: api.url })
    const app = await serveStatic(dist, appPort)
    stops.push(app.stop)
    return { chainUrl: node.url, apiUrl: api.url, appUrl: app.url, deploymentsDir, stop }
  } catch (err) {
    await stop()
    throw err
  }
}
