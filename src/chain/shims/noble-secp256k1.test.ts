import { secp256k1 } from './noble-secp256k1'

describe('the secp256k1 shim (web build only)', () => {
  it('refuses any use with a clear message', () => {
    expect(() => (secp256k1 as { sign: unknown }).sign).toThrow('secp256k1 (sign) is not in the web build')
  })
})
