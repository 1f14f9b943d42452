import { Wallet } from 'ethers'
import { ConfigError, isHardhatDevKey, loadConfig } from './config'
import { devAccountKey } from '../scripts/lib/devAccounts'

describe('loadConfig', () => {
  const devKey = devAccountKey(9)
  const ownKey = Wallet.createRandom().privateKey

  it('refuses to start without a signer key, or with a malformed one', () => {
    expect(() => loadConfig({})).toThrow(ConfigError)
    expect(() => loadConfig({ VESTING_SIGNER_KEY: '0x1234' })).toThrow('not a valid private key')
  })

  it('accepts a Hardhat key on the local chain only', () => {
    expect(loadConfig({ VESTING_SIGNER_KEY: devKey }).chainId).toBe(31337)
    expect(() => loadConfig({ VESTING_SIGNER_KEY: devKey, API_CHAIN_ID: '97' })).toThrow(
      'public Hardhat development key; refused on chain 97',
    )
    expect(loadConfig({ VESTING_SIGNER_KEY: ownKey, API_CHAIN_ID: '56' }).chainId).toBe(56)
  })

  it('recognises all 20 Hardhat keys and nothing else', () => {
    expect(isHardhatDevKey(devAccountKey(0))).toBe(true)
    expect(isHardhatDevKey(devAccountKey(19))).toBe(true)
    expect(isHardhatDevKey(ownKey)).toBe(false)
  })

  it('reads host, port, origins and defaults from the environment', () => {
    const c = loadConfig({
      VESTING_SIGNER_KEY: ownKey,
      API_PORT: '9000',
      API_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
    })
    expect(c).toMatchObject({ host: '127.0.0.1', port: 9000, allowedOrigins: ['https://a.example', 'https://b.example'] })
    expect(c.allocationsFile).toMatch(/allocations\.31337\.json$/)
    expect(() => loadConfig({ VESTING_SIGNER_KEY: ownKey, API_PORT: 'x' })).toThrow('not a number')
  })
})
