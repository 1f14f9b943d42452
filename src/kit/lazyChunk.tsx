import { Component, lazy, type ComponentType, type ReactNode } from 'react'
import { Button } from '../ui/Button'
import { Card } from '../ui/Card'

const loaders: (() => Promise<unknown>)[] = []

/**
 * A lazy chunk whose components are React.lazy. Once the chunk's modules have loaded (by any of its components, or
 * loadScreens), each of its components renders at once on its first render: React is handed a thenable that calls
 * back synchronously, so nothing suspends (the term chooser opened from the claim warning shows at once).
 */
export function lazyChunk<M>(importer: () => Promise<M>) {
  let loaded: M | null = null
  let loading: Promise<M> | null = null
  const load = () => (loading ??= importer().then((m) => (loaded = m)))
  loaders.push(load)
  // P: the component's props (pages and dialogs take none; the unlock chart takes its figures).
  return <P extends object = object>(pick: (m: M) => ComponentType<P>) =>
    lazy(() => {
      if (!loaded) return load().then((m) => ({ default: pick(m) }))
      const module = { default: pick(loaded) }
      return { then: (resolve: (m: typeof module) => void) => resolve(module) } as never
    })
}

/**
 * Loads the code of every page and dialog, and of the lazy chunks they hold (the claim page's unlock chart registers
 * its chunk only once the page's code has run), so they render without suspending (the component tests call it first).
 */
export async function loadScreens() {
  for (let done = 0; done < loaders.length;) {
    const more = loaders.slice(done)
    done = loaders.length
    await Promise.all(more.map((load) => load()))
  }
}

/** A chunk that could not load (offline, or a newer release replaced it) says so and offers a reload: no blank page. */
export class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    if (!this.state.failed) return this.props.children
    return (
      <Card role="alert">
        <p>This part of the app could not load. Check the connection and reload the page.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Card>
    )
  }
}
