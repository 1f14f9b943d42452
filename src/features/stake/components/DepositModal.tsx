import { useFormik } from 'formik'
import { useEffect, useMemo, useRef, useState } from 'react'
import styled from 'styled-components'
import { CurveColumns } from './CurveColumns'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { parseAmountInput, toInputText } from '../../../format/amountInput'
import { formatAmount, shortenAddress, TOKEN_DECIMALS } from '../../../format/units'
import { userDecimalSeparator } from '../../../platform/locale'
import { Button } from '../../../ui/Button'
import { ErrorText } from '../../../ui/ErrorText'
import { Modal } from '../../../ui/Modal'
import { Spinner } from '../../../ui/Spinner'
import { TextField } from '../../../ui/TextField'
import { ApproveAmount } from './ApproveAmount'
import { DepositMethod, type DepositMethodName } from './DepositMethod'
import { FeeLine, useFeeQuote } from '../../wallet/components/FeeLine'
import type { FeePurpose } from '../../wallet/feeQuote'
import { DepositCurve } from './DepositCurve'
import { DepositEstimate, type Shortfall } from './DepositEstimate'
import { ScheduledChanges } from '../../../ui/ScheduledChanges'
import { modalClosed } from '../../wallet/slice'
import { DaysField } from './DaysField'
import { TermsChanged, useSeenTerms } from './TermsChanged'
import { daysOf } from '../days'
import {
  amountTextProblem,
  depositErrors,
  EMPTY_DEPOSIT,
  hasReferral,
  PRODUCT_TEAM_REFERRAL,
  type DepositValues,
} from '../depositForm'
import { selectBalance, selectSymbol } from '../../token/selectors'
import { scheduledCallsRequested } from '../../token/slice'
import { selectCanBatch, selectReferral } from '../../wallet/selectors'
import {
  daysLimits,
  depositPreview,
  selectApprovalInFlight,
  selectApprovalOf,
  selectApproveError,
  selectCanSignPermit,
  selectDeposit,
  selectPermitFor,
  selectPool,
  selectPoolScheduled,
  selectSignError,
  selectSigning,
} from '../selectors'
import {
  allowanceCheckRequested,
  approveRequested,
  depositRequested,
  depositReset,
  depositWithPermitRequested,
  permitSignRequested,
} from '../slice'

const Failure = styled(ErrorText)`
  margin: -8px 0 16px;
`

const FeeNote = styled.p`
  margin: 0;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.9rem;
`

const Actions = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 10px;
`

/** What accepting lower terms applies to: this amount, term and referral, with exactly these funded figures. */
const termsKey = (amount: string, days: number, referred: boolean, s: Shortfall) =>
  [amount, days, referred, s.minimums.bonus, s.minimums.reward].join('/')

/**
 * The create-deposit modal, version 1 or 2 by the pool (docs/product.md §2.6, §4). When the reward reservoir cannot fund
 * the full bonus and reward, the pool refuses a plain stake; the modal says so with the figures and stakes only once
 * the person accepts the lower terms, which it sends as minimums.
 */
export function DepositModal() {
  const dispatch = useAppDispatch()
  const pool = useAppSelector(selectPool)
  const balance = useAppSelector(selectBalance)
  const symbol = useAppSelector(selectSymbol)
  const approving = useAppSelector(selectApprovalInFlight)
  const approveError = useAppSelector(selectApproveError)
  const deposit = useAppSelector(selectDeposit)
  const myReferral = useAppSelector(selectReferral)
  const canSign = useAppSelector(selectCanSignPermit)
  const signing = useAppSelector(selectSigning)
  const signError = useAppSelector(selectSignError)
  // A Safe open in Safe{Wallet} deposits in one Safe transaction, approve and stake batched (docs/product.md §11.4):
  // no Approve step. Over WalletConnect its owners confirm the approval, then the stake.
  const canBatch = useAppSelector(selectCanBatch)
  const batchRef = useRef(false)
  // Sign and stake is the default where the wallet can sign a permit (docs/product.md §4.6); Approve stays available.
  const [chosenMethod, setMethod] = useState<DepositMethodName | null>(null)
  // An approval already on its way (perhaps sent before a reload) means the person chose Approve: it stays chosen.
  const method: DepositMethodName = canSign ? (chosenMethod ?? (approving ? 'approve' : 'permit')) : 'approve'

  // The terms the person accepted (termsKey); any change of amount, term, referral or funded figures asks again.
  const [accepted, setAccepted] = useState<string | null>(null)
  // How much Approve asks for: the spec's standing 1e28 by default, or exactly this deposit.
  const [approveExact, setApproveExact] = useState(false)
  // The terms the person has seen: the pool's when the dialog opened, then those they confirmed on. A read that
  // brings other terms (the owner changed them, perhaps just before a stake that the pool then refused) is named until
  // they confirm on the new figures (docs/product.md §2.6).
  const seenTerms = useSeenTerms(pool)

  const scheduled = useAppSelector(selectPoolScheduled)
  const poolAddress = pool?.address ?? null
  useEffect(() => {
    dispatch(allowanceCheckRequested())
    dispatch(depositReset())
  }, [dispatch])
  // Changes the owner has scheduled for this pool show before anyone stakes in it (docs/product.md §2.6).
  useEffect(() => {
    if (poolAddress) dispatch(scheduledCallsRequested({ target: poolAddress }))
  }, [dispatch, poolAddress])

  // The person's decimal separator: 10,5 reads as ten and a half where the locale writes it so (format/units.ts).
  const separator = userDecimalSeparator()
  const readAmount = (text: string) => parseAmountInput(text, TOKEN_DECIMALS, separator)
  // The day limits depend on the referral being validated, so the schema is built per validation.
  const errorsOf = (v: DepositValues) => depositErrors(v, balance, daysLimits(pool, hasReferral(v.referral)), separator)
  // Formik counts a form valid until its first validation; the empty form's errors from the start keep Confirm off.
  const [initialErrors] = useState(() => errorsOf(EMPTY_DEPOSIT))
  const form = useFormik<DepositValues>({
    initialValues: EMPTY_DEPOSIT,
    initialErrors,
    validateOnMount: true,
    validate: errorsOf,
    onSubmit: (v) => {
      const amount = readAmount(v.amount)
      if (amount === null || !pool) return
      const days = Number(v.days)
      const referred = hasReferral(v.referral)
      const short = depositPreview(pool, BigInt(amount), days, referred).shortfall
      if (short && accepted !== termsKey(amount, days, referred, short)) return
      seenTerms.confirmed()
      const request = { amount, days, referral: referred ? v.referral : null, minimums: short ? short.minimums : null }
      if (method === 'permit') dispatch(depositWithPermitRequested(request))
      else dispatch(depositRequested(batchRef.current ? { ...request, approveFirst: amount } : request))
    },
  })
  const { values, errors, touched } = form
  const referred = hasReferral(values.referral)
  const limits = daysLimits(pool, referred)

  // The day limits move with the referral; check the days again when it changes.
  useEffect(() => {
    void form.validateForm()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [values.referral, balance, pool])

  const amountWei = readAmount(values.amount)
  const approval = useAppSelector(selectApprovalOf(amountWei))
  const permit = useAppSelector(selectPermitFor(amountWei))
  // Short of allowance, it approves exactly this amount in the same Safe transaction as the stake.
  const batch = canBatch && method === 'approve' && !approval.approved
  batchRef.current = batch
  // The tokens can reach the pool: approved, a permit signed for exactly this amount, or a Safe's batch.
  const approved = method === 'permit' ? permit !== null : approval.approved || batch
  const daysNumber = daysOf(values.days)
  const preview = useMemo(
    () => (pool ? depositPreview(pool, BigInt(amountWei ?? '0'), Math.min(daysNumber, limits.max), referred, symbol) : null),
    [pool, amountWei, daysNumber, limits.max, referred, symbol],
  )
  // What Confirm (or Approve, while the allowance is short) would send now, for its network fee (§4.4).
  const approveChoice = approveExact && approval.exact ? approval.exact : approval.unlimited
  const stakeReady = form.isValid && amountWei !== null
  const stakeTerms = stakeReady
    ? {
        amount: amountWei,
        days: daysNumber,
        referral: referred ? values.referral : null,
        minimums: preview?.shortfall ? preview.shortfall.minimums : null,
      }
    : null
  // Signing sends nothing: with Sign and stake, the fee is the stake's, quoted once the permit it carries is signed.
  const feePurpose: FeePurpose | null = !pool
    ? null
    : method === 'permit'
      ? permit && stakeTerms
        ? { kind: 'permitStake', ...stakeTerms, permit }
        : null
      : !approved
        ? { kind: 'approve', amount: approveChoice.amount }
        : stakeTerms
          ? { kind: 'stake', ...stakeTerms }
          : null
  const fee = useFeeQuote(feePurpose)
  if (!pool) return null
  const v1 = pool.version === 1
  const pending = deposit.status === 'pending'
  const shortfall = preview?.shortfall ?? null
  const shortKey = shortfall && amountWei !== null ? termsKey(amountWei, daysNumber, referred, shortfall) : null
  const lowerTermsAccepted = shortKey !== null && accepted === shortKey
  // The form's rules (a plain amount above 0 within the balance, days within the limits) are the schema's: formik's
  // validity carries them. Besides those, only what the schema cannot know: the allowance, accepted lower terms, and
  // no deposit already in flight.
  const canConfirm = form.isValid && approved && (!shortfall || lowerTermsAccepted) && !pending && !fee.blocked
  const close = () => dispatch(modalClosed())
  const showError = (field: keyof DepositValues) => (touched[field] || form.submitCount > 0 ? (errors[field] ?? null) : null)
  const amountError = amountTextProblem(values.amount, separator) ?? showError('amount')

  return (
    <Modal title={v1 ? 'Create deposit' : 'Create deposit (fixed rate)'} onClose={close} wide>
      <ScheduledChanges lines={scheduled} />
      <TermsChanged changes={seenTerms.changes} />
      <form onSubmit={form.handleSubmit} noValidate>
        <CurveColumns>
          <div>
            <TextField
              id="deposit-amount"
              label={`Amount${symbol ? ` (${symbol})` : ''}`}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={`0${separator}0`}
              value={values.amount}
              error={amountError}
              // Kept exactly as typed or pasted; a text that is not a plain amount gets a message, never a correction.
              onChange={(e) => void form.setFieldValue('amount', e.target.value)}
              onBlur={form.handleBlur}
              beside={
                <Button
                  type="button"
                  $variant="secondary"
                  onClick={() => void form.setFieldValue('amount', toInputText(balance, TOKEN_DECIMALS, separator))}
                >
                  MAX
                </Button>
              }
              hint={
                <>
                  {/* Readable to the cent (rounded down); the exact figure is on hover and what MAX fills in. */}
                  Balance: <span title={`${toInputText(balance)} ${symbol}`}>{formatAmount(balance, { symbol })}</span>
                </>
              }
            />

            {v1 && (
              <TextField
                id="deposit-referral"
                label="Referral"
                disabled
                value={values.referral ? shortenAddress(values.referral) : ''}
                placeholder="No referral"
                beside={
                  <select
                    aria-label="Choose a referral"
                    value={values.referral}
                    onChange={(e) => void form.setFieldValue('referral', e.target.value)}
                  >
                    <option value="">None</option>
                    <option value={PRODUCT_TEAM_REFERRAL}>Product team</option>
                    {myReferral && <option value={myReferral}>Your referral</option>}
                  </select>
                }
              />
            )}

            <DaysField
              id="deposit-days"
              value={values.days}
              limits={limits}
              error={showError('days')}
              onChange={(text) => void form.setFieldValue('days', text)}
              onBlur={form.handleBlur}
            />

            {preview && (
              <DepositEstimate
                preview={preview}
                v1={v1}
                accepted={lowerTermsAccepted}
                canAccept={shortKey !== null && !pending}
                onAccept={(yes) => setAccepted(yes ? shortKey : null)}
              />
            )}
          </div>
          <aside>
            {/* The stake being made: an amount the balance covers (the field says what is wrong with any other). */}
            <DepositCurve
              pool={pool}
              amountWei={amountWei !== null && BigInt(amountWei) <= BigInt(balance) ? amountWei : null}
              days={Math.min(daysNumber, limits.max)}
              referred={referred}
            />
          </aside>
        </CurveColumns>

        {canSign && <DepositMethod method={method} disabled={pending || signing} onChange={setMethod} />}

        {method === 'approve' && !approved && (
          <ApproveAmount
            approval={approval}
            symbol={symbol}
            disabled={approving}
            exact={approveExact}
            onExact={setApproveExact}
          />
        )}

        {/* Why the last approval or stake did not go through; a rejection in the wallet is only a notice. */}
        {((deposit.status === 'failed' && deposit.error) || approveError || signError) && (
          <Failure data-testid="deposit-error">
            {deposit.status === 'failed' && deposit.error ? deposit.error : (approveError ?? signError)}
          </Failure>
        )}

        {method === 'permit' && !permit ? (
          <FeeNote data-testid="fee-line">Network fee: shown once you sign. Signing sends nothing and costs nothing.</FeeNote>
        ) : (
          <FeeLine
            quote={fee.quote}
            safeExtra={
              batch
                ? 'Approve and stake go to your Safe as one transaction: exactly this amount is approved, then staked.'
                : undefined
            }
          />
        )}

        <Actions>
          {method === 'permit' ? (
            <Button
              type="button"
              $variant="secondary"
              disabled={approved || signing || pending || !stakeReady}
              onClick={() => amountWei !== null && dispatch(permitSignRequested({ amount: amountWei }))}
            >
              {signing && <Spinner size={18} label="Signing" />}
              {approved ? 'Signed' : signing ? 'Signing…' : 'Sign'}
            </Button>
          ) : canBatch ? null : (
            <Button
              type="button"
              $variant="secondary"
              disabled={approved || approving || fee.blocked}
              onClick={() => dispatch(approveRequested({ amount: approveChoice.amount }))}
            >
              {approving && <Spinner size={18} label="Approving" />}
              {/* The amount is the one checked just above; in the label it would not fit a phone's half-width button. */}
              {approved ? 'Approved' : approving ? 'Approving…' : 'Approve'}
            </Button>
          )}
          <Button type="submit" disabled={!canConfirm}>
            {pending && <Spinner size={18} label="Staking" />}
            Confirm
          </Button>
        </Actions>
      </form>
    </Modal>
  )
}
