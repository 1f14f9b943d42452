import { startTransition } from 'react'
import { nextTask } from './kit/nextTask'

/**
 * Starts the app in short tasks, yielding to the browser between them, instead of one long task that evaluates React,
 * the store and the app at once and blocks input for its whole length (total blocking time, docs/architecture.md §10).
 * The imports are eager: their modules stay in this chunk and no request is added; only their evaluation moves into
 * a task of its own. They import our modules, never a package's whole namespace, so tree shaking still applies. The
 * build's first view (src/firstView.tsx) is on screen all along, until the first commit replaces it.
 */

async function start() {
  // The task that evaluates this file compiles it too: React's DOM renderer is evaluated in the next one.
  await nextTask()
  const { createRoot } = await import(/* webpackMode: "eager" */ 'react-dom/client')
  await nextTask()
  // The store's modules (slices, the wallet saga, Redux Toolkit, redux-saga) are evaluated in a task of their own, the
  // browser environment and chain layer in the next, the store with its sagas (makeStore runs them) in the one after:
  // each is a few tens of ms on a phone.
  const [{ makeStore }, { setTimers }, { readBuildConfig }] = await Promise.all([
    import(/* webpackMode: "eager" */ './app/store'),
    import(/* webpackMode: "eager" */ './config/timers'),
    import(/* webpackMode: "eager" */ './config/buildConfig'),
  ])
  await nextTask()
  const [{ createBrowserEnv }, { createChainLayer }] = await Promise.all([
    import(/* webpackMode: "eager" */ './platform/browserEnv'),
    import(/* webpackMode: "eager" */ './chain/layer'),
  ])
  const env = createBrowserEnv()
  const config = readBuildConfig()
  setTimers(config.timers ?? {})
  const chain = createChainLayer(config, env)
  await nextTask()
  const store = makeStore(undefined, { chain, env })
  await nextTask()
  const [{ Root }, { loadPages }] = await Promise.all([
    import(/* webpackMode: "eager" */ './app/Root'),
    import(/* webpackMode: "eager" */ './app/App'),
  ])
  // The page chunks before the first render: it then shows the page the build's markup shows, not a spinner.
  await loadPages(nextTask)
  await nextTask()
  const container = document.getElementById('root')!
  // A transition: React renders in slices of a few milliseconds, yielding to the browser in between.
  startTransition(() => createRoot(container).render(<Root store={store} container={container} />))
}

void start()
