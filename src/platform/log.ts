/** Tagged console logging: the spec keeps many failures out of the UI ("logged only"), so they must be findable. */
export const log = {
  error: (tag: string, message: string, err?: unknown) => console.error(`[${tag}] ${message}`, err ?? ''),
  warn: (tag: string, message: string, err?: unknown) => console.warn(`[${tag}] ${message}`, err ?? ''),
}
