import { makeStore } from './store'
import { tokenLoaded } from '../features/token/slice'

describe('makeStore', () => {
  it('starts with the four slices as plain JSON', () => {
    const state = makeStore().getState()
    expect(Object.keys(state)).toEqual(['wallet', 'token', 'stake', 'vesting'])
    expect(JSON.parse(JSON.stringify(state))).toEqual(state)
    expect(state.stake.userStakes).toEqual([])
    expect(state.vesting.info).toMatchObject({ total: '0', claimed: '0' })
  })

  it('keeps the serializable check on: a bigint in an action is reported', () => {
    const errors: unknown[] = []
    const spy = jest.spyOn(console, 'error').mockImplementation((...args) => void errors.push(args[0]))
    const store = makeStore()
    store.dispatch(tokenLoaded({ name: 'x', symbol: 'x', balance: 5n as unknown as string }))
    spy.mockRestore()
    expect(String(errors[0])).toMatch(/non-serializable value/)
  })
})
