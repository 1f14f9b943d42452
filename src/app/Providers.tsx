import { StrictMode, type ReactNode } from 'react'
import { Provider } from 'react-redux'
import { ThemeProvider } from 'styled-components'
import { theme } from '../ui/theme'
import type { AppStore } from './store'

/** What every render of the app sits in, in the browser and in the build's first view (src/firstView.tsx). */
export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <StrictMode>
      <Provider store={store}>
        <ThemeProvider theme={theme}>{children}</ThemeProvider>
      </Provider>
    </StrictMode>
  )
}
