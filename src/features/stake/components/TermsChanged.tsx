import { useEffect, useState } from 'react'
import styled from 'styled-components'
import { describeTermChanges, type PoolTermsNow } from '../../../format/poolTerms'
import { WarningBox } from '../../../ui/WarningBox'
import type { PoolInfo } from '../slice'

const Notice = styled(WarningBox).attrs({ as: 'p', role: 'status' })``

/** The stake terms a dialog's preview is made of: what the person has seen, to tell them when it changes. */
const termsOf = (p: PoolInfo): PoolTermsNow => ({
  unHoldFee: p.unHoldFee,
  timeBonusPercent: p.timeBonusPercent,
  refererBonusPercent: p.refererBonusPercent,
  inflationPercent: p.inflationPercent,
})

/**
 * The stake terms the person has seen in a dialog that stakes (docs/product.md §2.6): the pool's when it opened, then
 * those they confirmed on (`confirmed()`). `changes` names each term a later read brought (the owner changed it,
 * perhaps just before a stake the pool then refused), until they confirm on the new figures.
 */
export function useSeenTerms(pool: PoolInfo | null): { changes: string[]; confirmed: () => void } {
  const [seen, setSeen] = useState<PoolTermsNow | null>(null)
  useEffect(() => {
    if (pool && seen === null) setSeen(termsOf(pool))
  }, [pool, seen])
  return {
    changes: seen && pool ? describeTermChanges(seen, termsOf(pool)) : [],
    confirmed: () => {
      if (pool) setSeen(termsOf(pool))
    },
  }
}

/** "The pool's terms changed since you saw them: ...", above the figures, while a change is unconfirmed. */
export function TermsChanged({ changes }: { changes: string[] }) {
  if (changes.length === 0) return null
  return (
    <Notice data-testid="terms-changed">
      The pool&apos;s terms changed since you saw them: {changes.join('; ')}. The figures below are the new ones; confirm again to
      stake on them.
    </Notice>
  )
}
