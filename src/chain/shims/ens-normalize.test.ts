import { ens_normalize } from './ens-normalize'

describe('the ENS normaliser shim (web build only)', () => {
  it('refuses every name with a clear message', () => {
    expect(() => ens_normalize('vitalik.eth')).toThrow('ENS names are not supported')
  })
})
