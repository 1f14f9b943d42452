import { useEffect, useState } from 'react'

/**
 * `value` as it was when it last stayed the same for `ms`: the first value at once, each later one once it has settled.
 * For what is costly to draw and changes with every key pressed (the deposit dialog's chart follows the amount once
 * the typing pauses, while the figures beside it follow every key).
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    if (Object.is(value, settled)) return
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, settled, ms])
  return settled
}
