import path from 'node:path'
import { ROOT, spawnOwned, waitForHttp } from './node'
import { devAccountKey, LOCAL_VESTING_SIGNER_INDEX } from '../../src/domain/devAccounts'

export interface RunningApi {
  url: string
  stop: () => Promise<void>
}

/**
 * Starts the API service (server/index.ts) as a child process and resolves once /health answers; `own` gets its stop
 * as soon as it is spawned (a stack stopped while it starts stops it too).
 */
export async function startApi(
  port: number,
  rpcUrl: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
  own: (piece: { stop: () => Promise<void> }) => void = () => {},
): Promise<RunningApi> {
  const url = `http://127.0.0.1:${port}`
  const { child, stop } = spawnOwned(
    path.join(ROOT, 'node_modules', '.bin', 'ts-node'),
    ['--transpile-only', 'server/index.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        API_PORT: String(port),
        API_RPC_URL: rpcUrl,
        // The local chain's signer is a public dev key; the service refuses it on any other chain.
        VESTING_SIGNER_KEY: process.env.VESTING_SIGNER_KEY ?? devAccountKey(LOCAL_VESTING_SIGNER_INDEX),
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  )
  own({ stop })
  await waitForHttp(`${url}/health`, { child, stop }, { what: 'The API', timeoutMs })
  return { url, stop }
}
