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
  // Props pass through: a lazy component with props (the close curve's chart) is typed like the one it loads.
  const component = <P extends object = object>(pick: (m: M) => ComponentType<P>) =>
    lazy<ComponentType<P>>(() => {
      if (!loaded) return load().then((m) => ({ default: pick(m) }))
      const module = { default: pick(loaded) }
      return { then: (resolve: (m: typeof module) => void) => resolve(module) } as never
    })
  /** Loads this chunk alone (the entry waits for the page chunks, so its first render matches the build's markup). */
  return Object.assign(component, { load })
}

/**
 * Loads the code of every page and dialog, and of the lazy chunks their code declares (the close curve's chart), so
 * they render without suspending (the component tests call it first).
 */
export async function loadScreens() {
  for (let done = 0; done < loaders.length;) {
    const next = loaders.slice(done)
    done = loaders.length
    await Promise.all(next.map((load) => load()))
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
