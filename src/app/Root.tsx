import { useLayoutEffect } from 'react'
import { BrowserRouter } from 'react-router-dom'
import { App } from './App'
import { FIRST_VIEW_ATTR } from '../hosting/documents'
import { Providers } from './Providers'
import type { AppStore } from './store'

/** The first commit has replaced the build's first view (src/firstView.tsx): its returning-wallet style lets go. */
function FirstViewReplaced({ container }: { container: HTMLElement }) {
  useLayoutEffect(() => container.removeAttribute(FIRST_VIEW_ATTR), [container])
  return null
}

/** The app as the browser renders it into `container`. */
export function Root({ store, container }: { store: AppStore; container: HTMLElement }) {
  return (
    <Providers store={store}>
      <BrowserRouter>
        <App />
        <FirstViewReplaced container={container} />
      </BrowserRouter>
    </Providers>
  )
}
