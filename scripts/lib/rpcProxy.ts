import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Socket } from 'node:net'
import { answerBehind, type RpcAnswer, type RpcCall } from './laggingBackend'
import { seededRandom } from './seededRandom'

/**
 * What the proxy does with requests: 'none' forwards them; 'down' drops the connection unanswered (the target looks
 * unreachable); 'hang' holds each request open without an answer until the fault is cleared, then drops it (a node
 * that accepts connections but never answers).
 */
export type ProxyFault = 'none' | 'down' | 'hang'

/** What the network between a client and the node looks like (scripts/lib/networkProfiles.ts names the usual ones). */
export interface ProxyNetwork {
  /** Added to each round trip, and a random part of up to ± jitterMs. */
  latencyMs?: number
  jitterMs?: number
  /** eth_getLogs over more blocks than this is refused (-32005), as providers refuse it. */
  logsBlockCap?: number
  /** This share (0 to 1) of the HTTP requests, a batch whole, is answered by a backend `blocks` behind the head. */
  lag?: { blocks: number; share: number }
  /**
   * At most `perSecond` calls (each call of a batch counts, as several providers count) or HTTP requests in any second;
   * a request past it is answered 429 with a JSON-RPC error, and not counted.
   */
  rateLimit?: { perSecond: number; count: 'calls' | 'requests' }
  /** Seed of the random draws (lag, jitter), so that a run can be repeated. */
  seed?: number
}

/**
 * A counting HTTP proxy on 127.0.0.1 in front of a JSON-RPC node or the API: forwards every request to `target` (same
 * path, method and body) and counts HTTP round trips, the bytes of the requests and of the answers, JSON-RPC calls (a batch counts each
 * call) by method, and apart from them the browser's CORS preflights. `setFault` cuts the target off, so tests can
 * show an outage and its end without stopping anything; `setNetwork` (or POST /__proxy/network with the JSON of a
 * ProxyNetwork) makes it a public endpoint: latency, a getLogs cap, lagging backends, a rate limit. For tests and
 * benchmarks of read sharing, outages and public networks.
 */
export async function startRpcProxy(target: string, initial: ProxyNetwork = {}) {
  let network: ProxyNetwork = { ...initial }
  let draw = seededRandom(initial.seed ?? 1)
  /** Times (ms) and weights of what the rate limit let through in the last second. */
  const window: { at: number; n: number }[] = []
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
    /** Requests answered 429 by the rate limit, and requests answered by a lagging backend. */
    limited: 0,
    lagged: 0,
  }
  let fault: ProxyFault = 'none'
  /** eth_call data prefix (a function selector) that the proxy answers with an error instead of forwarding. */
  let failing: string | null = null
  const held = new Set<Socket>()
  const server = http.createServer((req, res) => {
    // The control path, for tests in another process (the e2e stack's): POST /__proxy/fault/<none|down|hang>, or
    // /__proxy/fail-calls/<selector|none>. It answers whatever the fault.
    if (req.url === '/__proxy/network' && req.method === 'POST') {
      const body: Buffer[] = []
      req.on('data', (c) => body.push(c))
      req.on('end', () => {
        try {
          setNetwork(JSON.parse(Buffer.concat(body).toString()) as ProxyNetwork)
          res.writeHead(204).end()
        } catch {
          res.writeHead(400).end()
        }
      })
      return
    }
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
      let refusals: object[] = []
      let batch = false
      let method: string | undefined
      // A public node's round trip, and its cap on eth_getLogs: a wider range is refused as providers refuse it.
      const delay = (network.latencyMs ?? 0) + (network.jitterMs ? (draw() * 2 - 1) * network.jitterMs : 0)
      if (delay > 0) await new Promise((r) => setTimeout(r, delay))
      let parsedCalls: Call[] | null = null
      if (req.method === 'POST')
        try {
          const parsed = JSON.parse(body.toString()) as Call | Call[]
          batch = Array.isArray(parsed)
          const calls = Array.isArray(parsed) ? parsed : [parsed]
          method = calls[0]?.method
          if (calls.every((c) => typeof c?.method === 'string')) parsedCalls = calls
          if (network.rateLimit && !admit(network.rateLimit.count === 'calls' ? calls.length : 1)) {
            counts.limited++
            const refusal = (c: Call) => ({ jsonrpc: '2.0', id: c.id, error: { code: -32005, message: 'rate limit exceeded' } })
            res.writeHead(429, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'retry-after': '1' })
            return void res.end(JSON.stringify(batch ? calls.map(refusal) : refusal(calls[0])))
          }
          for (const call of calls) {
            counts.calls++
            counts.byMethod[call.method] = (counts.byMethod[call.method] ?? 0) + 1
          }
          // A call the proxy refuses gets the error a node gives it: a getLogs range over the cap, or a read past the
          // gas cap (failCalls); the rest of a batch is forwarded.
          const tooWide = (c: Call) => {
            if (!network.logsBlockCap || c.method !== 'eth_getLogs') return false
            const f = (c.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string }
            return Number(f.toBlock) - Number(f.fromBlock) + 1 > network.logsBlockCap
          }
          const hit = (c: Call) =>
            failing !== null && c.method === 'eth_call' && (c.params?.[0]?.data ?? c.params?.[0]?.input ?? '').startsWith(failing)
          refused = calls.filter((c) => tooWide(c) || hit(c))
          refusals = refused.map((c) => ({
            jsonrpc: '2.0',
            id: c.id,
            error: tooWide(c)
              ? { code: -32005, message: `block range exceeds the limit of ${network.logsBlockCap} blocks` }
              : { code: -32000, message: 'gas required exceeds allowance' },
          }))
          if (refused.length > 0) {
            parsedCalls = calls.filter((c) => !refused.includes(c))
            body = Buffer.from(JSON.stringify(parsedCalls))
          }
        } catch {
          // forwarded as is; the node answers the parse error
        }
      if (refused.length > 0 && (!batch || parsedCalls?.length === 0)) {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        res.end(JSON.stringify(batch ? refusals : refusals[0]))
        return
      }
      if (parsedCalls && network.lag && draw() < network.lag.share) {
        counts.lagged++
        try {
          const answers = [...(await behind(parsedCalls, network.lag.blocks)), ...refusals]
          counts.bytes += JSON.stringify(answers).length
          res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
          return void res.end(JSON.stringify(batch ? answers : answers[0]))
        } catch {
          return void res.writeHead(502).end()
        }
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
  /** Whether `n` more calls or requests fit the last second's limit (then they are counted in it). */
  const admit = (n: number) => {
    const now = Date.now()
    while (window.length > 0 && window[0].at <= now - 1000) window.shift()
    const used = window.reduce((sum, w) => sum + w.n, 0)
    if (used + n > network.rateLimit!.perSecond) return false
    window.push({ at: now, n })
    return true
  }
  /** One call to the real node. */
  const forward = async (call: RpcCall): Promise<RpcAnswer> => {
    const r = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', ...call }),
    })
    return (await r.json()) as RpcAnswer
  }
  /** `calls` answered by a backend `blocks` behind the real node's head. */
  const behind = async (calls: RpcCall[], blocks: number) => {
    const head = Number((await forward({ id: 0, method: 'eth_blockNumber', params: [] })).result)
    const at = Math.max(0, head - blocks)
    return Promise.all(calls.map(async (c) => ({ ...(await answerBehind(c, at, forward)), id: c.id })))
  }
  const setNetwork = (next: ProxyNetwork) => {
    network = { ...next }
    draw = seededRandom(next.seed ?? 1)
    window.length = 0
  }
  const reset = () => {
    counts.limited = 0
    counts.lagged = 0
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
  return { url, counts, reset, setFault, failCalls, setNetwork, network: () => network, fault: () => fault, stop }
}
