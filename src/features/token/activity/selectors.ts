import { createSelector } from '@reduxjs/toolkit'
import { lists } from '../../../config/timers'
import { txUrl, type NetworkConfig } from '../../../config/networks'
import { formatDateTime } from '../../../format/dates'
import { formatAmount, shortenAddress, shortenHash, formatCount } from '../../../format/units'
import type { TokenRoot } from '../slice'
import type { WalletRoot } from '../../wallet/slice'
import { selectHolderView, selectReadNetwork, selectViewedAddress } from '../../wallet/selectors'
import { selectSymbol } from '../selectors'
import type { ActivityItem, ActivityKind } from './api'
import { closeResult, itemKey } from './list'
import type { IndexNotice } from '../../../ui/IndexNoticeBox'

/**
 * The Activity section's selectors (docs/product.md §2.9): the token slice's `activity`, read here rather than in
 * token/selectors.ts so their code loads with the pages, not with the entry (docs/architecture.md §10).
 */
type State = TokenRoot & WalletRoot

export const selectActivity = (s: State) => s.token.activity
const selectSent = (s: State) => s.token.activity.sent
/** Whose history the list holds and on which chain (lower case), for the saga to tell a new holder. */
export const selectActivityHolder = (s: State) => ({ holder: s.token.activity.holder, chainId: s.token.activity.chainId })
/** The cursor of the next older page, null at the end. */
export const selectActivityNext = (s: State) => s.token.activity.next
/** Something waits for the index: a sent transaction not yet listed, or the index behind the chain. */
export const selectActivityWaiting = (s: State) => {
  const a = s.token.activity
  const holder = a.holder
  return (
    (a.index !== null && a.index.lag > lists.INDEX_LAG_TOLERATED) ||
    a.sent.some((t) => t.from === holder && t.chainId === a.chainId)
  )
}

const KIND_TEXT: Record<ActivityKind, string> = {
  claim: 'Claim',
  'claim-stake': 'Claim and stake',
  stake: 'Stake',
  close: 'Close',
}

/** One line of the list: an indexed event, or a sent transaction the index has not listed yet (`pending`). */
export interface ActivityRow {
  key: string
  kind: ActivityKind
  what: string
  /** What it was, in words: 'To the wallet', 'Stake #4, 90 days', 'Stake #4: received 1,020.00 PLT, fee 0.00 PLT'. */
  detail: string | null
  /** The amount claimed, staked or (a close) the principal; a dash for a pending one (the index has not read it). */
  amount: string
  /** What a close earned (gain) or cost (loss); null for the other kinds, whose result shows at their close. */
  result: { text: string; tone: 'gain' | 'loss' | 'even' } | null
  time: string
  /** ISO time for <time dateTime>, null when not known. */
  iso: string | null
  hash: string
  shortHash: string
  url: string | null
  pending: boolean
  /** For a pending one: 'Waiting for its receipt' or 'Confirmed in block 1,234; not listed by the index yet'. */
  status: string | null
}

const days = (hold: number) => {
  const d = hold / 86_400
  const text = Number.isInteger(d) ? String(d) : d.toFixed(1)
  return `${text} ${d === 1 ? 'day' : 'days'}`
}

/** The pool by its id on the network ('pool 1'), or its address shortened when the network does not list it. */
function poolName(pool: string | null, network: NetworkConfig | null): string | null {
  if (pool === null) return null
  const listed = network?.pools.find((p) => p.address.toLowerCase() === pool.toLowerCase())
  return listed ? `pool ${listed.id}` : `pool ${shortenAddress(pool)}`
}

function detailOf(i: ActivityItem, symbol: string, network: NetworkConfig | null): string | null {
  const where = poolName(i.pool, network)
  const stake = `${i.stakeId !== null ? `stake #${i.stakeId}` : 'a stake'}${where ? ` in ${where}` : ''}`
  const Stake = `${stake[0].toUpperCase()}${stake.slice(1)}`
  const hold = i.hold !== null ? `, ${days(i.hold)}` : ''
  switch (i.kind) {
    case 'claim':
      return 'To the wallet'
    case 'claim-stake':
      return `Into ${stake}${hold}`
    case 'stake':
      return `${Stake}${hold}`
    case 'close': {
      const r = closeResult(i)
      if (!r) return Stake
      return `${Stake}: received ${formatAmount(r.received, { symbol })}, fee ${formatAmount(i.fee, { symbol })}`
    }
  }
}

function resultOf(i: ActivityItem, symbol: string): ActivityRow['result'] {
  const r = closeResult(i)
  if (!r) return null
  const abs = r.earned < 0n ? -r.earned : r.earned
  const figure = formatAmount(abs, { symbol })
  if (r.earned > 0n) return { text: `+${figure}`, tone: 'gain' }
  if (r.earned < 0n) return { text: `-${figure}`, tone: 'loss' }
  return { text: figure, tone: 'even' }
}

export interface ActivityView {
  /** An address to show the history of (the wallet's, or `?account=`'s); without one the section is not shown. */
  shown: boolean
  /** Nothing read yet: skeleton rows. */
  loading: boolean
  pending: ActivityRow[]
  rows: ActivityRow[]
  /** What the section shows above or instead of the list, when anything: an outage, a starting or lagging index. */
  notice: IndexNotice | null
  /** The empty state's words, only once a read found nothing: 'No activity yet' only with the index caught up. */
  empty: string | null
  more: { can: boolean; loading: boolean; error: string | null }
  exporting: { can: boolean; pending: boolean; message: string | null; failed: boolean }
  /** The network's explorer, for the links' names ('Etherscan'). */
  explorerName: string
  /** The list as last read (wall clock ms) and when the next retry is due, for a failure's line. */
  readAt: number | null
  retryAt: number | null
}

/** The whole section as it shows (docs/product.md §2.9), derived from the slice; never stored. */
export const selectActivityView = createSelector(
  [selectActivity, selectSent, selectSymbol, selectReadNetwork, selectViewedAddress, selectHolderView],
  (a, sent, symbol, network, viewed, holderView): ActivityView => {
    const holder = viewed?.toLowerCase() ?? null
    const current = holder !== null && a.holder === holder && a.chainId === (network?.chainId ?? null)
    const listed = new Set(current ? a.items.map((i) => i.txHash) : [])
    const rows: ActivityRow[] = current
      ? a.items.map((i) => ({
          key: itemKey(i),
          kind: i.kind,
          what: KIND_TEXT[i.kind],
          detail: detailOf(i, symbol, network),
          amount: formatAmount(i.amount, { symbol }),
          result: resultOf(i, symbol),
          time: formatDateTime(Math.floor(Date.parse(i.time) / 1000)),
          iso: i.time,
          hash: i.txHash,
          shortHash: shortenHash(i.txHash),
          url: txUrl(network ?? undefined, i.txHash),
          pending: false,
          status: null,
        }))
      : []
    const pending: ActivityRow[] = sent
      .filter((t) => t.from === holder && t.chainId === network?.chainId && !listed.has(t.hash))
      .reverse()
      .map((t) => ({
        key: `sent:${t.hash}`,
        kind: t.kind,
        what: KIND_TEXT[t.kind],
        detail: null,
        amount: formatAmount(null),
        result: null,
        time: t.sentAt !== null ? formatDateTime(Math.floor(t.sentAt / 1000)) : 'Just sent',
        iso: t.sentAt !== null ? new Date(t.sentAt).toISOString() : null,
        hash: t.hash,
        shortHash: shortenHash(t.hash),
        url: txUrl(network ?? undefined, t.hash),
        pending: true,
        status:
          t.blockNumber === null
            ? 'Waiting for its receipt'
            : `Confirmed in block ${formatCount(t.blockNumber)}; not listed by the index yet`,
      }))
    const status = current ? a.status : 'idle'
    const lag = current && a.index ? a.index.lag : 0
    const behind = status === 'ok' && lag > lists.INDEX_LAG_TOLERATED
    let notice: IndexNotice | null = null
    if (status === 'failed') {
      const kept = rows.length > 0 ? ' The list shows the history as last read.' : ''
      if (a.failure === 'starting')
        notice = {
          kind: 'starting',
          title: 'The activity index is starting',
          text: `It has not read the chain yet; the history shows once it has.${kept}`,
          reason: null,
          retry: true,
        }
      else if (a.failure === 'down')
        notice = {
          kind: 'down',
          title: "Can't reach the activity service",
          text: `The history cannot be read right now; it is tried again by itself.${kept}`,
          reason: a.error,
          retry: true,
        }
      else
        notice = {
          kind: 'refused',
          title: 'The activity service could not answer',
          text: `The history cannot be shown right now.${kept}`,
          reason: a.error,
          retry: true,
        }
    } else if (behind) {
      const n = formatCount(lag)
      notice = {
        kind: 'behind',
        title: `The activity index is ${n} blocks behind the chain`,
        text: 'Recent transactions may be missing from the list; they show once it has caught up.',
        reason: null,
        retry: false,
      }
    }
    const nothing = status === 'ok' && rows.length === 0 && pending.length === 0
    const empty = !nothing
      ? null
      : behind
        ? `Nothing listed up to block ${formatCount(a.index!.indexedBlock)} yet.`
        : 'No activity yet'
    return {
      shown: holderView === 'figures' && holder !== null,
      loading: holder !== null && (status === 'idle' || status === 'loading'),
      pending,
      rows,
      notice,
      empty,
      more: {
        can: current && a.next !== null && status !== 'failed',
        loading: current && a.more === 'loading',
        error: current && a.more === 'failed' ? a.moreError : null,
      },
      exporting: {
        can: status === 'ok' && rows.length > 0 && a.exporting.status !== 'pending',
        pending: a.exporting.status === 'pending',
        message:
          a.exporting.status === 'done'
            ? `Saved ${formatCount(a.exporting.rows)} ${a.exporting.rows === 1 ? 'event' : 'events'} as CSV.`
            : a.exporting.status === 'failed'
              ? `The export did not finish: ${a.exporting.error}`
              : null,
        failed: a.exporting.status === 'failed',
      },
      explorerName: network?.explorerName ?? '',
      readAt: current ? a.readAt : null,
      retryAt: current ? a.retryAt : null,
    }
  },
)
