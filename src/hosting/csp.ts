import { networksFor, type BuildConfig } from '../config/buildConfig'
import { supportedNetworks } from '../config/networks'

/**
 * What WalletConnect v2 reaches, read from its sources in node_modules (@walletconnect/core 2.25: relay, verify
 * iframe and API, pulse events; @walletconnect/ethereum-provider's QR modal, Reown AppKit 1.8: its wallet list API
 * with images as blob: URLs, its fonts, the WalletConnect RPC) and checked against Reown's published CSP guidance.
 * Both the .com and .org hosts: the libraries switch between them by version. Email and social login are off in the
 * modal (features: email, socials false), so the secure.walletconnect.org wallet frame is not needed.
 */
export const WALLETCONNECT_SOURCES = {
  connect: [
    'wss://relay.walletconnect.com',
    'wss://relay.walletconnect.org',
    'https://relay.walletconnect.com',
    'https://relay.walletconnect.org',
    'https://rpc.walletconnect.com',
    'https://rpc.walletconnect.org',
    'https://verify.walletconnect.com',
    'https://verify.walletconnect.org',
    'https://pulse.walletconnect.com',
    'https://pulse.walletconnect.org',
    'https://api.web3modal.com',
    'https://api.web3modal.org',
  ],
  frame: ['https://verify.walletconnect.com', 'https://verify.walletconnect.org'],
  font: ['https://fonts.reown.com'],
  img: ['blob:', 'https://api.web3modal.com', 'https://api.web3modal.org'],
}

/** sha256 of the empty string: styled-components' production sheets are empty <style> elements filled through CSSOM. */
export const EMPTY_STYLE_HASH = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='

function origin(url: string): string | null {
  try {
    const u = new URL(url)
    return /^(https?|wss?):$/.test(u.protocol) ? u.origin : null
  } catch {
    return null
  }
}

/**
 * Every origin the app's code connects to for a build: the RPC and API hosts of each supported network (a network
 * without contracts is never read) and, when a project id is configured, WalletConnect's hosts.
 */
export function connectSources(config: BuildConfig): string[] {
  const out = new Set<string>()
  for (const n of supportedNetworks(networksFor(config))) {
    for (const url of [...n.rpcUrls, n.vestingApiBase, n.parserApiBase]) {
      const o = origin(url)
      if (o) out.add(o)
    }
  }
  if (config.walletConnectProjectId) WALLETCONNECT_SOURCES.connect.forEach((s) => out.add(s))
  return [...out]
}

export interface PolicyOptions {
  /** 'sha256-...' of each inline <style> in the built documents (the plugin in webpack.config.ts hashes them). */
  inlineStyleHashes?: string[]
  /** 'sha256-...' of each inline <script> in the built documents: the returning-wallet check and the entry's loader. */
  inlineScriptHashes?: string[]
  /**
   * The webpack dev server instead of a build: modules run through eval (eval source maps, React Fast Refresh),
   * styled-components' development sheets are text, and the page keeps a hot-reload socket open to one of `socketOrigins`.
   */
  dev?: { socketOrigins: string[] }
}

/**
 * The Content-Security-Policy for a build. Scripts only from the site itself and the inline scripts the build ships,
 * each allowed by its hash (no other inline script, no eval). Styles:
 * a nonce needs a server per response, so a static host cannot give one; the build allows exactly the hashes of the
 * inline styles it ships plus the empty style element styled-components fills through CSSOM (which CSP does not
 * govern). With WalletConnect configured that is not enough: its QR modal writes computed theme CSS into <style>
 * elements, which only 'unsafe-inline' lets through (a browser ignores 'unsafe-inline' next to a hash, so the
 * hashes go). Styles cannot run script, so script-src stays strict either way.
 */
export function contentSecurityPolicy(config: BuildConfig, opts: PolicyOptions = {}): string {
  const wc = config.walletConnectProjectId !== ''
  const inlineStyles =
    wc || opts.dev ? ["'unsafe-inline'"] : [`'${EMPTY_STYLE_HASH}'`, ...(opts.inlineStyleHashes ?? []).map((h) => `'${h}'`)]
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', opts.dev ? ["'self'", "'unsafe-eval'"] : ["'self'", ...(opts.inlineScriptHashes ?? []).map((h) => `'${h}'`)]],
    ['style-src', ["'self'", ...inlineStyles]],
    ['img-src', ["'self'", 'data:', ...(wc ? WALLETCONNECT_SOURCES.img : [])]],
    ['font-src', ["'self'", ...(wc ? WALLETCONNECT_SOURCES.font : [])]],
    ['connect-src', ["'self'", ...connectSources(config), ...(opts.dev?.socketOrigins ?? [])]],
    ['frame-src', wc ? WALLETCONNECT_SOURCES.frame : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    // Only Safe{Wallet} may frame the app, to open it as a Safe App (SAFE_APP_ORIGINS; docs/operations.md).
    ['frame-ancestors', config.safeAppOrigins.length ? config.safeAppOrigins : ["'none'"]],
  ]
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`).join('; ')
}
