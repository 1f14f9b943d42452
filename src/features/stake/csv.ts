import { formatAmount } from '../../format/units'
import type { StakeRow } from './rows'

const HEADER = ['id', 'created', 'release', 'amount', 'shares', 'status', 'rewards or earned']

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** Every digit and no thousands separators, so a spreadsheet reads the amount as it is on chain. */
const exact = (baseUnits: string) => formatAmount(baseUnits, { exact: true })

/** The user's stakes as CSV (RFC 4180): exact decimal token amounts, ISO dates in UTC. */
export function stakesCsv(rows: StakeRow[]): string {
  const lines = rows.map((r) => [
    String(r.id),
    iso(r.createdAt),
    iso(r.releaseAt),
    exact(r.raw.stakeAmount),
    exact(r.raw.lpAmount),
    r.status,
    exact(r.raw.rewards),
  ])
  return [HEADER, ...lines].map((cells) => cells.join(',')).join('\r\n') + '\r\n'
}
