import Cookies from 'js-cookie'

/** The cookies the app keeps (docs/product.md §12.7). */
export type CookieName = 'walletName' | 'ref' | 'modal'

/**
 * What sagas need from the page besides the chain: cookies, the URL, reloading, and what kind of device this is.
 * Sagas reach it through their context so node tests can hand in a plain object.
 */
export interface BrowserEnv {
  cookies: {
    get(name: CookieName): string | undefined
    set(name: CookieName, value: string): void
    remove(name: CookieName): void
  }
  /** The page's query string, e.g. "?ref=0x..". */
  search(): string
  href(): string
  reload(): void
  isPhone: boolean
  /** The page runs in a frame: perhaps inside Safe{Wallet} as a Safe App (src/chain/safeApp.ts). */
  framed: boolean
  /** The injected EIP-1193 provider (a browser-extension wallet or a wallet app's browser), if any. */
  injected: unknown
  /** Where wallets announce themselves (EIP-6963): the window; the discovery's code is in the "wallet" chunk. */
  walletEvents: EventTarget
  /**
   * Text kept across reloads (localStorage): the sent transactions still being followed (src/chain/txJournal.ts).
   * Never throws: a browser that refuses storage (private mode, quota) just keeps nothing.
   */
  storage: {
    get(key: string): string | null
    /** Whether the browser kept it (false: storage refused, e.g. full or blocked). */
    set(key: string, value: string): boolean
    remove(key: string): void
  }
  /** Saves `text` as a file named `name` (a download), as the Activity section's "Export CSV" does from its saga. */
  saveFile(name: string, text: string, type: string): void
}

const COOKIE_DAYS = 30

export function createBrowserEnv(): BrowserEnv {
  const w = window as Window & { ethereum?: unknown }
  // Secure on https, so the cookies never travel over plain http; a local http page could not keep them with it.
  const jar = Cookies.withAttributes({ sameSite: 'lax', secure: window.location.protocol === 'https:' })
  return {
    cookies: {
      get: (name) => jar.get(name),
      set: (name, value) => jar.set(name, value, { expires: COOKIE_DAYS }),
      remove: (name) => jar.remove(name),
    },
    search: () => window.location.search,
    href: () => window.location.href,
    reload: () => window.location.reload(),
    isPhone: /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent),
    framed: window.parent !== window,
    injected: w.ethereum,
    walletEvents: window,
    storage: {
      get: (key) => attempt(() => window.localStorage.getItem(key), null),
      set: (key, value) => attempt(() => (window.localStorage.setItem(key, value), true), false),
      remove: (key) => attempt(() => window.localStorage.removeItem(key), undefined),
    },
    saveFile(name, text, type) {
      const url = URL.createObjectURL(new Blob([text], { type }))
      Object.assign(document.createElement('a'), { href: url, download: name }).click()
      // Revoked once the click has handed the file to the browser's download.
      setTimeout(() => URL.revokeObjectURL(url), 0)
    },
  }
}

/** localStorage throws when the browser refuses it (private mode, quota, blocked cookies): keep nothing then. */
function attempt<T>(f: () => T, otherwise: T): T {
  try {
    return f()
  } catch {
    return otherwise
  }
}

/**
 * A BrowserEnv without a browser, for tests and scripts; `reloads` counts reload() calls. Pass another memory env's
 * `stored` map as `storage` to stand for the same browser after a reload.
 */
export function createMemoryEnv(
  opts: {
    search?: string
    href?: string
    isPhone?: boolean
    framed?: boolean
    injected?: unknown
    storage?: Map<string, string>
    /** A browser whose storage refuses every write (full, or blocked). */
    refuseStorage?: boolean
    /** Announcements of wallets installed in this browser, answering EIP-6963's request (`announce` adds one later). */
    announced?: unknown[]
  } = {},
) {
  const jar = new Map<string, string>()
  const stored = opts.storage ?? new Map<string, string>()
  // Installed wallets answer EIP-6963's request on this target, as extensions do on the window.
  const walletEvents = new EventTarget()
  const announceOne = (detail: unknown) =>
    walletEvents.dispatchEvent(Object.assign(new Event('eip6963:announceProvider'), { detail }))
  const install = (detail: unknown) => walletEvents.addEventListener('eip6963:requestProvider', () => announceOne(detail))
  ;(opts.announced ?? []).forEach(install)
  const env = {
    reloads: 0,
    /** The files saveFile was asked to save, in order. */
    saved: [] as { name: string; text: string; type: string }[],
    saveFile: (name: string, text: string, type: string) => void env.saved.push({ name, text, type }),
    cookies: {
      get: (name: CookieName) => jar.get(name),
      set: (name: CookieName, value: string) => void jar.set(name, value),
      remove: (name: CookieName) => void jar.delete(name),
    },
    search: () => opts.search ?? '',
    href: () => opts.href ?? 'http://127.0.0.1:3000/',
    reload: () => void (env.reloads += 1),
    isPhone: opts.isPhone ?? false,
    framed: opts.framed ?? false,
    injected: opts.injected,
    walletEvents,
    /** A wallet installing itself now, as an extension that loads late would: it announces, and answers each request. */
    announce(detail: unknown) {
      install(detail)
      announceOne(detail)
    },
    stored,
    storage: {
      get: (key: string) => stored.get(key) ?? null,
      set: (key: string, value: string) => !opts.refuseStorage && (stored.set(key, value), true),
      remove: (key: string) => void stored.delete(key),
    },
  }
  return env satisfies BrowserEnv
}
