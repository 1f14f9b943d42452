import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A counting JSON-RPC proxy on 127.0.0.1: forwards every request to `target` and counts HTTP round trips and
 * JSON-RPC calls (a batch counts each call) by method, and apart from them the browser's CORS preflights. For tests
 * and benchmarks of read sharing.
 */
export async function startRpcProxy(target: string) {
  const counts = { roundTrips: 0, calls: 0, preflights: 0, byMethod: {} as Record<string, number> }
  const server = http.createServer((req, res) => {
    // CORS as Hardhat's node answers it (any origin, no max-age, so a browser repeats the preflight after 5 s).
    res.setHeader('access-control-allow-origin', '*')
    if (req.method === 'OPTIONS') {
      counts.preflights++
      res.writeHead(200, { 'access-control-allow-headers': '*', 'access-control-allow-methods': 'OPTIONS, GET' }).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString()
      counts.roundTrips++
      try {
        const parsed = JSON.parse(body) as { method: string } | { method: string }[]
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          counts.calls++
          counts.byMethod[call.method] = (counts.byMethod[call.method] ?? 0) + 1
        }
      } catch {
        // forwarded as is; the node answers the parse error
      }
      try {
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        res.writeHead(upstream.status, { 'content-type': 'application/json' })
        res.end(await upstream.text())
      } catch {
        res.writeHead(502).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const reset = () => {
    counts.roundTrips = 0
    counts.calls = 0
    counts.preflights = 0
    counts.byMethod = {}
  }
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { url, counts, reset, stop }
}
