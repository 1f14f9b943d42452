import { useEffect, useState } from 'react'

/**
 * How many of a part's `count` later stages to show: none while `ready` is false, then one more a task after each, so
 * what is costly to draw lands in a task of its own rather than in one long one (the claim page's first answer,
 * docs/architecture.md §10). Ready from the start (the figures were known before the part mounted), all at once.
 */
export function useStages(ready: boolean, count: number): number {
  const [shown, setShown] = useState(ready ? count : 0)
  useEffect(() => {
    if (!ready) {
      setShown(0)
      return
    }
    if (shown >= count) return
    const timer = setTimeout(() => setShown(shown + 1), 0)
    return () => clearTimeout(timer)
  }, [ready, shown, count])
  return ready ? shown : 0
}
