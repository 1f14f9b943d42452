/**
 * Counts renders of named components into window.__renders, only in builds made with RENDER_COUNTS=1 (the RPC
 * benchmark reads them to check that an unchanged refresh re-renders nothing). In every other build the check is
 * a constant and the minifier drops the body.
 */
export function countRender(name: string): void {
  if (process.env.RENDER_COUNTS !== '1') return
  const w = window as unknown as { __renders?: Record<string, number> }
  const counts = (w.__renders ??= {})
  counts[name] = (counts[name] ?? 0) + 1
}
