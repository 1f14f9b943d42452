import { CACHE_IMMUTABLE, CACHE_REVALIDATE, formatHeadersFile, headerRules, headersFor, parseHeadersFile } from './headers'

const CSP = "default-src 'self'; frame-ancestors https://app.safe.global"

describe('header rules', () => {
  const rules = headerRules(CSP)

  it('puts the security headers on every path', () => {
    for (const p of ['/', '/index.html', '/static/main.1234abcd.js', '/staking']) {
      expect(headersFor(rules, p)).toMatchObject({
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
      })
      // Framing is the policy's alone: X-Frame-Options would shut Safe{Wallet} out.
      expect(headersFor(rules, p)['X-Frame-Options']).toBeUndefined()
    }
  })

  it('serves the Safe App manifest and its icon to Safe{Wallet} from any origin', () => {
    for (const p of ['/manifest.json', '/safe-app-icon.svg']) {
      expect(headersFor(rules, p)['Access-Control-Allow-Origin']).toBe('*')
      expect(headersFor(rules, p)['Cache-Control']).toBe(CACHE_REVALIDATE)
    }
    expect(headersFor(rules, '/index.html')['Access-Control-Allow-Origin']).toBeUndefined()
  })

  it('caches hashed files for a year and has index.html revalidated, each with one Cache-Control value', () => {
    expect(headersFor(rules, '/static/main.1234abcd.js')['Cache-Control']).toBe(CACHE_IMMUTABLE)
    expect(headersFor(rules, '/index.html')['Cache-Control']).toBe(CACHE_REVALIDATE)
    expect(headersFor(rules, '/')['Cache-Control']).toBe(CACHE_REVALIDATE)
    expect(CACHE_IMMUTABLE).toBe('public, max-age=31536000, immutable')
  })

  it('joins a header several matching rules set, as CDNs do', () => {
    const r = [
      { pattern: '/*', headers: { Vary: 'Origin' } },
      { pattern: '/a', headers: { Vary: 'Accept' } },
    ]
    expect(headersFor(r, '/a')).toEqual({ Vary: 'Origin, Accept' })
    expect(headersFor(r, '/ab')).toEqual({ Vary: 'Origin' })
  })
})

describe('the _headers file', () => {
  it('reads back what it writes', () => {
    const rules = headerRules(CSP)
    const text = formatHeadersFile(rules)
    expect(text).toContain(`/*\n  Content-Security-Policy: ${CSP}\n`)
    expect(parseHeadersFile(text)).toEqual(rules)
  })

  it('skips comments and blank lines and says where a line is wrong', () => {
    expect(parseHeadersFile('# c\n\n/x\n  # c\n  A: 1\n')).toEqual([{ pattern: '/x', headers: { A: '1' } }])
    expect(() => parseHeadersFile('  A: 1\n')).toThrow('_headers line 1: expected "  Name: value" under a path')
    expect(() => parseHeadersFile('/x\n  not a header\n')).toThrow('_headers line 2')
  })
})
