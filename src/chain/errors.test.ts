import { Interface, makeError } from 'ethers'
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
})
