import type { TxKind } from '../../../chain/txActions'
import type { ActivityItem, ActivityKind } from './api'

/**
 * The pure part of the Activity section (docs/product.md §2.9): how pages of the index's answer join the list on
 * screen, and which sent transactions are activity at all. The reducer and the selectors share it.
 */

/** The history's kind of a sent transaction; an approval is none (the index lists no approvals). */
export function activityKindOf(kind: TxKind): ActivityKind | null {
  switch (kind) {
    case 'stake':
      return 'stake'
    // A restake closes its stakes and makes one: the index lists its closes and its new stake under its hash.
    case 'restake':
      return 'stake'
    case 'unstake':
      return 'close'
    case 'claim':
      return 'claim'
    case 'claimStake':
      return 'claim-stake'
    default:
      return null
  }
}

/** Identifies an event: a transaction can hold several (a claim and stake is one event, a close of many stakes many). */
export const itemKey = (i: Pick<ActivityItem, 'txHash' | 'logIndex'>) => `${i.txHash}:${i.logIndex}`

/** `a` happened before `b` on the chain: an earlier block, or earlier in the same block. */
const olderThan = (a: ActivityItem, b: ActivityItem) =>
  a.blockNumber < b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex < b.logIndex)

/**
 * A fresh first page over the list on screen (a refresh, or the index caught up). The page is the truth for what it
 * covers, so an event that left it (a reorg the index undid) leaves the list too; the older pages already read stay
 * after it, with their cursor, so a refresh never takes away what "Load more" brought. A page that is the whole
 * history (`next` null) replaces everything.
 */
export function mergeFirstPage(
  shown: { items: ActivityItem[]; next: string | null },
  page: { items: ActivityItem[]; next: string | null },
): { items: ActivityItem[]; next: string | null } {
  const last = page.items[page.items.length - 1]
  if (page.next === null || !last) return { items: page.items, next: page.next }
  const older = shown.items.filter((i) => olderThan(i, last))
  if (older.length === 0) return { items: page.items, next: page.next }
  return { items: [...page.items, ...older], next: shown.next }
}

/** An older page ("Load more", or a scroll to the end) after the list; an event already shown is not shown twice. */
export function appendPage(items: ActivityItem[], page: ActivityItem[]): ActivityItem[] {
  const seen = new Set(items.map(itemKey))
  return [...items, ...page.filter((i) => !seen.has(itemKey(i)))]
}

/**
 * What a close paid the holder (`amountOut - fee`) and what it earned over the principal (`received - amount`;
 * negative when an early close cost more than it earned). Null for the other kinds, or a close missing a figure.
 */
export function closeResult(i: ActivityItem): { received: bigint; earned: bigint } | null {
  if (i.kind !== 'close' || i.amountOut === null || i.fee === null || i.amount === null) return null
  const received = BigInt(i.amountOut) - BigInt(i.fee)
  return { received, earned: received - BigInt(i.amount) }
}
