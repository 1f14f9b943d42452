/**
 * Resolves in a later task, yielding the main thread to the browser (input, rendering) in between:
 * `scheduler.yield()` where the browser has it (the continuation goes ahead of other queued tasks), else a timeout.
 * The app's start (src/index.tsx) and the sagas (`yield call(nextTask)`) use it to keep each step of a page load a
 * short task rather than one long one (total blocking time, docs/architecture.md §10).
 */
export const nextTask = () =>
  new Promise<void>((resolve) => {
    const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
    if (scheduler?.yield) void scheduler.yield().then(resolve)
    else setTimeout(resolve, 0)
  })
