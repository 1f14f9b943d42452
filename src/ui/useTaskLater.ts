import { useEffect, useState } from 'react'
import { nextTask } from '../kit/nextTask'

/**
 * True a task after `ready` turned true (at once when it already was on the first render): what it shows renders in a
 * task of its own, not in the one that renders what made it ready, so neither is long enough to hold up a tap
 * (docs/architecture.md §10). False again as soon as `ready` is.
 */
export function useTaskLater(ready: boolean): boolean {
  const [later, setLater] = useState(ready)
  useEffect(() => {
    if (!ready) {
      setLater(false)
      return
    }
    let live = true
    void nextTask().then(() => {
      if (live) setLater(true)
    })
    return () => {
      live = false
    }
  }, [ready])
  return ready && later
}
