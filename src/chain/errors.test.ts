import { Interface, makeError, ZeroAddress, type ErrorFragment } from 'ethers'
import PoolArtifact from '../../artifacts/contracts/StakingPoolBase.sol/StakingPoolBase.json'
import { isUserRejection, toUserMessage } from './errors'

const iface = new Interface(['error StaleClaim(uint256,uint256)', 'error Mystery()'])

describe('toUserMessage', () => {
  it('treats a wallet rejection as a rejection, in ethers or raw EIP-1193 form', () => {
    const rejected = makeError('user rejected action', 'ACTION_REJECTED', { action: 'sendTransaction', reason: 'rejected' })
    expect(isUserRejection(rejected)).toBe(true)
    expect(isUserRejection({ code: 4001, message: 'User denied' })).toBe(true)
    expect(isUserRejection(new Error('x'))).toBe(false)
    expect(toUserMessage({ code: 4001 })).toBe('You rejected the request in your wallet.')
  })

  it('names our custom errors, wherever the revert data is nested', () => {
    const data = iface.encodeErrorResult('StaleClaim', [5, 4])
    expect(toUserMessage({ code: 'CALL_EXCEPTION', data })).toMatch(/already been used/)
    expect(toUserMessage({ info: { error: { code: 3, data } } })).toMatch(/already been used/)
    expect(toUserMessage({ error: { data: iface.encodeErrorResult('Mystery', []) } })).toBe(
      'Something went wrong; please try again.',
    )
  })

  it('gives short messages for common RPC failures', () => {
    expect(toUserMessage(makeError('down', 'NETWORK_ERROR', { event: 'x' }))).toMatch(/network did not answer/)
    expect(toUserMessage(makeError('no gas', 'INSUFFICIENT_FUNDS', { transaction: {} }))).toMatch(/gas/)
    expect(toUserMessage({ code: 4902 })).toMatch(/does not know this network/)
    expect(toUserMessage('weird')).toBe('Something went wrong; please try again.')
  })

  it('says in plain words when the reward reservoir cannot fund a stake in full, with what it can fund', () => {
    const pool = new Interface(PoolArtifact.abi)
    const data = pool.encodeErrorResult('RewardsUnavailable', [10n ** 19n, 4n * 10n ** 19n + 5n])
    expect(toUserMessage({ code: 'CALL_EXCEPTION', data })).toBe(
      "The reward reservoir can no longer fund this stake's full bonus and reward: it can fund a bonus of 10.00 and a " +
        'reward of 40.00. Nothing was staked; check the new figures and try again.',
    )
  })

  it('names the hold of two harvest terms of one hold', () => {
    const pool = new Interface(PoolArtifact.abi)
    const data = pool.encodeErrorResult('DuplicateTerm', [30n * 86_400n])
    expect(toUserMessage({ code: 'CALL_EXCEPTION', data })).toBe(
      'Two staking terms are of 30 days; each term needs a number of days of its own.',
    )
  })

  it('names the stake a restake would close before its release date', () => {
    const pool = new Interface(PoolArtifact.abi)
    const data = pool.encodeErrorResult('StakeNotMatured', [4n])
    expect(toUserMessage({ code: 'CALL_EXCEPTION', data })).toBe(
      'Stake #4 has not reached its release date yet, and only matured stakes can be restaked. Nothing was closed or staked.',
    )
  })

  it('has a message of its own for every custom error of the pool ABI', () => {
    const pool = new Interface(PoolArtifact.abi)
    const zero = (type: string) => (type === 'address' ? ZeroAddress : type === 'string' ? '' : type === 'bool' ? false : 0n)
    const errors: ErrorFragment[] = []
    pool.forEachError((e) => errors.push(e))
    expect(errors.map((e) => e.name)).toContain('RewardsUnavailable')
    for (const e of errors) {
      const data = pool.encodeErrorResult(
        e,
        e.inputs.map((i) => zero(i.type)),
      )
      const message = toUserMessage({ code: 'CALL_EXCEPTION', data })
      expect([e.name, message]).not.toEqual([e.name, `The contract refused the transaction (${e.name}).`])
      expect([e.name, message]).not.toEqual([e.name, 'Something went wrong; please try again.'])
    }
  })
})

describe('toUserMessage for the token and registry errors', () => {
  const oz = new Interface([
    'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
    'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    'error ERC20InvalidSpender(address spender)',
    'error PoolNotFound(uint256 id)',
  ])
  const E18 = 10n ** 18n

  it('names an allowance or balance that is too low with the figures the token saw', () => {
    const allowance = oz.encodeErrorResult('ERC20InsufficientAllowance', [ZeroAddress, 5n * E18, 10n * E18])
    expect(toUserMessage({ code: 'CALL_EXCEPTION', data: allowance })).toBe(
      'The pool may spend only 5.00 of your tokens and this needs 10.00: approve at least that much first.',
    )
    const balance = oz.encodeErrorResult('ERC20InsufficientBalance', [ZeroAddress, 3n * E18, 10n * E18])
    // As a wallet's JSON-RPC error nests it (code -32603, data.data).
    expect(toUserMessage({ code: -32603, message: 'reverted', data: { message: 'x', data: balance } })).toBe(
      'Your token balance is 3.00 and this needs 10.00.',
    )
  })

  it('has plain words for the other OpenZeppelin and PoolsInfo errors', () => {
    expect(toUserMessage({ data: oz.encodeErrorResult('ERC20InvalidSpender', [ZeroAddress]) })).toBe(
      'That address cannot be approved to spend tokens.',
    )
    expect(toUserMessage({ data: oz.encodeErrorResult('PoolNotFound', [9]) })).toBe('This pool does not exist on this network.')
  })
})
