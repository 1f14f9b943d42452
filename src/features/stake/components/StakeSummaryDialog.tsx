import { Fragment, useState } from 'react'
import styled from 'styled-components'
import { useAppDispatch, useAppSelector } from '../../../kit/hooks'
import { NO_FIGURE } from '../../../format/units'
import { Button } from '../../../ui/Button'
import { ErrorText } from '../../../ui/ErrorText'
import { FigureList } from '../../../ui/FigureList'
import { Muted } from '../../../ui/Card'
import { Modal } from '../../../ui/Modal'
import { Spinner } from '../../../ui/Spinner'
import { selectSymbol } from '../../token/selectors'
import { modalClosed, modalOpened } from '../../wallet/slice'
import { selectActBlock } from '../../wallet/selectors'
import {
  selectCloseError,
  selectClosePending,
  selectPoolView,
  selectRestakePending,
  selectSummaryCurve,
  selectSummaryRow,
} from '../selectors'
import { restakeOpened, unstakeRequested } from '../slice'
import { FeeLine, useFeeQuote } from '../../wallet/components/FeeLine'
import { CloseCurvePanel } from './CloseCurvePanel'

/**
 * The figures, what a close pays day by day, then Close tranche. On a desktop the curve sits beside the other two, so
 * the button stays in view under the figures it pays.
 */
const Columns = styled.div`
  display: grid;
  grid-template-areas: 'figures' 'curve' 'actions';
  gap: 20px 32px;
  @media (min-width: 760px) {
    &.two {
      grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr);
      grid-template-rows: auto 1fr;
      grid-template-areas: 'figures curve' 'actions curve';
    }
  }
  > .figures {
    grid-area: figures;
  }
  > .curve {
    grid-area: curve;
  }
  > .actions {
    grid-area: actions;
  }
`

const Top = styled.div`
  display: flex;
  align-items: center;
  gap: 18px;
  margin-bottom: 18px;
`

/** A close's figures, its total under one rule across both columns; "Close all matured" lists its sums the same way. */
export const Figures = styled(FigureList)`
  gap: 10px 16px;
  margin-bottom: 22px;
  dd {
    font-weight: 600;
  }
  /* One unbroken rule across both columns. */
  dd.total {
    margin-left: -16px;
    padding-left: 16px;
  }
  dd.lost {
    color: ${(p) => p.theme.color.warning};
  }
  .total {
    padding-top: 10px;
    border-top: 1px solid ${(p) => p.theme.color.border};
    color: ${(p) => p.theme.color.text};
    font-size: 1.1rem;
  }
`

const Warn = styled.p`
  margin: 0 0 14px;
  color: ${(p) => p.theme.color.warning};
  font-size: 0.9rem;
`

/** Close tranche, and for a matured stake Restake beside it (docs/product.md §2.6a); on a phone one above the other. */
const Buttons = styled.div`
  display: grid;
  gap: 10px;
  &.two {
    grid-template-columns: 1fr 1fr;
  }
  @media (max-width: 480px) {
    &.two {
      grid-template-columns: 1fr;
    }
  }
`

const Failure = styled(ErrorText)`
  margin: 0 0 14px;
`

/** The progress ring; `text` is the progress as the row words it ('33.33%'). */
function Ring({ value, text }: { value: number; text: string }) {
  const r = 34
  const c = 2 * Math.PI * r
  return (
    <svg width="84" height="84" viewBox="0 0 84 84" role="img" aria-label={`Progress ${text}`}>
      <circle cx="42" cy="42" r={r} fill="none" stroke="#2a3a31" strokeWidth="8" />
      <circle
        cx="42"
        cy="42"
        r={r}
        fill="none"
        stroke="#3ddc84"
        strokeWidth="8"
        strokeLinecap="round"
        strokeDasharray={`${(c * value) / 10_000} ${c}`}
        transform="rotate(-90 42 42)"
      />
      <text x="42" y="47" textAnchor="middle" fill="#eef7f1" fontSize="14" fontWeight="700">
        {Math.floor(value / 100)}%
      </text>
    </svg>
  )
}

const STATUS_TEXT = { Pending: 'In progress', Matured: 'Matured', Closed: 'Closed' }

/**
 * The closing summary (docs/product.md §2.5): what closing the stake pays now, or what its close paid. Before the release
 * date a close pays the principal less the early withdrawal fee and the reward earned so far, and forfeits the
 * bonus and the rest of the reward to the reservoir; the dialog names each part. 'Close tranche' only while active.
 * Before the release date it also draws what a close pays on each day to the release (CloseCurvePanel).
 */
export function StakeSummaryDialog() {
  const dispatch = useAppDispatch()
  const row = useAppSelector(selectSummaryRow)
  const { apr, version } = useAppSelector(selectPoolView)
  const curve = useAppSelector(selectSummaryCurve)
  const symbol = useAppSelector(selectSymbol)
  const closing = useAppSelector(selectClosePending)
  const closeError = useAppSelector(selectCloseError)
  const blocked = useAppSelector(selectActBlock)
  const restaking = useAppSelector(selectRestakePending)
  // The day chosen on the curve: today until the person picks another.
  const [picked, setPicked] = useState(0)
  const close = () => dispatch(modalClosed())
  // The network fee of closing it (docs/product.md §4.4), for an active stake of the wallet's own.
  const fee = useFeeQuote(row?.active && !blocked ? { kind: 'close', id: row.id } : null)
  if (!row) return null
  const c = row.close
  // A matured stake of the holder's own can be closed and staked again in one transaction instead.
  const canRestake = row.status === 'Matured' && !blocked
  const line = (label: string, text: string, id: string, className?: string) => (
    <Fragment key={id}>
      <dt className={className}>{label}</dt>
      <dd className={className} data-testid={`summary-${id}`}>
        {text}
      </dd>
    </Fragment>
  )
  return (
    <Modal title={`Stake #${row.id}`} onClose={close} wide={curve !== null}>
      <Columns className={curve ? 'two' : undefined}>
        <div className="figures">
          <Top>
            <Ring value={row.progress} text={row.progressText} />
            <div>
              <strong>{STATUS_TEXT[row.status]}</strong>
              <Muted>
                {row.progressText} of {row.days === 1 ? '1 day' : `${row.days} days`} ·{' '}
                {row.closed ? `closed ${row.closed}` : `release ${row.release}`}
              </Muted>
            </div>
          </Top>
          <Figures>
            {line('Amount staked', row.amount, 'amount')}
            {c.hasReward && line(c.early ? 'Reward earned so far' : 'Reward', c.rewardEarned, 'reward')}
            {c.hasBonus && !c.early && line('Bonus', c.bonusPaid, 'bonus')}
            {line('Earned from strong hands', c.gains, 'gains')}
            {line('Pool APR', apr ?? NO_FIGURE, 'apr')}
            {line('Early withdrawal fee', c.fee, 'fee', c.early ? 'lost' : undefined)}
            {c.early && c.hasBonus && line('Bonus forfeited', c.bonusForfeited, 'bonus-forfeited', 'lost')}
            {c.early && c.hasReward && line('Unearned reward forfeited', c.rewardForfeited, 'reward-forfeited', 'lost')}
            {line(row.active ? 'Total to receive' : 'Received', c.toReceive, 'total', 'total')}
          </Figures>
          {row.active && c.early && (
            <Warn>
              Closing before the release date costs the early withdrawal fee, and the bonus and the reward not yet earned go back
              to the reward reservoir.
            </Warn>
          )}
        </div>
        {curve && (
          <div className="curve">
            <CloseCurvePanel
              curve={curve}
              symbol={symbol}
              picked={picked}
              onPick={setPicked}
              assumes={
                <>
                  Today is the total to receive. Later days assume the pool&apos;s rate of today
                  {version === 1 ? ': fees that other stakers’ early closes share with this stake later come on top' : ''}. The
                  stake&apos;s fee, reward and bonus are fixed.
                </>
              }
            />
          </div>
        )}
        <div className="actions">
          {/* Why the close did not go through (a revert's reason); the button stays there to try again. */}
          {closeError && <Failure data-testid="close-error">{closeError}</Failure>}
          {row.active && blocked && <Failure as="p">{blocked}</Failure>}
          {row.active && <FeeLine quote={fee.quote} />}
          <Buttons className={canRestake ? 'two' : undefined}>
            {canRestake && (
              <Button
                $block
                $variant="secondary"
                disabled={closing || restaking}
                onClick={() => {
                  dispatch(restakeOpened({ ids: [row.id] }))
                  dispatch(modalOpened('restake'))
                }}
              >
                Restake
              </Button>
            )}
            <Button
              $block
              disabled={!row.active || closing || !!blocked || fee.blocked}
              onClick={() => dispatch(unstakeRequested(row.id))}
            >
              {closing && <Spinner size={18} label="Closing" />}
              Close tranche
            </Button>
          </Buttons>
        </div>
      </Columns>
    </Modal>
  )
}
