import { useSyncExternalStore } from 'react'

interface Ticker {
  subscribe: (listener: () => void) => () => void
  read: () => number
}

// One interval per period for the whole page: twenty countdowns tick in one render pass, not twenty.
const tickers = new Map<number, Ticker>()

function makeTicker(intervalMs: number): Ticker {
  let now = Date.now()
  let timer: ReturnType<typeof setInterval> | null = null
  const listeners = new Set<() => void>()
  return {
    subscribe(listener) {
      listeners.add(listener)
      timer ??= setInterval(() => {
        now = Date.now()
        listeners.forEach((l) => l())
      }, intervalMs)
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && timer !== null) {
          clearInterval(timer)
          timer = null
        }
      }
    },
    read() {
      // Idle since the last subscriber left: catch up once (a second read within the period returns the same value).
      if (timer === null && Date.now() - now >= intervalMs) now = Date.now()
      return now
    },
  }
}

/** The wall clock in ms, re-read every `intervalMs` while a component shows it (countdowns). */
export function useNow(intervalMs = 1_000): number {
  let t = tickers.get(intervalMs)
  if (!t) tickers.set(intervalMs, (t = makeTicker(intervalMs)))
  return useSyncExternalStore(t.subscribe, t.read)
}
