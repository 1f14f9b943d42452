/**
 * The response headers of the web build (docs/operations.md): security headers on every answer, cache lifetimes by
 * file, written by the build as a `_headers` file (the format Cloudflare Pages and Netlify read) that `npm run serve`
 * and the e2e stack's server apply too.
 */

import { DOCUMENTS } from './documents'
import { SAFE_ICON_FILE, SAFE_MANIFEST_FILE } from './safeManifest'

/** Written next to index.html by the build. */
export const HEADERS_FILE = '_headers'
/** Where the build puts files whose names carry a content hash: a new build means new names, so they never change. */
export const HASHED_DIR = 'static'

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable'
/** index.html and anything unhashed: the browser may keep a copy but asks each time whether it still holds. */
export const CACHE_REVALIDATE = 'no-cache'
/**
 * The text types a host sends compressed: the build writes a brotli copy of each (webpack.config.ts), the static
 * server sends that copy or gzip (scripts/lib/app.ts).
 */
export const COMPRESSED_EXTENSIONS = ['.html', '.js', '.json', '.txt', '.svg']

export type Headers = Record<string, string>
/** A path pattern (an exact path, or a prefix ending in `*`) and the headers its files get. */
export interface HeaderRule {
  pattern: string
  headers: Headers
}

/**
 * The headers every answer carries. Framing is the policy's frame-ancestors alone: only Safe{Wallet} may open the app
 * (as a Safe App). X-Frame-Options is not sent: it can only say DENY or SAMEORIGIN, which would shut Safe{Wallet} out in
 * a browser that read it, and every browser that knows frame-ancestors ignores it anyway.
 */
export function securityHeaders(csp: string): Headers {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  }
}

/**
 * The rules for a build. Cache-Control sits in separate rules: hosts merge a header that several matching rules set
 * into one comma-joined value, so `/*` must not set it.
 */
export function headerRules(csp: string): HeaderRule[] {
  return [
    { pattern: '/*', headers: securityHeaders(csp) },
    ...DOCUMENTS.flatMap((d) => [
      { pattern: d.path, headers: { 'Cache-Control': CACHE_REVALIDATE } },
      { pattern: `/${d.file}`, headers: { 'Cache-Control': CACHE_REVALIDATE } },
    ]),
    { pattern: `/${HASHED_DIR}/*`, headers: { 'Cache-Control': CACHE_IMMUTABLE } },
    // Safe{Wallet} reads the Safe App manifest and its icon from its own origin.
    ...[SAFE_MANIFEST_FILE, SAFE_ICON_FILE].map((file) => ({
      pattern: `/${file}`,
      headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': CACHE_REVALIDATE },
    })),
  ]
}

export function formatHeadersFile(rules: HeaderRule[]): string {
  const blocks = rules.map((r) => [r.pattern, ...Object.entries(r.headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n'))
  return `# Written by the build (src/hosting/headers.ts); docs/operations.md shows other hosts.\n${blocks.join('\n\n')}\n`
}

/** Reads a `_headers` file: a path line, then indented `Name: value` lines; `#` comments and blank lines skipped. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = []
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: {} })
      return
    }
    const m = /^\s+([A-Za-z0-9-]+):\s*(.*)$/.exec(line)
    const rule = rules[rules.length - 1]
    if (!m || !rule)
      throw new Error(`${HEADERS_FILE} line ${i + 1}: expected "  Name: value" under a path, got ${JSON.stringify(line)}`)
    rule.headers[m[1]] = m[2]
  })
  return rules
}

const matches = (pattern: string, urlPath: string) =>
  pattern.endsWith('*') ? urlPath.startsWith(pattern.slice(0, -1)) : urlPath === pattern

/** The headers for one path: every matching rule's, a header set by several joined with ", " as the hosts do. */
export function headersFor(rules: HeaderRule[], urlPath: string): Headers {
  const out: Headers = {}
  for (const rule of rules) {
    if (!matches(rule.pattern, urlPath)) continue
    for (const [k, v] of Object.entries(rule.headers)) out[k] = out[k] === undefined ? v : `${out[k]}, ${v}`
  }
  return out
}
