import { formatAmount } from '../../../format/units'
import type { ActivityItem } from './api'
import { closeResult } from './list'

const HEADER = [
  'time',
  'kind',
  'amount',
  'received',
  'fee',
  'earned or cost',
  'forfeited',
  'hold days',
  'pool',
  'stake id',
  'block',
  'transaction',
]

/** Every digit and no thousands separators, as the stake list's CSV writes amounts (src/features/stake/csv.ts). */
const exact = (baseUnits: string | bigint | null) => (baseUnits === null ? '' : formatAmount(baseUnits, { exact: true }))

/**
 * A holder's whole history as CSV (RFC 4180), newest first as the section lists it: exact decimal token amounts, ISO
 * times in UTC, the close's received amount (paid out less the fee) and what it earned (negative: what it cost). A
 * field that does not apply to the kind is empty. Nothing in it needs quoting: kinds, numbers, addresses and hashes.
 */
export function activityCsv(items: ActivityItem[]): string {
  const lines = items.map((i) => {
    const close = closeResult(i)
    return [
      new Date(Date.parse(i.time)).toISOString(),
      i.kind,
      exact(i.amount),
      exact(close?.received ?? null),
      exact(i.fee),
      exact(close?.earned ?? null),
      exact(i.forfeited),
      i.hold === null ? '' : String(i.hold / 86_400),
      i.pool ?? '',
      i.stakeId ?? '',
      String(i.blockNumber),
      i.txHash,
    ]
  })
  return [HEADER, ...lines].map((cells) => cells.join(',')).join('\r\n') + '\r\n'
}

/** The file's name: whose history, so two holders' exports do not overwrite each other. */
export const activityCsvName = (holder: string) => `activity-${holder.toLowerCase()}.csv`
