/**
 * `npm run api`: the vesting and contract-parser service. Configuration from the environment (see README);
 * stops gracefully on SIGINT/SIGTERM (in-flight requests finish, the RPC provider is closed).
 */
import { buildServer } from './app'
import { ConfigError, loadConfig } from './config'

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err)
    process.exit(1)
  }
  const app = await buildServer(config)
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down')
    // In-flight requests get a few seconds; a client that holds its connection open cannot keep the process alive.
    setTimeout(() => process.exit(0), 10_000).unref()
    await app.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  await app.listen({ host: config.host, port: config.port })
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
