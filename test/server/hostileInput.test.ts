/**
 * Hostile input, case by case, against the API and the static server (`npm run serve`'s and the browser tests'), each
 * started here on a free port: after every case, no answer on the connection is a 5xx, the answer carries the
 * security headers, nothing the client sent comes back (the marker HOSTILE, a script tag), and the server still answers
 * /health (the API) or / (the static server).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { formatHeadersFile, headerRules } from '../../src/hosting/headers'
import { serveStatic, type RunningApp } from '../../scripts/lib/app'
import { freePort } from '../../scripts/lib/node'
import { record, startTestApi } from '../support/api'
import { exchange, httpRequest, type RawAnswer } from '../support/rawHttp'

const MARK = 'HOSTILE'

interface Case {
  name: string
  request: Buffer
  /** The server may close the connection without an answer (CONNECT without a handler, a torn request). */
  mayClose?: boolean
}

const get = (target: string, headers: Record<string, string> = {}) => httpRequest('GET', target, { headers })
const post = (target: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  httpRequest('POST', target, { headers, body })

/** The same letters with the case of each a-f flipped: the checksum no longer holds. */
const flipCase = (address: string) =>
  '0x' + [...address.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('')

/** Path segments that try the router, the decoder, the file system and the schemas. */
function segments(address: string): string[] {
  return [
    '%ff',
    '%',
    '%zz',
    '%00',
    '%u0041',
    '%c0%ae%c0%ae',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '..%2f..%2f..%2fetc%2fpasswd',
    '../../../etc/passwd',
    '..%5c..%5cwindows%5cwin.ini',
    `<script>${MARK}</script>`,
    `%3Cscript%3E${MARK}%3C%2Fscript%3E`,
    `%ff<script>${MARK}</script>`,
    `'><img%20src=x%20onerror=${MARK}>`,
    'a'.repeat(101),
    'a'.repeat(256),
    `${MARK}${'a'.repeat(10_000)}`,
    `0x${'a'.repeat(10_000)}`,
    `0x${'g'.repeat(40)}`,
    `0x${'a'.repeat(39)}`,
    `0x${'a'.repeat(41)}`,
    flipCase(address),
    `0X${address.slice(2)}`,
    `%20${address}`,
    `${address}%00`,
    `${address}%0d%0aSet-Cookie:%20${MARK}=1`,
    `${address}/`,
    `${address}/${MARK}`,
    `${address}.js`,
    '%F0%9F%92%A9',
    '%E2%80%AE',
    '%EF%BF%BF',
    'é',
    '{{7*7}}',
    '${jndi:ldap://x/a}',
    "'%20OR%201=1--",
    'constructor',
    '__proto__',
    'hasOwnProperty',
    '%2f%2f',
    '//',
    ';x=1',
    '.',
    '..',
    '~',
    '*',
    MARK,
    `${MARK}.js`,
    `${MARK}%2e..%2f`,
    '%25%32%65',
  ]
}

/** Bodies for the POST routes: broken JSON, wrong shapes, poisoning, oversized and hostile values. */
function bodies(address: string): [string, string | Buffer][] {
  const json = (v: unknown) => JSON.stringify(v)
  return [
    ['an unfinished object', '{'],
    ['an unfinished field', '{"address":'],
    ['null', 'null'],
    ['true', 'true'],
    ['a number', '123'],
    ['a string', `"${MARK}<script>"`],
    ['an array', '[]'],
    ['an empty object', '{}'],
    ['8,000 nested arrays', '['.repeat(8_000) + ']'.repeat(8_000)],
    ['2,500 nested objects', '{"a":'.repeat(2_500) + '1' + '}'.repeat(2_500)],
    ['__proto__', `{"__proto__":{"polluted":"${MARK}"},"address":"${address}","network":31337}`],
    ['constructor.prototype', `{"constructor":{"prototype":{"x":"${MARK}"}},"address":"${address}","network":31337}`],
    ['a script as address', json({ address: `${MARK}<script>`, network: 31337 })],
    ['a script as network', json({ address, network: `<script>${MARK}` })],
    ['network 1e999', `{"address":"${address}","network":1e999}`],
    ['network -1', json({ address, network: -1 })],
    ['network 0', json({ address, network: 0 })],
    ['network 31337.5', json({ address, network: 31337.5 })],
    ['network "31337 "', json({ address, network: '31337 ' })],
    ['network 0x7a69', json({ address, network: '0x7a69' })],
    ['network of 13 digits', json({ address, network: '9'.repeat(13) })],
    ['network 2^53 + 1', `{"address":"${address}","network":9007199254740993}`],
    ['address as an object', json({ address: { [MARK]: 1 }, network: 31337 })],
    ['address null', json({ address: null, network: 31337 })],
    ['address empty', json({ address: '', network: 31337 })],
    ['address with a wrong checksum', json({ address: flipCase(address), network: 31337 })],
    ['address of 10,000 characters', json({ address: `0x${'a'.repeat(10_000)}`, network: 31337 })],
    ['address lower-case', json({ address: address.toLowerCase(), network: 31337 })],
    ['51 addresses', json({ address: Array(51).fill(address), network: 31337 })],
    ['300 addresses', json({ address: Array(300).fill(address), network: 31337 })],
    ['50 copies of one address', json({ address: Array(50).fill(address), network: 31337 })],
    ['an address and a marker', json({ address: [address, `${MARK}<script>`], network: 31337 })],
    ['duplicate keys', `{"address":"${MARK}","address":"${address}","network":31337}`],
    ['an extra field', json({ address, network: 31337, [`${MARK}<script>`]: 1 })],
    ['a byte-order mark', `\ufeff${json({ address, network: 31337 })}`],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d])],
    ['UTF-16', Buffer.from(json({ address, network: 31337 }), 'utf16le')],
    ['20 KB (over the body limit)', json({ address, network: 31337, pad: 'x'.repeat(20_000) })],
  ]
}

/** Everything on a POST route that is not the body's content: media types, encodings, lengths. */
function postShapes(route: string, address: string): Case[] {
  const body = JSON.stringify({ address, network: 31337 })
  const raw = (name: string, head: string, rest = '', mayClose = false): Case => ({
    name,
    request: Buffer.from(`POST ${route} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${head}\r\n${rest}`),
    mayClose,
  })
  return [
    { name: 'text/plain', request: post(route, body, { 'content-type': 'text/plain' }) },
    {
      name: 'a form',
      request: post(route, `address=${address}&network=31337`, { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    {
      name: 'multipart',
      request: post(route, `--x\r\n\r\n${MARK}\r\n--x--`, { 'content-type': 'multipart/form-data; boundary=x' }),
    },
    { name: 'a scripted charset', request: post(route, body, { 'content-type': `application/json; charset=${MARK}<script>` }) },
    { name: 'charset utf-16', request: post(route, body, { 'content-type': 'application/json; charset=utf-16' }) },
    { name: 'no content type', request: post(route, body, {}) },
    { name: 'APPLICATION/JSON', request: post(route, body, { 'content-type': 'APPLICATION/JSON' }) },
    {
      name: 'a content type of 4 KB',
      request: post(route, body, { 'content-type': `application/json; x=${'a'.repeat(4_000)}` }),
    },
    {
      name: 'gzip garbage',
      request: post(route, Buffer.from(`${MARK}garbage`), { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
    },
    {
      name: 'a gzip bomb (1 MB of zeros)',
      request: post(route, zlib.gzipSync(Buffer.alloc(1024 * 1024)), {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      }),
    },
    { name: 'br, declared only', request: post(route, body, { 'content-type': 'application/json', 'content-encoding': 'br' }) },
    { name: 'an unknown encoding', request: post(route, body, { 'content-type': 'application/json', 'content-encoding': MARK }) },
    raw(
      'chunked',
      'content-type: application/json\r\ntransfer-encoding: chunked\r\n',
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    ),
    raw('a bad chunk size', 'content-type: application/json\r\ntransfer-encoding: chunked\r\n', `zz\r\n${MARK}\r\n0\r\n\r\n`),
    raw(
      'chunked over the limit',
      'content-type: application/json\r\ntransfer-encoding: chunked\r\n',
      `5000\r\n${'x'.repeat(0x5000)}\r\n0\r\n\r\n`,
    ),
    raw('a length longer than the body', 'content-type: application/json\r\ncontent-length: 500\r\n', body),
    raw('a length shorter than the body', `content-type: application/json\r\ncontent-length: 5\r\n`, `${body}${MARK}`),
    raw('a non-numeric length', `content-type: application/json\r\ncontent-length: ${MARK}\r\n`, body),
    raw('a negative length', 'content-type: application/json\r\ncontent-length: -1\r\n', body),
    raw('two lengths', `content-type: application/json\r\ncontent-length: ${body.length}\r\ncontent-length: 3\r\n`, body),
    raw(
      'a length and chunked',
      `content-type: application/json\r\ncontent-length: ${body.length}\r\ntransfer-encoding: chunked\r\n`,
      body,
    ),
    raw(
      'Expect: 100-continue',
      `content-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n`,
      body,
    ),
    raw('an unknown Expect', `content-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: ${MARK}\r\n`, body),
  ]
}

/** The HTTP layer itself: what the parser must refuse, and odd but valid requests. */
function protocolCases(target: string): Case[] {
  const text = (name: string, request: string, mayClose = false): Case => ({
    name,
    request: Buffer.from(request, 'latin1'),
    mayClose,
  })
  return [
    text('headers over 16 KB', `GET ${target} HTTP/1.1\r\nhost: x\r\nx-big: ${MARK}${'a'.repeat(20_000)}\r\n\r\n`),
    text('a request line over 16 KB', `GET ${target}?${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`),
    text('1,000 headers', `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${'x-a: 1\r\n'.repeat(1_000)}\r\n`),
    text('a NUL in a header', `GET ${target} HTTP/1.1\r\nhost: x\r\nx-a: a\0${MARK}\r\n\r\n`),
    text('a space in a header name', `GET ${target} HTTP/1.1\r\nhost: x\r\nx ${MARK}: 1\r\n\r\n`),
    text('bare LF', `GET ${target} HTTP/1.1\nhost: x\nconnection: close\n\n`),
    text('HTTP/0.9', `GET ${target}\r\n\r\n`),
    text('HTTP/2.0 on the wire', `GET ${target} HTTP/2.0\r\nhost: x\r\n\r\n`),
    text('HTTP/1.0', `GET ${target} HTTP/1.0\r\n\r\n`),
    text('HTTP/1.1 without Host', `GET ${target} HTTP/1.1\r\nconnection: close\r\n\r\n`),
    text('two Hosts', `GET ${target} HTTP/1.1\r\nhost: x\r\nhost: ${MARK}\r\nconnection: close\r\n\r\n`),
    text('an unknown method', `${MARK} ${target} HTTP/1.1\r\nhost: x\r\n\r\n`),
    text('a lower-case method', `get ${target} HTTP/1.1\r\nhost: x\r\n\r\n`),
    text('TRACE', `TRACE ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`),
    text('DELETE', `DELETE ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`),
    text('PUT', `PUT ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: 2\r\n\r\n{}`),
    text('HEAD', `HEAD ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`),
    text(
      'OPTIONS from another origin',
      `OPTIONS ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\norigin: http://${MARK}.test\r\naccess-control-request-method: POST\r\n\r\n`,
    ),
    text('OPTIONS *', 'OPTIONS * HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n'),
    text('CONNECT', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nhost: 127.0.0.1:22\r\n\r\n', true),
    text('absolute form', `GET http://${MARK}.test${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`),
    text('Upgrade: websocket', `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n`, true),
    text(
      'h2c upgrade',
      `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: Upgrade, HTTP2-Settings\r\nupgrade: h2c\r\nhttp2-settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n`,
      true,
    ),
    text('the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    text('a TLS ClientHello', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03' + '\x00'.repeat(40)),
    text('binary garbage', '\x00\x01\x02\xff\xfe' + MARK + '\r\n\r\n'),
    text('only line ends', '\r\n\r\n\r\n'),
    text(
      'an Accept-Encoding of 10 KB',
      `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\naccept-encoding: ${'gzip;q=0.5, '.repeat(800)}br\r\n\r\n`,
    ),
    text('Accept-Encoding: *', `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\naccept-encoding: *\r\n\r\n`),
    text('identity refused', `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\naccept-encoding: identity;q=0\r\n\r\n`),
    text('a Range', `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\nrange: bytes=-1,0-,${MARK}\r\n\r\n`),
    text(
      'a garbage If-None-Match',
      `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\nif-none-match: "${MARK}<script>"\r\n\r\n`,
    ),
    text(
      'a forged X-Forwarded-For',
      `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-forwarded-for: ${MARK}, 1.2.3.4\r\n\r\n`,
    ),
    text('an unknown Expect', `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\nexpect: ${MARK}\r\n\r\n`),
    text('a torn request', `GET ${target} HTTP/1.1\r\nhost: x\r\n`, true),
    text('keep-alive, then garbage', `GET ${target} HTTP/1.1\r\nhost: x\r\n\r\n${MARK} / HTTP/1.1\r\n\r\n`),
    text(
      'two pipelined requests',
      `GET ${target} HTTP/1.1\r\nhost: x\r\n\r\nGET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
    ),
  ]
}

/** Runs every case on `port`, checks it with `check` and returns one line per failed check. */
async function runCases(
  port: number,
  cases: Case[],
  check: (c: Case, answer: RawAnswer) => string[],
  alive: () => Promise<boolean>,
): Promise<string[]> {
  const failures: string[] = []
  for (const c of cases) {
    const answer = await exchange(port, c.request, 10_000)
    const problems = check(c, answer)
    if (!(await alive())) problems.push('the server no longer answers')
    if (problems.length > 0)
      failures.push(`${c.name}: ${problems.join('; ')} (got ${answer.text.slice(0, 120).replace(/\r\n/g, ' | ')})`)
  }
  return failures
}

function commonProblems(c: Case, answer: RawAnswer, expected: Record<string, RegExp>): string[] {
  const problems: string[] = []
  if (answer.statuses.length === 0) {
    if (!c.mayClose) problems.push('no answer')
    return problems
  }
  const fives = answer.statuses.filter((s) => s >= 500)
  if (fives.length > 0) problems.push(`answered ${fives.join(', ')}`)
  for (const [name, value] of Object.entries(expected))
    if (!value.test(answer.headers[name] ?? '')) problems.push(`${name} is ${JSON.stringify(answer.headers[name])}`)
  if (answer.text.includes(MARK)) problems.push('echoes the input')
  if (/<script/i.test(answer.body)) problems.push('answers a script tag')
  if (answer.timedOut) problems.push('the connection stayed open')
  return problems
}

describe('hostile input', () => {
  const rec = record()
  const address = rec.deployer
  const pool = rec.pools[1].address
  const named = (prefix: string) => (c: Case) => ({ ...c, name: `${prefix}${c.name}` })
  const pathCases = (templates: ((s: string) => string)[]): Case[] =>
    templates.flatMap((t) => segments(address).map((s) => ({ name: `GET ${t(s).slice(0, 80)}`, request: get(t(s)) })))

  const api = {
    paths: pathCases([
      (s) => `/vesting/address/${s}`,
      (s) => `/explorer/address/${s}`,
      (s) => `/explorer/tx/${s}`,
      (s) => `/contract-parser/api/contract/${s}`,
      (s) => `/${s}`,
      (s) => `/health?x=${s}`,
    ]),
    bodies: ['abi', 'multipleAbi', 'token-holders']
      .map((r) => `/contract-parser/api/contract/${r}`)
      .flatMap((route) => [
        ...bodies(route.endsWith('token-holders') ? pool : address).map(([name, body]) => ({
          name: `POST ${route}: ${name}`,
          request: post(route, body),
        })),
        ...postShapes(route, address).map(named(`POST ${route}: `)),
      ]),
    protocol: ['/health', `/vesting/address/${address}`].flatMap((t) => protocolCases(t).map(named(`${t}: `))),
  }
  const site = {
    paths: pathCases([
      (s) => `/${s}`,
      (s) => `/static/${s}`,
      (s) => `/staking/${s}`,
      (s) => `/index.html/${s}`,
      (s) => `/static/main.0123abcd.js/${s}.js`,
    ]),
    protocol: [
      ...['POST', 'PUT', 'DELETE', 'PATCH'].map((m) => ({ name: m, request: httpRequest(m, '/', { body: MARK }) })),
      // A request that never ends waits for Node's 60 s header timeout here: left out.
      ...protocolCases('/index.html').filter((c) => !['a torn request', 'only line ends'].includes(c.name)),
    ],
  }

  it('has at least 300 cases for the API and 250 for the static server', () => {
    expect(Object.values(api).flat().length).toBeGreaterThanOrEqual(300)
    expect(Object.values(site).flat().length).toBeGreaterThanOrEqual(250)
  })

  describe('the API', () => {
    let server: Awaited<ReturnType<typeof startTestApi>>
    let port: number
    beforeAll(async () => {
      // A short request timeout, so that cases that never finish their request end quickly with 408; the rate limit
      // stays on, high enough for every case.
      server = await startTestApi({ requestTimeoutMs: 1_000, idleTimeoutMs: 2_000, rateLimitMax: 100_000, blockCacheMs: 1_000 })
      port = (server.app.server.address() as AddressInfo).port
    })
    afterAll(() => server.app.close())

    const HEADERS: Record<string, RegExp> = {
      'content-security-policy': /^default-src 'none'/,
      'x-content-type-options': /^nosniff$/,
      'x-frame-options': /^SAMEORIGIN$/,
      'strict-transport-security': /^max-age=\d+/,
      'referrer-policy': /^no-referrer$/,
      'cross-origin-opener-policy': /^same-origin$/,
    }
    const alive = async () => {
      const health = await exchange(port, get('/health'))
      return health.statuses[0] === 200 && /"status":"ok"/.test(health.body)
    }
    const check = (c: Case, answer: RawAnswer) => commonProblems(c, answer, HEADERS)

    it(`answers ${api.paths.length} hostile paths on every route without a 5xx, with the headers, never quoting them`, async () => {
      expect(await runCases(port, api.paths, check, alive)).toEqual([])
    })

    it(`answers ${api.bodies.length} hostile bodies and body framings on the POST routes the same way`, async () => {
      expect(await runCases(port, api.bodies, check, alive)).toEqual([])
    })

    it(`answers ${api.protocol.length} requests Node's HTTP parser refuses or finds odd the same way`, async () => {
      expect(await runCases(port, api.protocol, check, alive)).toEqual([])
    })
  })

  describe('the static server', () => {
    let app: RunningApp
    let port: number
    const CSP = "default-src 'self'; frame-ancestors https://app.safe.global"
    beforeAll(async () => {
      // A build's shape (documents, a hashed script, the headers file) without running webpack.
      const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-dist-'))
      fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>')
      fs.writeFileSync(path.join(dist, 'staking.html'), '<!doctype html><title>staking</title>')
      fs.mkdirSync(path.join(dist, 'static'))
      fs.writeFileSync(path.join(dist, 'static', 'main.0123abcd.js'), 'console.log("app")')
      fs.writeFileSync(path.join(dist, '_headers'), formatHeadersFile(headerRules(CSP)))
      port = await freePort()
      app = await serveStatic(dist, port)
    })
    afterAll(() => app.stop())

    const HEADERS: Record<string, RegExp> = {
      'content-security-policy': new RegExp(`^${CSP}$`),
      'x-content-type-options': /^nosniff$/,
      // Framing is the policy's frame-ancestors alone (Safe{Wallet} may open the app): no X-Frame-Options.
      'referrer-policy': /^strict-origin-when-cross-origin$/,
    }
    const alive = async () => (await exchange(port, get('/'))).statuses[0] === 200
    const check = (c: Case, answer: RawAnswer) => commonProblems(c, answer, HEADERS)

    it(`answers ${site.paths.length} hostile paths with a 4xx or a document, with the headers, and keeps serving`, async () => {
      expect(await runCases(port, site.paths, check, alive)).toEqual([])
    })

    it(`answers ${site.protocol.length} other methods and odd or malformed requests the same way`, async () => {
      expect(await runCases(port, site.protocol, check, alive)).toEqual([])
    })
  })
})
