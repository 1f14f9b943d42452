import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider } from 'react-redux'
import { BrowserRouter } from 'react-router-dom'
import { ThemeProvider } from 'styled-components'
import { App } from './App'
import { setTimers } from './config/timers'
import { makeStore } from './app/store'
import { createBrowserEnv } from './platform/browserEnv'
import { readBuildConfig } from './config/buildConfig'
import { createChainLayer } from './chain/layer'
import { theme } from './ui/theme'

const env = createBrowserEnv()
const config = readBuildConfig()
setTimers(config.timers ?? {})
const store = makeStore(undefined, { chain: createChainLayer(config, env), env })

// A transition: React renders the first screen in slices of a few milliseconds, yielding to the browser in between,
// instead of one long task (total blocking time; docs/architecture.md §10).
startTransition(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <ThemeProvider theme={theme}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </ThemeProvider>
      </Provider>
    </StrictMode>,
  ),
)
