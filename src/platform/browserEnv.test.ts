/**
 * @jest-environment jsdom
 */
import { recordCookieWrites } from '../../test/support/fixtures'
import { createBrowserEnv } from './browserEnv'

describe('browser environment cookies', () => {
  it('sets, reads and removes the app cookies in document.cookie', () => {
    const env = createBrowserEnv()
    env.cookies.set('ref', '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')
    env.cookies.set('walletName', 'dev')
    expect(document.cookie).toContain('ref=0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')
    expect(env.cookies.get('walletName')).toBe('dev')
    env.cookies.remove('walletName')
    expect(env.cookies.get('walletName')).toBeUndefined()
    expect(env.cookies.get('ref')).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')
  })

  it('does not mark cookies Secure on a plain http page, which could not keep them then', () => {
    const writes = recordCookieWrites()
    createBrowserEnv().cookies.set('modal', 'deposit')
    expect(createBrowserEnv().cookies.get('modal')).toBe('deposit')
    expect(writes).toHaveLength(1)
    expect(writes[0].toLowerCase().split('; ')).toContain('samesite=lax')
    expect(writes[0].toLowerCase().split('; ')).not.toContain('secure')
    delete (document as { cookie?: string }).cookie
  })

  it('tells a phone from a desktop and sees an injected wallet', () => {
    expect(createBrowserEnv().isPhone).toBe(false)
    Object.assign(window, { ethereum: { isMetaMask: true } })
    expect(createBrowserEnv().injected).toEqual({ isMetaMask: true })
  })
})

describe('browser environment storage', () => {
  it('keeps text in localStorage across envs (a reload), and keeps nothing when the browser refuses storage', () => {
    createBrowserEnv().storage.set('k', 'v')
    expect(createBrowserEnv().storage.get('k')).toBe('v')
    expect(window.localStorage.getItem('k')).toBe('v')
    createBrowserEnv().storage.remove('k')
    expect(createBrowserEnv().storage.get('k')).toBeNull()
    const refuse = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError')
    })
    try {
      expect(() => createBrowserEnv().storage.set('k', 'v')).not.toThrow()
      expect(createBrowserEnv().storage.get('k')).toBeNull()
    } finally {
      refuse.mockRestore()
    }
  })
})
