import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Socket } from 'node:net'

/**
 * What the proxy does with requests: 'none' forwards them; 'down' drops the connection unanswered (the target looks
 * unreachable); 'hang' holds each request open without an answer until the fault is cleared, then drops it (a node
 * that accepts connections but never answers).
 */
export type ProxyFault = 'none' | 'down' | 'hang'

/**
 * A counting HTTP proxy on 127.0.0.1 in front of a JSON-RPC node or the API: forwards every request to `target` (same
 * path, method and body) and counts HTTP round trips, the bytes of the requests and of the answers, JSON-RPC calls (a batch counts each
 * call) by method, and apart from them the browser's CORS preflights. `setFault` cuts the target off, so tests can
 * show an outage and its end without stopping anything. For tests and benchmarks of read sharing and outages.
 */
export async function startRpcProxy(target: string, network: { latencyMs?: number; logsBlockCap?: number } = {}) {
  const counts = {
    roundTrips: 0,
    calls: 0,
    preflights: 0,
    /** Bytes of the answers' bodies. */
    bytes: 0,
    /** Bytes of the requests' bodies (what the app sends). */
    requestBytes: 0,
    byMethod: {} as Record<string, number>,
    /** Milliseconds the target took to answer requests of each method (a batch's time goes to its first method). */
    msByMethod: {} as Record<string, number>,
  }
  let fault: ProxyFault = 'none'
  /** eth_call data prefix (a function selector) that the proxy answers with an error instead of forwarding. */
  let failing: string | null = null
  const held = new Set<Socket>()
  const server = http.createServer((req, res) => {
    // The control path, for tests in another process (the e2e stack's): POST /__proxy/fault/<none|down|hang>, or
    // /__proxy/fail-calls/<selector|none>. It answers whatever the fault.
    const control = /^\/__proxy\/(fault|fail-calls)\/([\w-]+)$/.exec(req.url ?? '')
    if (control && req.method === 'POST') {
      if (control[1] === 'fault' && ['none', 'down', 'hang'].includes(control[2])) setFault(control[2] as ProxyFault)
      else if (control[1] === 'fail-calls') failCalls(control[2] === 'none' ? null : control[2])
      else return void res.writeHead(400).end()
      return void res.writeHead(204).end()
    }
    if (fault === 'down') {
      req.socket.destroy()
      return
    }
    if (fault === 'hang') {
      held.add(req.socket)
      req.socket.once('close', () => held.delete(req.socket))
      return
    }
    // CORS as Hardhat's node answers it (any origin, no max-age, so a browser repeats the preflight after 5 s); an
    // upstream that answers CORS itself (the API) has its own headers passed on.
    if (req.method === 'OPTIONS') {
      counts.preflights++
      res
        .writeHead(200, {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': '*',
          'access-control-allow-methods': 'OPTIONS, GET, POST',
        })
        .end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      let body = Buffer.concat(chunks)
      counts.roundTrips++
      counts.requestBytes += body.length
      type Call = { id?: unknown; method: string; params?: { data?: string; input?: string }[] }
      let refused: Call[] = []
      let batch = false
      let method: string | undefined
      // A public node's round trip, and its cap on eth_getLogs: a wider range is refused as providers refuse it.
      if (network.latencyMs) await new Promise((r) => setTimeout(r, network.latencyMs))
      if (req.method === 'POST')
        try {
          const parsed = JSON.parse(body.toString()) as Call | Call[]
          batch = Array.isArray(parsed)
          const calls = Array.isArray(parsed) ? parsed : [parsed]
          method = calls[0]?.method
          for (const call of calls) {
            counts.calls++
            counts.byMethod[call.method] = (counts.byMethod[call.method] ?? 0) + 1
          }
          if (network.logsBlockCap) {
            const tooWide = (c: Call) => {
              if (c.method !== 'eth_getLogs') return false
              const f = (c.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string }
              return Number(f.toBlock) - Number(f.fromBlock) + 1 > network.logsBlockCap!
            }
            const wide = calls.filter(tooWide)
            if (wide.length > 0) {
              const errors = wide.map((c) => ({
                jsonrpc: '2.0',
                id: c.id,
                error: { code: -32005, message: `block range exceeds the limit of ${network.logsBlockCap} blocks` },
              }))
              if (!batch || wide.length === calls.length) {
                res.writeHead(200, { 'content-type': 'application/json' })
                return void res.end(JSON.stringify(batch ? errors : errors[0]))
              }
            }
          }
          if (failing !== null) {
            const hit = (c: Call) =>
              c.method === 'eth_call' && (c.params?.[0]?.data ?? c.params?.[0]?.input ?? '').startsWith(failing!)
            refused = calls.filter(hit)
            if (refused.length > 0) body = Buffer.from(JSON.stringify(batch ? calls.filter((c) => !hit(c)) : []))
          }
        } catch {
          // forwarded as is; the node answers the parse error
        }
      // A call the proxy refuses gets the error a node gives a read past its gas cap; the rest of a batch is forwarded.
      const refusals = refused.map((c) => ({
        jsonrpc: '2.0',
        id: c.id,
        error: { code: -32000, message: 'gas required exceeds allowance' },
      }))
      if (refused.length > 0 && !batch) {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        res.end(JSON.stringify(refusals[0]))
        return
      }
      try {
        // A JSON-RPC node is reached at `target` itself; the API's paths are kept.
        const dest = req.url && req.url !== '/' ? new URL(req.url, target) : target
        const sentAt = Date.now()
        const upstream = await fetch(dest, {
          method: req.method,
          headers: {
            'content-type': req.headers['content-type'] ?? 'application/json',
            ...(req.headers.origin ? { origin: req.headers.origin } : {}),
          },
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        })
        let text = Buffer.from(await upstream.arrayBuffer())
        if (method) counts.msByMethod[method] = (counts.msByMethod[method] ?? 0) + Date.now() - sentAt
        if (refusals.length > 0) text = Buffer.from(JSON.stringify([...(JSON.parse(text.toString()) as unknown[]), ...refusals]))
        counts.bytes += text.length
        res.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
          'access-control-allow-origin': upstream.headers.get('access-control-allow-origin') ?? '*',
        })
        res.end(text)
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
    counts.bytes = 0
    counts.requestBytes = 0
    counts.byMethod = {}
    counts.msByMethod = {}
  }
  const setFault = (next: ProxyFault) => {
    fault = next
    if (next !== 'hang') for (const socket of held) socket.destroy()
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      setFault('none')
      server.closeAllConnections()
      server.close(() => resolve())
    })
  /** Refuses every eth_call whose data starts with `selector` (null: none), as a node refuses a read over its gas cap. */
  const failCalls = (selector: string | null) => {
    failing = selector?.toLowerCase() ?? null
  }
  return { url, counts, reset, setFault, failCalls, fault: () => fault, stop }
}
