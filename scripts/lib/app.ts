import fs from 'node:fs'
import http, { STATUS_CODES } from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import { CACHE_REVALIDATE, COMPRESSED_EXTENSIONS, headersFor, HEADERS_FILE, parseHeadersFile } from '../../src/hosting/headers'
import { documentFor } from '../../src/hosting/documents'
import { ROOT, spawnOwned, waitForHttp } from './node'

export interface RunningApp {
  url: string
  stop: () => Promise<void>
}

/**
 * The webpack dev server (React Fast Refresh, history fallback) on 127.0.0.1:`port`, built against `env`. `own` gets
 * its stop as soon as it is spawned, so a Ctrl-C during the first build stops it too.
 */
export async function startDevServer(
  port: number,
  env: NodeJS.ProcessEnv,
  timeoutMs = 180_000,
  own: (piece: { stop: () => Promise<void> }) => void = () => {},
): Promise<RunningApp> {
  const url = `http://127.0.0.1:${port}`
  const { child, stop } = spawnOwned(
    process.execPath,
    [
      '-r',
      './webpack.register.js',
      './node_modules/webpack-cli/bin/cli.js',
      'serve',
      '--disable-interpret',
      '--mode',
      'development',
    ],
    { cwd: ROOT, env: { ...process.env, ...env, APP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  own({ stop })
  await waitForHttp(url, { child, stop }, { what: 'The dev server', timeoutMs })
  return { url, stop }
}

/** A production build of the app into `outDir`, configured by `env` (deployments, RPC and API URLs). */
export function buildApp(outDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const { child } = spawnOwned(
      process.execPath,
      ['-r', './webpack.register.js', './node_modules/webpack-cli/bin/cli.js', '--disable-interpret', '--mode', 'production'],
      { cwd: ROOT, env: { ...process.env, ...env, APP_OUT_DIR: outDir }, stdio: ['ignore', 'ignore', 'inherit'] },
    )
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`webpack build exited with ${code}`))))
  })
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}

/**
 * Text types sent compressed to a client that accepts it, as any real host does: the build's brotli copy (`<file>.br`,
 * webpack.config.ts) when the client takes br (a CDN's or nginx `brotli_static`), else gzip made here (nginx `gzip on`).
 */
const COMPRESSIBLE = new Set(COMPRESSED_EXTENSIONS)

/** The content codings an Accept-Encoding header takes (RFC 9110 §12.5.3: a coding at q=0 is refused). */
export function acceptedCodings(header: string | undefined): Set<string> {
  const taken = new Set<string>()
  for (const item of (header ?? '').split(',')) {
    const [name, ...params] = item.split(';').map((p) => p.trim().toLowerCase())
    const q = params.find((p) => /^q\s*=/.test(p))
    if (name && (q === undefined || Number(q.replace(/^q\s*=\s*/, '')) > 0)) taken.add(name)
  }
  return taken
}
/** Longest path segment a file name can have (bytes, as on Linux, macOS and Windows): a longer one names nothing. */
const MAX_SEGMENT_BYTES = 255

/** The decoded, normalised path of a request's URL, or null when it cannot name a file (answered 400). */
function requestPath(url = '/'): string | null {
  let decoded: string
  try {
    decoded = path.posix.normalize(decodeURIComponent(new URL(url, 'http://x').pathname))
  } catch {
    return null
  }
  return decoded.includes('\0') || decoded.split('/').some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES) ? null : decoded
}

/**
 * Serves a built app from `dir` on `host`:`port` (127.0.0.1 unless told) with the headers its build wrote
 * (`_headers`, src/hosting/headers.ts): the Content-Security-Policy and the other security headers on every answer,
 * a year's cache for the hashed files in static/, revalidation for the documents; text compressed when the client
 * accepts it (brotli from the build's `.br` copy, else gzip; Vary: Accept-Encoding), so the bytes on the wire are what a
 * real host sends. A path without a file extension
 * that is not a file gets its screen's document (src/hosting/documents.ts: /staking… staking.html, else index.html,
 * history routing); a missing file gets 404, not index.html, so a stale page asking
 * for an old chunk fails clearly (and nosniff would refuse HTML as a script anyway).
 *
 * No request can stop it: a path that cannot name a file (a NUL, a segment over 255 bytes, malformed
 * percent-encoding) is a 400, one that runs through a file (`/index.html/x.js`) or that the file system refuses
 * otherwise is not a file (404, or its document), and what Node's HTTP parser refuses (headers over 16 KB,
 * malformed HTTP) is answered on the socket; every answer, these included, carries the security headers.
 */
export function serveStatic(dir: string, port: number, host = '127.0.0.1'): Promise<RunningApp> {
  const root = path.resolve(dir)
  const headersFile = path.join(root, HEADERS_FILE)
  if (!fs.existsSync(path.join(root, 'index.html')) || !fs.existsSync(headersFile))
    return Promise.reject(new Error(`${root} is not a production build (no index.html or ${HEADERS_FILE}): run npm run build`))
  const rules = parseHeadersFile(fs.readFileSync(headersFile, 'utf8'))
  // Compressed bodies once per file version and coding (path and ETag): the build's files are few and do not change
  // while served. Brotli is the build's copy, gzip is made here.
  const compressed = new Map<string, Buffer>()
  const compressedBody = (file: string, etag: string, make: () => Buffer) => {
    const key = `${file}\0${etag}`
    let body = compressed.get(key)
    if (!body) compressed.set(key, (body = make()))
    return body
  }
  // Lower-cased, so the defaults below and the file's headers cannot both go out under two spellings.
  const headersAt = (urlPath: string) =>
    Object.fromEntries(Object.entries(headersFor(rules, urlPath)).map(([k, v]) => [k.toLowerCase(), v]))
  const fileIn = (urlPath: string): string | null => {
    const file = path.join(root, urlPath)
    if (!file.startsWith(root + path.sep) || file === headersFile) return null
    try {
      return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : null
    } catch {
      // ENOTDIR (a path through a file), ENAMETOOLONG, EACCES, ELOOP...: not a file we serve.
      return null
    }
  }
  const plain = (status: number, text: string) => ({
    ...headersAt('/'),
    'content-type': TYPES['.txt'],
    'cache-control': CACHE_REVALIDATE,
    'content-length': Buffer.byteLength(text),
  })
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const urlPath = requestPath(req.url)
    // RFC 9112 §3.2 (Node's own check is off: its 400 would go out without the headers).
    if (urlPath === null || (req.httpVersion === '1.1' && req.headers.host === undefined)) {
      res.writeHead(400, plain(400, 'Bad request')).end('Bad request')
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headersAt(urlPath), allow: 'GET, HEAD', 'cache-control': CACHE_REVALIDATE }).end()
      return
    }
    const file = fileIn(urlPath) ?? (path.posix.extname(urlPath) === '' ? path.join(root, documentFor(urlPath)) : null)
    if (!file) {
      res.writeHead(404, { ...headersAt(urlPath), 'content-type': TYPES['.txt'], 'cache-control': CACHE_REVALIDATE })
      res.end('Not found')
      return
    }
    // Headers by the file answered, so a history-routing path gets its document's.
    const served = `/${path.relative(root, file).split(path.sep).join('/')}`
    const stat = fs.statSync(file)
    const compressible = COMPRESSIBLE.has(path.extname(file))
    const codings = compressible ? acceptedCodings(req.headers['accept-encoding']) : new Set<string>()
    const brotli = codings.has('br') ? fileIn(`${served}.br`) : null
    const gzip = !brotli && codings.has('gzip')
    const version = `${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`
    // Each encoding is its own representation, with its own ETag.
    const etag = brotli ? `"${version}-br"` : gzip ? `"${version}-gz"` : `"${version}"`
    const headers = {
      'cache-control': CACHE_REVALIDATE,
      ...headersAt(served),
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      etag,
      ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    }
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end()
      return
    }
    if (brotli || gzip) {
      const body = brotli
        ? compressedBody(file, etag, () => fs.readFileSync(brotli))
        : compressedBody(file, etag, () => zlib.gzipSync(fs.readFileSync(file), { level: 9 }))
      res.writeHead(200, { ...headers, 'content-encoding': brotli ? 'br' : 'gzip', 'content-length': body.length })
      res.end(req.method === 'HEAD' ? undefined : body)
      return
    }
    res.writeHead(200, { ...headers, 'content-length': stat.size })
    if (req.method === 'HEAD') res.end()
    else
      fs.createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res)
  }
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    try {
      answer(req, res)
    } catch {
      // Not the request's doing (the build folder changed under the server): said plainly, and the server goes on.
      if (res.headersSent) res.destroy()
      else res.writeHead(500, plain(500, 'Internal error')).end('Internal error')
    }
  })
  // Node answers an Expect other than 100-continue with a bare 417 of its own unless this is listened for.
  server.on(
    'checkExpectation',
    (_req, res) => void res.writeHead(417, plain(417, 'Expectation Failed')).end('Expectation Failed'),
  )
  // What Node's HTTP parser refuses never reaches the handler: answered here, with the same headers, then closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    const text = STATUS_CODES[status]!
    const headers = Object.entries({ ...plain(status, text), connection: 'close' })
    socket.end(`HTTP/1.1 ${status} ${text}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${text}`)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () =>
      resolve({
        url: `http://${host}:${port}`,
        stop: () =>
          new Promise<void>((r) => {
            server.close(() => r())
            server.closeAllConnections()
          }),
      }),
    )
  })
}
