import { Interface, isError, type Result } from 'ethers'
import { formatAmount, formatPercent } from '../format/units'

/**
 * Custom errors of every contract, so a revert reads as its name instead of raw data. Parsed on first use (a revert),
 * not when the app starts.
 */
const ERROR_SIGNATURES = [
  'error ZeroAddress()',
  'error ZeroAmount()',
  'error ZeroShares()',
  'error InvalidHoldTime(uint256 holdTime, uint256 min, uint256 max)',
  'error SelfReferral()',
  'error RefererNotStaking(address referer)',
  'error StakeTooLarge(uint256 amount, uint256 max)',
  'error TooManyStakes(uint256 max)',
  'error AccountLimit(uint256 max)',
  'error TermNotOffered(uint256 hold)',
  'error StakingIsPaused()',
  'error NoStakeIds()',
  'error StakeNotFound(uint256 id)',
  'error StakeNotActive(uint256 id)',
  'error StakeNotMatured(uint256 id)',
  'error SharesNotTransferable()',
  'error RewardsUnavailable(uint256 bonus, uint256 reward)',
  // The guarded stakes (terms the holder saw), the referer rule and the permit stake.
  'error FeeAboveMax(uint256 fee, uint256 maxFee)',
  'error BonusBelowMin(uint256 bonus, uint256 minBonus)',
  'error RewardBelowMin(uint256 reward, uint256 minReward)',
  'error RefererStakeTooSmall(uint256 amount, uint256 minStake)',
  'error RefererStakeTooNew(uint256 stakeTime)',
  'error RefererReleasedFirst(uint256 refererRelease, uint256 release)',
  'error ReferralNotBacked(uint256 bonus, uint256 available)',
  'error PermitAllowanceShort(uint256 allowance, uint256 amount)',
  'error PoolLimit(uint256 max)',
  'error ParameterOutOfBounds(string name, uint256 value, uint256 max)',
  'error TooManyTerms(uint256 count)',
  'error DuplicateTerm(uint256 hold)',
  'error NotHarvest(address caller)',
  'error NotSupportedInThisVersion()',
  'error OwnableUnauthorizedAccount(address account)',
  'error OwnableInvalidOwner(address owner)',
  'error InvalidInitialization()',
  'error NotInitializing()',
  'error ReentrancyGuardReentrantCall()',
  'error SafeERC20FailedOperation(address token)',
  'error InvalidMessage()',
  'error UntrustedSigner(address signer)',
  'error StaleClaim(uint256 expectedLastBlock, uint256 lastUpdateBlock)',
  'error InvalidCurrentBlock(uint256 currentBlock)',
  'error CurrentBlockInFuture(uint256 currentBlock, uint256 blockNumber)',
  'error ClaimedTotalMismatch(uint256 claimed, uint256 claimedBefore)',
  'error ClaimExpired(uint256 deadline, uint256 timestamp)',
  'error UnknownPool(address pool)',
  'error TokenMismatch(address poolToken, address rewardToken)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  // OpenZeppelin 5's other ERC20 (IERC20Errors), ECDSA and Address errors.
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ECDSAInvalidSignature()',
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
  'error AddressEmptyCode(address target)',
  'error FailedCall()',
  // PoolsInfo
  'error NotWhitelisted(address caller)',
  'error PoolAlreadyAdded(address pool)',
  'error PoolNotFound(uint256 id)',
  'error NotTheFactory(address factory, address caller)',
  'error NotCreatedByFactory(address pool, address factory)',
  // Reservoir
  'error AllowanceNotBacked(uint256 amount, uint256 free)',
]
let errors: Interface | null = null

const MESSAGES: Record<string, string> = {
  ZeroAddress: 'An address the transaction needs is missing.',
  ZeroAmount: 'The amount must be greater than 0.',
  ZeroShares: 'The amount is too small to mint any pool shares.',
  InvalidHoldTime: 'The number of days is outside what the pool allows.',
  SelfReferral: 'You cannot refer yourself.',
  RefererNotStaking: 'Your referral has no active stake in this pool; stake without it.',
  RefererStakeTooNew: 'Your referral staked only this moment; try again in a moment or stake without it.',
  RefererReleasedFirst: "Your referral's stake is released before this one would be; choose fewer days or stake without it.",
  PoolLimit: 'The pool cannot take a stake this large.',
  NotTheFactory: 'Only the factory that made a pool may register it.',
  NotCreatedByFactory: 'Only a pool its factory made can be registered.',
  StakeTooLarge: 'The amount is larger than one stake may hold.',
  TooManyStakes: 'You have made as many stakes in this pool as it allows.',
  AccountLimit: 'This stake would take your total in this pool past what one account may hold.',
  TermNotOffered: 'This staking term is not offered by the pool.',
  StakingIsPaused: 'Staking in this pool is paused.',
  StakeNotActive: 'This stake is already closed.',
  StakeNotFound: 'This stake does not exist.',
  NoStakeIds: 'Choose at least one stake to close.',
  SharesNotTransferable: 'Pool shares stay with the stake that made them; they cannot be transferred.',
  ParameterOutOfBounds: 'A pool parameter is outside its allowed range.',
  TooManyTerms: 'The pool allows fewer staking terms.',
  DuplicateTerm: 'Each staking term needs a number of days of its own.',
  NotHarvest: 'Only the claim contract may stake for someone else.',
  NotSupportedInThisVersion: 'This pool version does not support that.',
  OwnableUnauthorizedAccount: 'Only the owner may do this.',
  OwnableInvalidOwner: 'That address cannot be the owner.',
  InvalidInitialization: 'The contract is already set up.',
  NotInitializing: 'The contract is already set up.',
  ReentrancyGuardReentrantCall: 'The pool refused a call made from inside another of its calls.',
  SafeERC20FailedOperation: 'A token transfer failed.',
  InvalidMessage: 'The claim does not match its signature; reload the page.',
  UntrustedSigner: 'The claim was not signed by a trusted signer.',
  StaleClaim: 'This claim has already been used; reload the page for a new one.',
  InvalidCurrentBlock: 'The claim is out of date; reload the page.',
  CurrentBlockInFuture: 'The claim is ahead of the chain; try again in a moment.',
  ClaimedTotalMismatch: 'This claim was made for an earlier state of your claims; a new one is being loaded.',
  ClaimExpired: 'This claim has expired; a new one is being loaded.',
  ERC20InvalidSender: 'Tokens cannot be sent from the zero address.',
  ERC20InvalidReceiver: 'Tokens cannot be sent to the zero address.',
  ERC20InvalidApprover: 'The approval must come from a real account.',
  ERC20InvalidSpender: 'That address cannot be approved to spend tokens.',
  ECDSAInvalidSignature: 'The claim signature is not valid; reload the page.',
  ECDSAInvalidSignatureLength: 'The claim signature is not valid; reload the page.',
  ECDSAInvalidSignatureS: 'The claim signature is not valid; reload the page.',
  AddressEmptyCode: 'A contract the transaction calls is not deployed on this network.',
  FailedCall: 'A call inside the transaction failed.',
  NotWhitelisted: 'Only listed accounts may add pools.',
  PoolAlreadyAdded: 'This pool is already listed.',
  PoolNotFound: 'This pool does not exist on this network.',
}

/** Messages that quote the revert's figures (token amounts in base units, 18 decimals). */
const DETAILED: Record<string, (args: Result) => string> = {
  // The allowance is read when the deposit dialog opens; it may have changed since (another tab, the wallet's own
  // allowance editor), so the figures the token saw are what the person needs.
  ERC20InsufficientAllowance: (a) =>
    `The pool may spend only ${formatAmount(a.allowance as bigint)} of your tokens and this needs ${formatAmount(
      a.needed as bigint,
    )}: approve at least that much first.`,
  ERC20InsufficientBalance: (a) =>
    `Your token balance is ${formatAmount(a.balance as bigint)} and this needs ${formatAmount(a.needed as bigint)}.`,
  // The pool asks for the full bonus and reward unless the stake names lower minimums (docs/contracts.md).
  // The guarded stake: the terms changed after the preview (the owner's parameters, a harvest term); nothing was staked.
  FeeAboveMax: (a) =>
    `The early-close fee is now ${formatPercent(a.fee as bigint)}%, above the ${formatPercent(
      a.maxFee as bigint,
    )}% you were shown. Nothing was staked; check the new figures and confirm again.`,
  BonusBelowMin: (a) =>
    `The bonus is now ${formatAmount(a.bonus as bigint)}, below the ${formatAmount(
      a.minBonus as bigint,
    )} you were shown. Nothing was staked; check the new figures and confirm again.`,
  RewardBelowMin: (a) =>
    `The reward is now ${formatAmount(a.reward as bigint)}, below the ${formatAmount(
      a.minReward as bigint,
    )} you were shown. Nothing was staked; check the new figures and confirm again.`,
  RefererStakeTooSmall: (a) =>
    `Your referral's stake of ${formatAmount(a.amount as bigint)} is below the ${formatAmount(
      a.minStake as bigint,
    )} a referral needs; stake without it.`,
  ReferralNotBacked: (a) =>
    `Your referral's stake can back only ${formatAmount(a.available as bigint)} more of referral bonus and this needs ${formatAmount(
      a.bonus as bigint,
    )}; stake less, for fewer days, or without it.`,
  DuplicateTerm: (a) =>
    `Two staking terms are of ${(a.hold as bigint) / 86_400n} days; each term needs a number of days of its own.`,
  PermitAllowanceShort: (a) =>
    `The signed permit lets the pool take only ${formatAmount(a.allowance as bigint)} of the ${formatAmount(
      a.amount as bigint,
    )} needed; sign again.`,
  // restake(ids, ...) takes matured stakes only; one that is still running would be closed early, at a fee.
  StakeNotMatured: (a) =>
    `Stake #${a.id as bigint} has not reached its release date yet, and only matured stakes can be restaked. Nothing was closed or staked.`,
  RewardsUnavailable: (a) =>
    `The reward reservoir can no longer fund this stake's full bonus and reward: it can fund a bonus of ${formatAmount(
      a.bonus as bigint,
    )} and a reward of ${formatAmount(a.reward as bigint)}. Nothing was staked; check the new figures and try again.`,
}

/** True when the person declined the request in their wallet (not a failure). */
export function isUserRejection(err: unknown): boolean {
  if (isError(err, 'ACTION_REJECTED')) return true
  const code =
    (err as { code?: unknown; info?: { error?: { code?: unknown } } })?.code ??
    (err as { info?: { error?: { code?: unknown } } })?.info?.error?.code
  return code === 4001
}

/** Finds revert data in an ethers error, a wallet's RPC error, or nested causes. */
function revertData(err: unknown): string | null {
  const seen = new Set<unknown>()
  const walk = (e: unknown): string | null => {
    if (!e || typeof e !== 'object' || seen.has(e)) return null
    seen.add(e)
    const o = e as Record<string, unknown>
    if (typeof o.data === 'string' && /^0x[0-9a-f]{8}/i.test(o.data)) return o.data
    for (const k of ['error', 'info', 'cause', 'data']) {
      const found = walk(o[k])
      if (found) return found
    }
    return null
  }
  return walk(err)
}

/**
 * Why a read failed, as the outage banner and the stake list say it: the network (or the service) could not be
 * reached or did not answer in time, or it answered with an error. `service` names what was read.
 */
export function readFailureMessage(err: unknown, service: 'network' | 'api' = 'network'): string {
  const what = service === 'api' ? 'the vesting service' : 'the network'
  if (isError(err, 'TIMEOUT')) return `${what[0].toUpperCase()}${what.slice(1)} did not answer in time.`
  if (isError(err, 'CALL_EXCEPTION')) return `${what[0].toUpperCase()}${what.slice(1)} refused the read.`
  if (isError(err, 'SERVER_ERROR') || isError(err, 'NETWORK_ERROR') || isError(err, 'UNKNOWN_ERROR'))
    return `Can't reach ${what}.`
  const name = (err as { name?: unknown })?.name
  if (name === 'AbortError') return `${what[0].toUpperCase()}${what.slice(1)} did not answer in time.`
  return `Can't reach ${what}.`
}

/** A short sentence for a person, from any error a wallet, node or contract can produce. */
export function toUserMessage(err: unknown): string {
  if (isUserRejection(err)) return 'You rejected the request in your wallet.'
  const data = revertData(err)
  if (data) {
    try {
      const parsed = (errors ??= new Interface(ERROR_SIGNATURES)).parseError(data)
      if (parsed)
        return (
          DETAILED[parsed.name]?.(parsed.args) ??
          MESSAGES[parsed.name] ??
          `The contract refused the transaction (${parsed.name}).`
        )
    } catch {
      // not one of ours
    }
  }
  if (isError(err, 'CALL_EXCEPTION'))
    return err.reason ? `The transaction was refused: ${err.reason}.` : 'The transaction was refused by the contract.'
  if (isError(err, 'INSUFFICIENT_FUNDS')) return 'Not enough funds to pay for gas.'
  if (isError(err, 'NETWORK_ERROR') || isError(err, 'TIMEOUT'))
    return 'The network did not answer; check your connection and try again.'
  if (isError(err, 'NONCE_EXPIRED') || isError(err, 'REPLACEMENT_UNDERPRICED'))
    return 'Your wallet has a pending transaction in the way; try again.'
  const code = (err as { code?: unknown })?.code
  if (code === 4902) return 'Your wallet does not know this network yet.'
  if (code === -32002) return 'Your wallet already has a request open; check it.'
  return 'Something went wrong; please try again.'
}
