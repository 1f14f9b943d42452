import { parseTimerOverrides } from './timers'

describe('parseTimerOverrides (APP_TIMERS)', () => {
  it('takes known timers with positive numbers and ignores the rest', () => {
    expect(parseTimerOverrides('{"RPC_TIMEOUT_MS": 1500, "RETRY_MAX_MS": 4000, "NOPE": 1, "RETRY_FIRST_MS": -1}')).toEqual({
      RPC_TIMEOUT_MS: 1500,
      RETRY_MAX_MS: 4000,
    })
  })

  it('gives nothing for an unset, broken or non-object value', () => {
    expect(parseTimerOverrides(undefined)).toEqual({})
    expect(parseTimerOverrides('{')).toEqual({})
    expect(parseTimerOverrides('[1]')).toEqual({})
    expect(parseTimerOverrides('{"STAKING_REFRESH_MS": "5"}')).toEqual({})
  })
})
