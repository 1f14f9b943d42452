/**
 * `npm start`: the whole local stack. A Hardhat node on 127.0.0.1:8545 (chain 31337), the contracts deployed and
 * seeded with the demo, running until Ctrl-C, which stops everything it started.
 */
import { isPortFree, runHardhatScript, startHardhatNode, type RunningNode } from './lib/node'

const PORT = Number(process.env.CHAIN_PORT ?? 8545)
const DEMO_HISTORY_DAYS = 60

async function main() {
  if (!(await isPortFree(PORT))) {
    console.error(
      `Port ${PORT} on 127.0.0.1 is already in use: stop whatever runs there (another "npm start"?) or set CHAIN_PORT.`,
    )
    process.exit(1)
  }
  const started: RunningNode[] = []
  let stopping = false
  const shutdown = async (code: number) => {
    if (stopping) return
    stopping = true
    console.log('\nStopping the local stack...')
    for (const n of started.reverse()) await n.stop()
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
  } catch (err) {
    console.error(err instanceof Error ? err.message : err)
    await shutdown(1)
  }
  console.log(`\nLocal chain ready: ${node.url} (chain 31337). Contracts in deployments/31337.json. Ctrl-C stops it.`)
}

void main()
