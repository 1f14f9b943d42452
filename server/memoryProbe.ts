/**
 * The API in a child process that reports its own memory, for `npm run bench:api-memory` (scripts/bench/apiMemory.ts),
 * which forks this file with --expose-gc so that scripts/ never imports the service. Configuration from the
 * environment, as `npm run api`; it listens on a free port of 127.0.0.1 and answers two IPC messages:
 * it sends `{ url }` once listening, and `{ heap, rss }` in MB (after three full collections) for each 'measure'.
 */
import type { AddressInfo } from 'node:net'
import { buildServer } from './app'
import { loadConfig } from './config'

const MB = 1024 * 1024

async function main() {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc || !process.send) throw new Error('Fork this file with --expose-gc and an IPC channel (bench:api-memory does).')
  const app = await buildServer(loadConfig())
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.on('message', async (message) => {
    if (message === 'measure') {
      for (let i = 0; i < 3; i++) {
        gc()
        await new Promise((r) => setTimeout(r, 50))
      }
      const m = process.memoryUsage()
      process.send!({ heap: m.heapUsed / MB, rss: m.rss / MB })
    } else if (message === 'stop') {
      await app.close()
      process.exit(0)
    }
  })
  process.send({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` })
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
