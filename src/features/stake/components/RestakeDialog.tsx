import { useEffect, useState, type FormEvent } from 'react'
import styled from 'styled-components'
import { CurveColumns } from './CurveColumns'
import { DialogActions, PayoutList } from './PayoutList'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Muted } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { Modal } from '../../../ui/Modal'
import { ScheduledChanges } from '../../../ui/ScheduledChanges'
import { Spinner } from '../../../ui/Spinner'
import { FeeLine, useFeeQuote } from '../../wallet/components/FeeLine'
import { modalClosed } from '../../wallet/slice'
import { selectActBlock } from '../../wallet/selectors'
import { scheduledCallsRequested } from '../../token/slice'
import { DEFAULT_DAYS, daysInRange, daysOf, daysRangeText } from '../days'
import {
  daysLimits,
  selectPool,
  selectPoolScheduled,
  selectRestakeError,
  selectRestakeOf,
  selectRestakePending,
} from '../selectors'
import { restakeRequested, type RestakeRequest } from '../slice'
import { DaysField } from './DaysField'
import { DepositCurve } from './DepositCurve'
import { DepositEstimate } from './DepositEstimate'
import { TermsChanged, useSeenTerms } from './TermsChanged'

const Intro = styled(Muted)`
  margin: 0 0 16px;
  font-size: 0.9rem;
`

/** The fixed amount: where the deposit dialog has its amount field, a figure that cannot be typed over. */
const Amount = styled.section`
  margin-bottom: 16px;
  h3 {
    margin: 0 0 6px;
    font-size: 0.9rem;
    font-weight: 400;
    color: ${(p) => p.theme.color.muted};
  }
  strong {
    display: block;
    font-size: 1.35rem;
    font-variant-numeric: tabular-nums;
  }
`

/** Each stake restaked and what it pays: a short list, scrolled inside its box when there are many. */
const Each = styled(PayoutList)`
  margin: 8px 0 0;
  padding: 2px 12px;
  max-height: 124px;
  font-size: 0.9rem;
  li {
    padding: 5px 0;
  }
`

/** "Stake #3", "Stakes #3 and #5", "Stakes #3, #5 and #8". */
function stakesText(ids: number[]): string {
  const named = ids.map((id) => `#${id}`)
  if (named.length === 1) return `Stake ${named[0]}`
  return `Stakes ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`
}

/** What accepting lower terms applies to: these stakes, this term, exactly these funded figures. */
const termsKey = (ids: number[], days: number, minimums: { bonus: string; reward: string }) =>
  [ids.join(','), days, minimums.bonus, minimums.reward].join('/')

/**
 * Restake (docs/product.md §2.6a): matured stakes closed and all they pay staked again as one new stake, in one
 * restake(ids, hold, maxFee, minBonus, minReward). The amount is fixed (what they pay now); the holder picks the days
 * with the deposit dialog's field and limits and sees the deposit dialog's own estimate, curve and notices for a stake
 * of that amount with no referral. When the reservoir runs short, the lower terms are sent only once accepted, as in
 * the deposit dialog. Nothing leaves the pool, so there is nothing to approve.
 */
export function RestakeDialog() {
  const dispatch = useAppDispatch()
  const pool = useAppSelector(selectPool)
  const scheduled = useAppSelector(selectPoolScheduled)
  const pending = useAppSelector(selectRestakePending)
  const error = useAppSelector(selectRestakeError)
  const blocked = useAppSelector(selectActBlock)
  const [daysText, setDaysText] = useState(DEFAULT_DAYS)
  // The days' message shows once the field was left or Confirm tried, as in the deposit dialog.
  const [touched, setTouched] = useState(false)
  // The lower terms the person accepted (termsKey); another term or other funded figures ask again.
  const [accepted, setAccepted] = useState<string | null>(null)
  // The terms the person has seen, and any change a read brings (the owner's, perhaps just before a refusal).
  const seenTerms = useSeenTerms(pool)

  const poolAddress = pool?.address ?? null
  // Changes the owner has scheduled for this pool show before anyone stakes in it (docs/product.md §2.6).
  useEffect(() => {
    if (poolAddress) dispatch(scheduledCallsRequested({ target: poolAddress }))
  }, [dispatch, poolAddress])

  const limits = daysLimits(pool, false)
  const days = daysOf(daysText)
  const daysOk = daysInRange(daysText, limits)
  const shownDays = Math.min(days, limits.max)
  const view = useAppSelector(selectRestakeOf(shownDays))
  const shortfall = view?.preview.shortfall ?? null
  const shortKey = view && shortfall ? termsKey(view.ids, days, shortfall.minimums) : null
  const lowerTermsAccepted = shortKey !== null && accepted === shortKey
  const request: RestakeRequest | null =
    view && daysOk ? { ids: view.ids, days, minimums: shortfall ? shortfall.minimums : null } : null
  // The network fee of the one restake Confirm would send (docs/product.md §4.4).
  const fee = useFeeQuote(request && !blocked ? { kind: 'restake', ...request } : null)
  const canConfirm = request !== null && (!shortfall || lowerTermsAccepted) && !pending && !blocked && !fee.blocked
  const close = () => dispatch(modalClosed())
  const confirm = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!canConfirm || !request) return
    seenTerms.confirmed()
    dispatch(restakeRequested(request))
  }

  return (
    <Modal title="Restake" onClose={close} wide>
      <ScheduledChanges lines={scheduled} />
      <TermsChanged changes={seenTerms.changes} />
      {view ? (
        <form onSubmit={confirm} noValidate>
          <CurveColumns>
            <div>
              <Intro>
                {view.count === 1 ? `${stakesText(view.ids)} is matured.` : `${view.count} matured stakes.`} Restaking closes{' '}
                {view.count === 1 ? 'it' : 'them'} and stakes all {view.count === 1 ? 'it pays' : 'they pay'} now as one new
                stake, in one transaction. No tokens leave the pool, so there is nothing to approve.
              </Intro>
              <Amount aria-labelledby="restake-amount-title">
                <h3 id="restake-amount-title">Amount to restake</h3>
                <strong data-testid="restake-amount">{view.amount}</strong>
                <Each aria-label="Stakes to restake" data-testid="restake-stakes">
                  {view.stakes.map((s) => (
                    <li key={s.id}>
                      <span>Stake #{s.id}</span>
                      {s.received}
                    </li>
                  ))}
                </Each>
              </Amount>
              <DaysField
                id="restake-days"
                value={daysText}
                limits={limits}
                error={touched && !daysOk ? daysRangeText(limits) : null}
                onChange={setDaysText}
                onBlur={() => setTouched(true)}
              />
              <DepositEstimate
                preview={view.preview}
                v1={view.pool.version === 1}
                accepted={lowerTermsAccepted}
                canAccept={shortKey !== null && !pending}
                onAccept={(yes) => setAccepted(yes ? shortKey : null)}
              />
            </div>
            <aside>
              <DepositCurve
                pool={view.pool}
                amountWei={view.amountWei}
                days={shownDays}
                referred={false}
                prompt="Enter the days to see what closing the new stake would pay on each day."
              />
            </aside>
          </CurveColumns>
          <DialogActions>
            {/* Why the last restake did not go through; a rejection in the wallet is only a notice. */}
            {error && <ErrorText data-testid="restake-error">{error}</ErrorText>}
            {blocked && <ErrorText>{blocked}</ErrorText>}
            <FeeLine quote={fee.quote} />
            <Button type="submit" $block disabled={!canConfirm}>
              {pending && <Spinner size={18} label="Restaking" />}
              Confirm
            </Button>
          </DialogActions>
        </form>
      ) : (
        <Intro>These stakes are not all matured and open any more: nothing to restake.</Intro>
      )}
    </Modal>
  )
}
