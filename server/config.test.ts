import { Wallet } from 'ethers'
import { ConfigError, isHardhatDevKey, loadConfig } from './config'
import { devAccountKey } from '../src/domain/devAccounts'

describe('loadConfig', () => {
  const devKey = devAccountKey(9)
  const ownKey = Wallet.createRandom().privateKey

  it('refuses to start without a signer key, or with a malformed one', () => {
    expect(() => loadConfig({})).toThrow(ConfigError)
    expect(() => loadConfig({ VESTING_SIGNER_KEY: '0x1234' })).toThrow('not a valid private key')
  })

  it('takes a remote signer by URL and address instead of a key, and not both', () => {
    const address = new Wallet(ownKey).address
    expect(
      loadConfig({ VESTING_SIGNER_URL: 'http://127.0.0.1:8550', VESTING_SIGNER_ADDRESS: address, API_CHAIN_ID: '56' }),
    ).toMatchObject({
      signerUrl: 'http://127.0.0.1:8550',
      signerAddress: address,
      signerKey: undefined,
    })
    expect(() => loadConfig({ VESTING_SIGNER_URL: 'http://127.0.0.1:8550' })).toThrow('VESTING_SIGNER_ADDRESS')
    expect(() => loadConfig({ VESTING_SIGNER_URL: 'ftp://x', VESTING_SIGNER_ADDRESS: address })).toThrow('http(s) URL')
    expect(() =>
      loadConfig({ VESTING_SIGNER_URL: 'http://127.0.0.1:8550', VESTING_SIGNER_ADDRESS: address, VESTING_SIGNER_KEY: ownKey }),
    ).toThrow('not both')
    const devAddress = new Wallet(devKey).address
    expect(() =>
      loadConfig({ VESTING_SIGNER_URL: 'http://127.0.0.1:8550', VESTING_SIGNER_ADDRESS: devAddress, API_CHAIN_ID: '97' }),
    ).toThrow('public Hardhat development account; refused on chain 97')
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
    expect(c).toMatchObject({ rateLimitMax: 300, rateLimitWindowMs: 60_000, claimTtlSeconds: 1_800, trustProxy: false })
    expect(loadConfig({ VESTING_SIGNER_KEY: ownKey, API_RATE_LIMIT_MAX: '0', API_TRUST_PROXY: '1' })).toMatchObject({
      rateLimitMax: 0,
      trustProxy: 1,
    })
    expect(() => loadConfig({ VESTING_SIGNER_KEY: ownKey, API_CLAIM_TTL_SECONDS: '0' })).toThrow(
      'claimTtlSeconds must be positive',
    )
    expect(() => loadConfig({ VESTING_SIGNER_KEY: ownKey, API_PORT: 'x' })).toThrow('not a number')
  })
})
