import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router-dom'
import { ServerStyleSheet } from 'styled-components'
import { App } from './app/App'
import { Providers } from './app/Providers'
import { makeStore } from './app/store'
import { initialWalletState } from './features/wallet/slice'
import { cssOfStyleTags } from './hosting/documents'

/**
 * The first view of a route as HTML and its CSS, rendered by the build into that route's document
 * (src/hosting/documents.ts, webpack.config.ts): the app as a first visit sees it once the wallet layer is ready and
 * finds no wallet, the header and the connect prompt. The browser's first render shows the same (with no walletName
 * cookie the wallet saga is ready before React renders), so when it replaces this markup nothing moves
 * (docs/architecture.md §10).
 */
export function renderFirstView(path: string): { html: string; css: string } {
  const store = makeStore({ wallet: { ...initialWalletState, ready: true } })
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
