/**
 * Claim or stake, side by side (docs/product.md §2.7): for the unlocked amount, claiming it to the wallet now against
 * staking it under each claim-and-stake term, with what the holder has at the release, the APR, the release date and
 * the break-even day. Pure figures from src/domain (the same arithmetic as the term chooser and the pool); the
 * selector that feeds it is selectClaimOrStake.
 */
import { breakEven, closeCurve, stakeOfPreview } from '../../domain/closeCurve'
import { DAY, landedFee, ONE, PERCENT, previewStake, termApr, YEAR_SECONDS, type PoolMathState } from '../../domain/math'
import { formatDate } from '../../format/dates'
import { formatAmount, formatPercent } from '../../format/units'
import type { HarvestTerm } from './slice'

export interface ClaimOption {
  /** 'wallet', or the term's hold in seconds. */
  key: string
  title: string
  /** The term's bonus and inflation reward, for its small print; null for the wallet. */
  terms: string | null
  /** What the holder has at the release (in the wallet: the claim itself, now). */
  atRelease: string
  /** Base units of `atRelease`, for a program to compare. */
  atReleaseWei: string
  /** What staking adds on top of the claim. */
  gain: string
  /** The whole return over the hold, a year's worth (bonus and inflation reward), e.g. '460.83%'. */
  apr: string
  /**
   * Its parts when the pool pays inflation, e.g. 'bonus 60.83% + inflation 400.00%': the bonus's is the APR the term
   * chooser shows (31,536,000 / hold × bonus, docs/product.md §5.4). Null for the wallet and a pool without inflation.
   */
  aprParts: string | null
  releaseDate: string
  /** The first day a close pays back the claim: its date, and the days from now ('today' for 0). */
  breakEvenDate: string
  breakEvenDays: number
}

export interface ClaimOrStakeInput {
  /** The unlocked amount, base units. */
  unlocked: string
  terms: HarvestTerm[]
  /** The harvest pool's inflation a year and early-close fee (1e18-scaled percents); null while not read. */
  inflationPercent: string | null
  unHoldFee: string | null
  /** When the comparison is made (unix seconds): a stake made now. */
  now: number
  symbol: string
}

/**
 * The harvest pool as previewStake reads a claim staked under a term. Claim-and-stake asks for the term's full bonus
 * and reward as its minimums (harvestBounds in sagas.ts): the pool gives them or refuses the claim, so the reservoir
 * counts as funding them. An unknown fee counts as 100%, the highest a stake can have (the claim sends it as its bound).
 */
function harvestPoolMath(inflationPercent: string | null, unHoldFee: string | null): PoolMathState {
  return {
    version: 1,
    rate: ONE,
    totalShares: 0n,
    inflationPercent: BigInt(inflationPercent ?? '0'),
    refererBonusPercent: 0n,
    timeBonusPercent: 0n,
    unHoldFee: unHoldFee === null ? PERCENT : BigInt(unHoldFee),
    holdTimeRefMin: 0n,
    holdTimeMax: 0n,
    reservoirAvailable: 2n ** 256n - 1n,
  }
}

export interface ClaimOrStakeView {
  /** The unlocked amount compared. */
  amount: string
  /** The early-close fee a claim staked now starts with, e.g. '100.00%'. */
  feePercent: string
  /** The wallet first, then the terms, shortest first. */
  options: ClaimOption[]
}

/** The comparison for the unlocked amount; null while nothing is unlocked. */
export function claimOrStake(input: ClaimOrStakeInput): ClaimOrStakeView | null {
  const amount = BigInt(input.unlocked)
  if (amount === 0n) return null
  const withSymbol = (wei: bigint) => formatAmount(wei, { symbol: input.symbol })
  const now = BigInt(input.now)
  const today = formatDate(input.now)
  const wallet: ClaimOption = {
    key: 'wallet',
    title: 'Claim to your wallet',
    terms: null,
    atRelease: withSymbol(amount),
    atReleaseWei: amount.toString(),
    gain: withSymbol(0n),
    apr: `${formatPercent(0n)}%`,
    aprParts: null,
    releaseDate: today,
    breakEvenDate: today,
    breakEvenDays: 0,
  }
  const pool = harvestPoolMath(input.inflationPercent, input.unHoldFee)
  const staked = [...input.terms]
    .sort((a, b) => a.hold - b.hold)
    .map((t): ClaimOption => {
      const hold = BigInt(t.hold)
      const p = previewStake(pool, amount, hold, false, BigInt(t.bonus))
      const points = closeCurve(stakeOfPreview(p, amount, now), p.rate, now)
      const release = points[points.length - 1]
      // Held to the release a stake pays back at least its amount, so there is always a break-even day.
      const even = breakEven(points, amount) ?? release
      const gain = release.received - amount
      const reward = p.reward > 0n ? ` + ${formatPercent(p.rewardFraction * 100n)}% inflation reward` : ''
      const bonusApr = `${formatPercent(termApr(hold, BigInt(t.bonus)))}%`
      return {
        key: String(t.hold),
        title: `Stake ${Number(hold / DAY)} days`,
        terms: `+${formatPercent(p.bonusFraction * 100n)}% bonus${reward}`,
        atRelease: withSymbol(release.received),
        atReleaseWei: release.received.toString(),
        gain: withSymbol(gain),
        // gain / amount a year: × 100% × a year / the hold.
        apr: `${formatPercent((gain * YEAR_SECONDS * PERCENT) / (amount * hold))}%`,
        aprParts: p.reward > 0n ? `bonus ${bonusApr} + inflation ${formatPercent(pool.inflationPercent)}%` : null,
        releaseDate: formatDate(Number(release.time)),
        breakEvenDate: formatDate(Number(even.time)),
        breakEvenDays: even.day,
      }
    })
  return { amount: withSymbol(amount), feePercent: `${formatPercent(landedFee(pool.unHoldFee))}%`, options: [wallet, ...staked] }
}
