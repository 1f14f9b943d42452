/**
 * `npm start`: the whole local stack. A Hardhat node on 127.0.0.1:8545 (chain 31337), the contracts deployed and
 * seeded with the demo, the API on 127.0.0.1:8787 and the app's dev server on 127.0.0.1:3000, running until Ctrl-C,
 * which stops everything it started.
 */
import { isPortFree, runHardhatScript, startHardhatNode } from './lib/node'
import { startApi } from './lib/api'
import { startDevServer } from './lib/app'

const PORT = Number(process.env.CHAIN_PORT ?? 8545)
const API_PORT = Number(process.env.API_PORT ?? 8787)
const APP_PORT = Number(process.env.APP_PORT ?? 3000)
const DEMO_HISTORY_DAYS = 45

async function main() {
  for (const [port, name] of [
    [PORT, 'CHAIN_PORT'],
    [API_PORT, 'API_PORT'],
    [APP_PORT, 'APP_PORT'],
  ] as const) {
    if (!(await isPortFree(port))) {
      console.error(
        `Port ${port} on 127.0.0.1 is already in use: stop whatever runs there (another "npm start"?) or set ${name}.`,
      )
      process.exit(1)
    }
  }
  const started: { stop: () => Promise<void> }[] = []
  let stopping = false
  const shutdown = async (code: number) => {
    if (stopping) return
    stopping = true
    console.log('\nStopping the local stack...')
    for (const piece of started.reverse()) await piece.stop()
    process.exit(code)
  }
  process.on('SIGINT', () => void shutdown(0))
  process.on('SIGTERM', () => void shutdown(0))
  // npm does not always pass a signal on to its script: if our parent goes away, take the stack down with us.
  const parent = process.ppid
  setInterval(() => process.ppid !== parent && void shutdown(0), 1000).unref()

  console.log(`Starting Hardhat node on 127.0.0.1:${PORT} (chain 31337)...`)
  const initialDate = new Date(Date.now() - DEMO_HISTORY_DAYS * 86_400_000).toISOString()
  const node = await startHardhatNode(PORT, { HARDHAT_INITIAL_DATE: initialDate })
  started.push(node)
  node.child.once('exit', () => void shutdown(1))
  try {
    await runHardhatScript('scripts/deploy.ts', node.url)
    console.log(`Starting the API on 127.0.0.1:${API_PORT}...`)
    // Each piece is owned from its spawn: a Ctrl-C while it starts (the app's first build takes a minute) stops it too.
    const own = (piece: { stop: () => Promise<void> }) => started.push(piece)
    await startApi(
      API_PORT,
      node.url,
      {
        API_LOG_LEVEL: process.env.API_LOG_LEVEL ?? 'warn',
        API_ALLOWED_ORIGINS: process.env.API_ALLOWED_ORIGINS ?? `http://127.0.0.1:${APP_PORT},http://localhost:${APP_PORT}`,
      },
      undefined,
      own,
    )
    console.log(`Starting the app on 127.0.0.1:${APP_PORT} (first build takes about a minute)...`)
    await startDevServer(APP_PORT, { LOCAL_RPC_URL: node.url, LOCAL_API_URL: `http://127.0.0.1:${API_PORT}` }, undefined, own)
  } catch (err) {
    console.error(err instanceof Error ? err.message : err)
    await shutdown(1)
  }
  console.log('\nLocal stack ready (Ctrl-C stops it):')
  console.log(`  chain  ${node.url} (chain 31337), contracts in deployments/31337.json`)
  console.log(`  API    http://127.0.0.1:${API_PORT}  e.g. /vesting/address/0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266`)
  console.log(`\n  Open http://127.0.0.1:${APP_PORT} and choose "Development account" (no wallet extension needed).`)
}

void main()
