import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router-dom'
import { ServerStyleSheet } from 'styled-components'
import { App, loadPages } from './app/App'
import { networksFor, readBuildConfig, type BuildConfig } from './config/buildConfig'
import { Providers } from './app/Providers'
import { makeStore } from './app/store'
import { initialWalletState } from './features/wallet/slice'
import { cssOfStyleTags } from './hosting/documents'

/**
 * The first view of a route as HTML and its CSS, rendered by the build into that route's document
 * (src/hosting/documents.ts, webpack.config.ts): the app as a first visit sees it once the wallet layer is ready and
 * finds no wallet: the header and the page of the build's default network before its reads land (the public view),
 * the connect prompt where a holder's figures go. The browser's first render shows the same (with no walletName
 * cookie the wallet saga is ready before React renders, and the entry loads the page chunks first), so when it
 * replaces this markup nothing moves (docs/architecture.md §10).
 */
export async function renderFirstView(
  path: string,
  config: BuildConfig = readBuildConfig(),
): Promise<{ html: string; css: string }> {
  const wallet = { ...initialWalletState, ready: true, networks: networksFor(config), defaultChainId: config.defaultChainId }
  const store = makeStore({ wallet })
  // Loaded, the pages render here at once instead of their Suspense fallback (lazyChunk).
  await loadPages()
  const sheet = new ServerStyleSheet()
  try {
    const html = renderToString(
      sheet.collectStyles(
        <Providers store={store}>
          <StaticRouter location={path}>
            <App />
          </StaticRouter>
        </Providers>,
      ),
    )
    return { html, css: cssOfStyleTags(sheet.getStyleTags()) }
  } finally {
    sheet.seal()
  }
}
