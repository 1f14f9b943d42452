import type { CookieName } from '../platform/browserEnv'

/**
 * The build's HTML documents, one per screen. Each carries its screen's first view, rendered at build time
 * (src/firstView.tsx), so a visit paints the page before its script has arrived (docs/architecture.md §10). A route
 * of a screen is answered with its document; any other path with index.html, whose app then routes it.
 */
export const DOCUMENTS = [
  { file: 'index.html', path: '/' },
  { file: 'staking.html', path: '/staking' },
] as const

type DocumentFile = (typeof DOCUMENTS)[number]['file']

/** The document a path of the app is answered with: `/staking` and `/staking/<id>` get staking.html. */
export function documentFor(urlPath: string): DocumentFile {
  const doc = DOCUMENTS.find((d) => d.path !== '/' && (urlPath === d.path || urlPath.startsWith(`${d.path}/`)))
  return doc?.file ?? 'index.html'
}

/** The route a document's first view is rendered at. */
export function pathOf(file: string): string {
  const doc = DOCUMENTS.find((d) => d.file === file)
  if (!doc) throw new Error(`${file} is not one of the build's documents (${DOCUMENTS.map((d) => d.file).join(', ')})`)
  return doc.path
}

/**
 * The lazy chunks (webpackChunkName) every visit waits for, one file the documents' loader fetches beside the entry
 * (webpack.config.ts): both pages before the first render (src/app/App.tsx), the chain sagas for the first reads
 * (src/app/rootSaga.ts) and the wallet's connectors (src/chain/wallets.ts), which a returning wallet reconnects with as
 * the app starts and wallet discovery loads on any visit.
 */
export const FIRST_RENDER_CHUNKS = ['claim', 'staking', 'chain', 'wallet']
/** The lazy chunks a click will want soon, prefetched by the documents' loader once the page is idle (src/app/OpenModal.tsx). */
export const IDLE_PREFETCH_CHUNKS = ['dialogs', 'deposit']

/** On the root element while it still holds the build's markup; the app removes it when its first render replaces it. */
export const FIRST_VIEW_ATTR = 'data-first-view'
/** On <html> when the walletName cookie says a wallet will reconnect. */
export const RETURNING_ATTR = 'data-returning-wallet'

const WALLET_COOKIE: CookieName = 'walletName'

/**
 * The first view is what a visitor without a wallet sees: the page with the connect prompt where a holder's figures
 * go. A returning wallet reconnects instead, so before the first paint this script marks the page and the style below
 * hides that prompt and makes its box a viewport high, as the app's box is while the wallet reconnects (HolderGate):
 * the public part above shows as it is, and the wallet's figures, when they land, push only what is below the fold. It and loaderScript are the documents' inline scripts: the Content-Security-Policy allows each by its
 * hash (src/hosting/csp.ts).
 */
export const RETURNING_SCRIPT = `if(/(?:^|;\\s*)${WALLET_COOKIE}=/.test(document.cookie))document.documentElement.setAttribute('${RETURNING_ATTR}','')`
const RETURNING_STYLE = `html[${RETURNING_ATTR}] #root[${FIRST_VIEW_ATTR}] [data-holder-prompt]{visibility:hidden;min-height:100vh}`

/**
 * Fetches and runs the app's scripts once the first view has painted (the frame after the next), or at once in a
 * background tab, which paints no frame: the entry scripts (`srcs`, run in order, asked for first and at high priority:
 * an inserted script is otherwise low) and, beside them, the chunks every first render waits for (`preloads`, fetched
 * now rather than one round trip after the entry has run; their tags go in the next task, as each costs a few ms). A
 * fetch started from the head would compete with nothing, yet it would put the scripts before the first paint in
 * Lighthouse's model of a slow phone (their download counted into the largest paint: 2.2-2.9 s on the public pages
 * against 0.65 s without); the document already holds the page, and the scripts start about a frame later. A deferred
 * script would run before the first paint whenever it arrives first (a cached or fast visit). Inserted scripts are
 * async: `async = false` keeps their order.
 *
 * What a click will want soon (`later`: the dialogs, the deposit form) is prefetched once the page has loaded and gone
 * idle, so its download does not share the connection with what the first figures wait for.
 */
export function loaderScript(srcs: string[], preloads: string[] = [], later: string[] = []): string {
  const links = (list: string[], rel: string) =>
    `${JSON.stringify(list)}.forEach(function(href){var l=document.createElement('link');l.rel='${rel}';` +
    `l.as='script';l.href=href;document.head.appendChild(l)})`
  return (
    `(function(){function idle(){${links(later, 'prefetch')}}function run(){${JSON.stringify(srcs)}.forEach(` +
    `function(src){var s=document.createElement('script');s.src=src;s.async=false;s.fetchPriority='high';` +
    `document.head.appendChild(s)});setTimeout(function(){${links(preloads, 'preload')}},0);` +
    `addEventListener('load',function(){` +
    `window.requestIdleCallback?requestIdleCallback(idle,{timeout:5000}):setTimeout(idle,1000)})}` +
    `if(document.visibilityState!=='visible')run();else requestAnimationFrame(function(){setTimeout(run,0)})})()`
  )
}

const ROOT = '<div id="root"></div>'

/** The template with a first view in its root element, its styles and the returning-wallet script in the head. */
export function withFirstView(template: string, view: { html: string; css: string }): string {
  if (template.split(ROOT).length !== 2) throw new Error(`the HTML template must hold ${ROOT} exactly once`)
  if (!template.includes('</head>')) throw new Error('the HTML template has no </head>')
  const head = `<script>${RETURNING_SCRIPT}</script><style>${view.css}</style><style>${RETURNING_STYLE}</style></head>`
  return template.replace('</head>', head).replace(ROOT, `<div id="root" ${FIRST_VIEW_ATTR}>${view.html}</div>`)
}

/**
 * The CSS text of styled-components' server style tags, less what only its own rehydration reads (the `/*!sc*\/`
 * separators and the `data-styled.gN[id=…]{content:…}` marker rules): the first view's styles are plain CSS, which the
 * browser's styled-components leaves alone.
 */
export function cssOfStyleTags(tags: string): string {
  return inlineBlocks(tags, 'style')
    .join('')
    .replace(/data-styled\.g\d+\[id="?[^\]]*"?\]\{content:"[^"]*"\}/g, '')
    .replace(/\/\*!sc\*\//g, '')
    .replace(/\n+/g, '')
}

/** The text of each inline <script> or <style> block in `html` (a script with a src is not inline). */
export function inlineBlocks(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}(?![^>]*\\ssrc=)[^>]*>([\\s\\S]*?)</${tag}>`, 'gi'))].map((m) => m[1])
}
