import net from 'node:net'

/** What a server sent on one connection until it closed it (or the wait ran out). */
export interface RawAnswer {
  /** Everything received, as latin1 text (a compressed body stays compressed). */
  text: string
  /** The status of each response on the connection (an interim 100 and pipelined answers included). */
  statuses: number[]
  /** The first final response's headers, names lower-cased. */
  headers: Record<string, string>
  /** The first final response's body as received. */
  body: string
  /** True when the server had not closed the connection within the wait. */
  timedOut: boolean
}

/** `METHOD target HTTP/1.1` with Host, `Connection: close`, `headers` and a body with its Content-Length. */
export function httpRequest(
  method: string,
  target: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Buffer {
  const all: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...headers }
  if (body !== undefined && !Object.keys(all).some((h) => /^(content-length|transfer-encoding)$/i.test(h)))
    all['content-length'] = String(Buffer.byteLength(body))
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(body ?? '')])
}

/**
 * Writes `request` (bytes, sent as they are: malformed HTTP too) on a new connection to 127.0.0.1:`port` and collects
 * what comes back until the server closes the connection, or `timeoutMs`.
 */
export function exchange(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      socket.destroy()
    }, timeoutMs)
    socket.on('connect', () => socket.write(request))
    socket.on('data', (d) => chunks.push(d))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ ...parse(Buffer.concat(chunks).toString('latin1')), timedOut })
    })
  })
}

function parse(text: string): Omit<RawAnswer, 'timedOut'> {
  const statuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]))
  // The first final answer: after any interim 1xx.
  const start = text.search(/HTTP\/1\.[01] [2-5]\d\d /)
  const rest = start < 0 ? '' : text.slice(start)
  const end = rest.indexOf('\r\n\r\n')
  const head = end < 0 ? rest : rest.slice(0, end)
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { text, statuses, headers, body: end < 0 ? '' : rest.slice(end + 4) }
}
