/**
 * @jest-environment jsdom
 * @jest-environment-options {"url": "https://dapp.example/staking"}
 */
import { recordCookieWrites } from '../../test/support/fixtures'
import { createBrowserEnv } from './browserEnv'

describe('browser environment cookies on https', () => {
  it('marks every cookie Secure and SameSite=Lax, and still reads and removes them', () => {
    const writes = recordCookieWrites()
    const env = createBrowserEnv()
    env.cookies.set('ref', '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')
    expect(env.cookies.get('ref')).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')
    env.cookies.remove('ref')
    expect(env.cookies.get('ref')).toBeUndefined()
    expect(writes).toHaveLength(2)
    for (const w of writes)
      expect(w.toLowerCase().split('; ').slice(1)).toEqual(expect.arrayContaining(['samesite=lax', 'secure']))
  })
})
