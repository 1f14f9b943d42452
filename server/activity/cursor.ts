/** A page's end in the activity list: the last item's block and log index, as an opaque base64url string. */
export interface Position {
  block: number
  logIndex: number
}

export const encodeCursor = (p: Position) => Buffer.from(`${p.block}:${p.logIndex}`).toString('base64url')

/** The position a cursor names, or null if it is not one this service made. */
export function decodeCursor(cursor: string): Position | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null
  const m = /^(\d{1,15}):(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString())
  return m ? { block: Number(m[1]), logIndex: Number(m[2]) } : null
}
