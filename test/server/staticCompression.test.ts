/**
 * How the static server (`npm run serve`'s, the browser tests' and the Lighthouse bench's) compresses: the build's
 * brotli copy to a client that takes br, gzip made on the spot to one that takes only gzip, the file as it is
 * otherwise; each a representation of its own (ETag, Vary), none sent to a client that refuses it with q=0.
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { formatHeadersFile, headerRules } from '../../src/hosting/headers'
import { acceptedCodings, serveStatic, type RunningApp } from '../../scripts/lib/app'
import { freePort } from '../../scripts/lib/node'

// Text that compresses, like a bundle: more than a kilobyte of repeated code.
const SCRIPT = 'export function f(a,b){return a+b}\n'.repeat(200)
let dist: string
let app: RunningApp
let port: number

beforeAll(async () => {
  // A build's shape: two documents, a hashed script with the brotli copy the build writes beside it, the headers file.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'compression-dist-'))
  fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>app</title>${'<p>claim</p>'.repeat(100)}`)
  fs.writeFileSync(path.join(dist, 'staking.html'), `<!doctype html><title>staking</title>${'<p>stake</p>'.repeat(100)}`)
  fs.writeFileSync(path.join(dist, 'index.html.br'), zlib.brotliCompressSync(fs.readFileSync(path.join(dist, 'index.html'))))
  fs.mkdirSync(path.join(dist, 'static'))
  fs.writeFileSync(path.join(dist, 'static', 'main.0123abcd.js'), SCRIPT)
  fs.writeFileSync(path.join(dist, 'static', 'main.0123abcd.js.br'), zlib.brotliCompressSync(SCRIPT))
  fs.writeFileSync(path.join(dist, '_headers'), formatHeadersFile(headerRules("default-src 'self'")))
  port = await freePort()
  app = await serveStatic(dist, port)
})
afterAll(async () => {
  await app.stop()
  fs.rmSync(dist, { recursive: true, force: true })
})

/** One GET with `headers`, the body as sent (not decoded). */
function get(urlPath: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}

describe('the static server compresses', () => {
  it("sends the build's brotli copy to a browser that takes br, which decodes to the file", async () => {
    const a = await get('/static/main.0123abcd.js', { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(a.status).toBe(200)
    expect(a.headers['content-encoding']).toBe('br')
    expect(a.headers.vary).toBe('Accept-Encoding')
    expect(a.headers.etag).toMatch(/-br"$/)
    expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(Number(a.headers['content-length'])).toBe(a.body.length)
    expect(zlib.brotliDecompressSync(a.body).toString()).toBe(SCRIPT)
    // A document reached by its route is sent from its own copy too.
    const doc = await get('/some/route', { 'accept-encoding': 'br' })
    expect(doc.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(doc.body).toString()).toBe(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))
  })

  it('sends gzip to a browser that does not take br, or where the build wrote no brotli copy', async () => {
    for (const [urlPath, accept] of [
      ['/static/main.0123abcd.js', 'gzip, deflate'],
      ['/static/main.0123abcd.js', 'br;q=0, gzip'],
      ['/staking', 'gzip, br'],
    ]) {
      const a = await get(urlPath, { 'accept-encoding': accept })
      expect([urlPath, accept, a.headers['content-encoding']]).toEqual([urlPath, accept, 'gzip'])
      expect(a.headers.etag).toMatch(/-gz"$/)
      expect(zlib.gunzipSync(a.body).length).toBeGreaterThan(1000)
    }
  })

  it('sends the file as it is to a client that takes neither, and answers 304 to each representation it has', async () => {
    for (const accept of ['', 'identity', 'br;q=0, gzip;q=0', '*']) {
      const a = await get('/static/main.0123abcd.js', { 'accept-encoding': accept })
      expect([accept, a.headers['content-encoding'], a.body.toString()]).toEqual([accept, undefined, SCRIPT])
    }
    for (const accept of ['br', 'gzip', '']) {
      const first = await get('/static/main.0123abcd.js', { 'accept-encoding': accept })
      const again = await get('/static/main.0123abcd.js', { 'accept-encoding': accept, 'if-none-match': first.headers.etag! })
      expect([accept, again.status, again.body.length]).toEqual([accept, 304, 0])
    }
  })

  it('reads Accept-Encoding as RFC 9110 does: codings by name, any case, refused only at q=0', () => {
    expect([...acceptedCodings('gzip, deflate, br, zstd')]).toEqual(['gzip', 'deflate', 'br', 'zstd'])
    expect([...acceptedCodings('BR;q=0.5 , gzip;q=0')]).toEqual(['br'])
    expect([...acceptedCodings('br; q = 0.0, gzip; q=1')]).toEqual(['gzip'])
    expect([...acceptedCodings(undefined)]).toEqual([])
  })
})
