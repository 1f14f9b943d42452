import type { Action, StoreEnhancer } from '@reduxjs/toolkit'

/** One reducer call of a session: the action and the state it produced. */
export interface RecordedStep {
  action: Action
  state: unknown
}

/**
 * A store enhancer that records a session the way Redux DevTools exports it: the state the store started from, then
 * every action in the order the reducer saw it and the state after it. It wraps the reducer, not dispatch, so actions
 * a saga puts from inside another action's dispatch land in the order they were reduced.
 */
export function sessionRecorder() {
  const session: { initial: unknown; steps: RecordedStep[] } = { initial: undefined, steps: [] }
  const enhancer: StoreEnhancer = (createStore) => (reducer, preloaded) => {
    const recording = ((state, action) => {
      const next = reducer(state, action)
      // Redux's own INIT (a random type) only sets the state the session starts from.
      if (action.type.startsWith('@@redux/')) session.initial = next
      else session.steps.push({ action, state: next })
      return next
    }) as typeof reducer
    return createStore(recording, preloaded)
  }
  return { enhancer, session }
}

/**
 * Where `value` is not plain JSON (what DevTools can export and import): the path of the first bigint, function,
 * class instance, undefined array element, non-finite number or symbol, or null when there is none.
 */
export function notJsonAt(value: unknown, path = '$'): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} (${value})`
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = notJsonAt(value[i], `${path}[${i}]`)
      if (at) return at
    }
    return null
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) return `${path} (${proto?.constructor?.name ?? 'object'})`
    for (const [k, v] of Object.entries(value)) {
      // An absent payload (RTK's `payload: undefined`) is simply left out of JSON, as DevTools does.
      if (v === undefined) continue
      const at = notJsonAt(v, `${path}.${k}`)
      if (at) return at
    }
    return null
  }
  return `${path} (${typeof value})`
}
