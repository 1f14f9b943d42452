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

/** How old something shown is, as people say it: 'just now', '25 s ago', '3 min ago', '2 h ago', '4 days ago'. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 10) return 'just now'
  if (s < 60) return `${s} s ago`
  if (s < 3_600) return `${Math.floor(s / 60)} min ago`
  if (s < 86_400) return `${Math.floor(s / 3_600)} h ago`
  const d = Math.floor(s / 86_400)
  return `${d} ${d === 1 ? 'day' : 'days'} ago`
}

/** Time until something due, rounded up to whole seconds: 'in 8 s', 'in 2 min', or 'now'. */
export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000)
  if (s <= 0) return 'now'
  if (s < 60) return `in ${s} s`
  return `in ${Math.ceil(s / 60)} min`
}
