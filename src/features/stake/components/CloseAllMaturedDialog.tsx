import { Fragment } from 'react'
import styled from 'styled-components'
import { DialogActions, PayoutList } from './PayoutList'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { Button } from '../../../ui/Button'
import { Muted } from '../../../ui/Card'
import { ErrorText } from '../../../ui/ErrorText'
import { Modal } from '../../../ui/Modal'
import { Spinner } from '../../../ui/Spinner'
import { FeeLine, useFeeQuote } from '../../wallet/components/FeeLine'
import { modalClosed, modalOpened } from '../../wallet/slice'
import { selectActBlock } from '../../wallet/selectors'
import { selectCloseAllError, selectCloseAllMatured, selectCloseAllPending } from '../selectors'
import { closeAllMaturedRequested, restakeOpened } from '../slice'
import { Figures } from './StakeSummaryDialog'

const Intro = styled(Muted)`
  margin: 0 0 18px;
`

/** Each stake and what it pays: a short list, scrolled inside its box when there are many. */
const Each = styled(PayoutList)`
  margin: 0 0 20px;
  padding: 4px 14px;
  max-height: 172px;
  li {
    padding: 6px 0;
  }
`

/**
 * "Restake all" beside the close: the same stakes, staked again instead of paid out (docs/product.md §2.6a). On a phone
 * one above the other, so neither label breaks.
 */
const Buttons = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 10px;
  @media (max-width: 480px) {
    grid-template-columns: 1fr;
  }
`

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * "Close all matured" (docs/product.md §2.4): what closing every matured stake of the list pays (each its amount, its
 * bonus, its whole reward and what it earned from strong hands, no fee), how many and which, then one unstake(ids).
 * A rejection in the wallet leaves it as it was; a refusal says why here. "Restake all" opens the restake dialog for
 * the same stakes instead (§2.6a).
 */
export function CloseAllMaturedDialog() {
  const dispatch = useAppDispatch()
  const matured = useAppSelector(selectCloseAllMatured)
  const pending = useAppSelector(selectCloseAllPending)
  const error = useAppSelector(selectCloseAllError)
  const blocked = useAppSelector(selectActBlock)
  const fee = useFeeQuote(matured && !blocked ? { kind: 'closeAll', ids: matured.ids } : null)
  const close = () => dispatch(modalClosed())
  const line = (label: string, text: string, id: string, className?: string) => (
    <Fragment key={id}>
      <dt className={className}>{label}</dt>
      <dd className={className} data-testid={`close-all-${id}`}>
        {text}
      </dd>
    </Fragment>
  )
  return (
    <Modal title="Close all matured" onClose={close}>
      {matured ? (
        <>
          <Intro>
            {plural(matured.count, 'matured stake', 'matured stakes')}, closed together in one transaction. Each pays its amount,
            its bonus and its whole reward, with no early withdrawal fee.
          </Intro>
          <Figures>
            {line('Stakes to close', String(matured.count), 'count')}
            {line('Amount staked', matured.stakeAmount, 'amount')}
            {line('Bonus and reward', matured.bonusAndReward, 'rewards')}
            {line('Earned from strong hands', matured.gains, 'gains')}
            {line('Early withdrawal fee', matured.fee, 'fee')}
            {line('Total to receive', matured.total, 'total', 'total')}
          </Figures>
          <Each aria-label="Stakes to close" data-testid="close-all-stakes">
            {matured.stakes.map((s) => (
              <li key={s.id}>
                <span>Stake #{s.id}</span>
                {s.received}
              </li>
            ))}
          </Each>
        </>
      ) : (
        <Intro>No stake in the list is matured now: nothing to close.</Intro>
      )}
      <DialogActions>
        {error && <ErrorText data-testid="close-all-error">{error}</ErrorText>}
        {blocked && <ErrorText>{blocked}</ErrorText>}
        {matured && <FeeLine quote={fee.quote} />}
        <Buttons>
          <Button
            $block
            $variant="secondary"
            disabled={!matured || pending || !!blocked}
            onClick={() => {
              if (!matured) return
              dispatch(restakeOpened({ ids: matured.ids }))
              dispatch(modalOpened('restake'))
            }}
          >
            Restake all
          </Button>
          <Button
            $block
            disabled={!matured || pending || !!blocked || fee.blocked}
            onClick={() => matured && dispatch(closeAllMaturedRequested({ ids: matured.ids }))}
          >
            {pending && <Spinner size={18} label="Closing" />}
            {matured ? `Close ${plural(matured.count, 'stake', 'stakes')}` : 'Close'}
          </Button>
        </Buttons>
      </DialogActions>
    </Modal>
  )
}
