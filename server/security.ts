import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import helmet, { type HelmetOptions } from 'helmet'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/**
 * Largest request line plus headers (bytes) the HTTP parser takes; a bigger request gets 431 (Node's default, stated
 * here so the docs and the tests name one figure). A path parameter can be as long as this and still reach its schema.
 */
export const MAX_HEADER_BYTES = 16 * 1024

/**
 * helmet's policy for the API: JSON answers load nothing (and helmet's default page policy would add 250 bytes to
 * each); the explorer pages set their own, slightly wider policy. The app on another origin reads these answers (CORS
 * decides who may).
 */
const HELMET: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
}

/** The headers helmet sets with `options`, worked out once: they depend on nothing in the request. */
export function helmetHeaders(options: HelmetOptions = HELMET): [string, string][] {
  const headers: [string, string][] = []
  const res = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  }
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err
  })
  return headers
}

/**
 * Puts `headers` on every response of `server` before anything else sees the request, so answers written by Fastify
 * itself (a URL it cannot decode, 503 while closing) or by a plugin carry them too. A route may still replace one
 * (the explorer's Content-Security-Policy): headers given when the answer is written take precedence. An Expect other
 * than 100-continue, which Node would answer with a bare 417 of its own, is answered here with them.
 */
export function headersOnEveryAnswer(server: Server, headers: [string, string][]) {
  const setAll = (res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value)
  }
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => setAll(res))
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    setAll(res)
    const body = JSON.stringify(errorBody(417, 'Only Expect: 100-continue is supported.'))
    res
      .writeHead(417, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      })
      .end(body)
  })
}

/**
 * Node answers an HTTP/1.1 request without Host with a bare 400 of its own (`requireHostHeader`); the service turns
 * that off and refuses such a request in this onRequest hook instead, as RFC 9112 §3.2 asks, with the headers.
 */
export async function requireHost(req: FastifyRequest, reply: FastifyReply) {
  if (req.raw.httpVersion === '1.1' && req.headers.host === undefined)
    return reply.status(400).send(errorBody(400, 'An HTTP/1.1 request must have a Host header.'))
}

/** A JSON error answer of the service's shape; `message` is ours, never the request's. */
export const errorBody = (statusCode: number, message: string) => ({
  statusCode,
  error: STATUS_CODES[statusCode] ?? 'Error',
  message,
})

/**
 * Fastify's clientErrorHandler: what the HTTP parser refuses before there is a request (malformed HTTP, request line
 * and headers over MAX_HEADER_BYTES, a request not received within the request timeout) is answered on the socket
 * with the same headers as every other answer and a fixed JSON reason, then the connection is closed. Logged at
 * debug only: one client's garbage must not fill the log.
 */
export function clientErrorHandler(headers: [string, string][]) {
  const headerLines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')
  return function onClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    const [status, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The whole request did not arrive in time.']
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, `The request line and headers are over ${MAX_HEADER_BYTES} bytes.`]
          : [400, 'Malformed HTTP request.']
    this.log.debug({ code: err.code }, 'client error')
    // An answer already under way on this connection cannot be followed by another.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorBody(status, message))
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headerLines}content-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      )
    }
    socket.destroy()
  }
}

/**
 * Fastify's frameworkErrors: errors its router raises before a route runs. Its own answers quote the raw URL; these
 * say what is wrong without it.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_BAD_URL') return reply.status(400).send(errorBody(400, 'The URL has malformed percent-encoding.'))
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(400).send(errorBody(400, 'A path segment is too long.'))
  return reply.status(500).send(errorBody(500, 'Internal error. Try again shortly.'))
}
