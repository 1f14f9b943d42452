/** Time left as people read it: '12d 04h 05m', '3h 07m 09s', or null once it is over. */
export function formatCountdown(seconds: number): string | null {
  if (seconds <= 0) return null
  const s = Math.floor(seconds)
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3_600)
  const m = Math.floor((s % 3_600) / 60)
  const pad = (n: number) => String(n).padStart(2, '0')
  if (d > 0) return `${d}d ${pad(h)}h ${pad(m)}m`
  return `${h}h ${pad(m)}m ${pad(s % 60)}s`
}
