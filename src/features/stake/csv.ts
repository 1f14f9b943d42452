import { formatUnits } from 'ethers'
import type { StakeRow } from './selectors'

const HEADER = ['id', 'created', 'release', 'amount', 'shares', 'status', 'rewards or earned']

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** The user's stakes as CSV (RFC 4180): exact decimal token amounts, ISO dates in UTC. */
export function stakesCsv(rows: StakeRow[]): string {
  const lines = rows.map((r) => [
    String(r.id),
    iso(r.createdAt),
    iso(r.releaseAt),
    formatUnits(r.raw.stakeAmount, 18),
    formatUnits(r.raw.lpAmount, 18),
    r.status,
    formatUnits(r.raw.rewards, 18),
  ])
  return [HEADER, ...lines].map((cells) => cells.join(',')).join('\r\n') + '\r\n'
}
