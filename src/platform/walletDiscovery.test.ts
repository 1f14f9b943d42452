import { isRdns } from './rdns'
import { listenForWallets, readAnnouncement } from './walletDiscovery'

const provider = { request: async () => null, on: () => provider, removeListener: () => provider }
const detail = (info: Record<string, unknown>, p: unknown = provider) => ({ info, provider: p })
const RABBY = { uuid: 'u-1', name: 'Rabby Wallet', icon: 'data:image/png;base64,AAAA', rdns: 'io.rabby' }

describe('EIP-6963 announcements', () => {
  it('reads a wallet from its announcement: name, icon, rdns and its own provider', () => {
    expect(readAnnouncement(detail(RABBY))).toEqual({ info: RABBY, provider })
  })

  it('refuses what is not a wallet: no provider, no request, a bad rdns or an empty name', () => {
    expect(readAnnouncement(null)).toBeNull()
    expect(readAnnouncement({ info: RABBY })).toBeNull()
    expect(readAnnouncement(detail(RABBY, { on: () => null }))).toBeNull()
    expect(readAnnouncement(detail({ ...RABBY, rdns: 'rabby' }))).toBeNull()
    expect(readAnnouncement(detail({ ...RABBY, rdns: 'io.rabby/../x' }))).toBeNull()
    expect(readAnnouncement(detail({ ...RABBY, name: '   ' }))).toBeNull()
  })

  it('shows an icon only as an image data URI, and shortens a very long name', () => {
    expect(readAnnouncement(detail({ ...RABBY, icon: 'javascript:alert(1)' }))!.info.icon).toBe('')
    expect(readAnnouncement(detail({ ...RABBY, icon: 'https://evil.example/i.png' }))!.info.icon).toBe('')
    expect(readAnnouncement(detail({ ...RABBY, icon: `data:image/png;base64,${'A'.repeat(70_000)}` }))!.info.icon).toBe('')
    const long = readAnnouncement(detail({ ...RABBY, name: 'W'.repeat(100) }))!.info.name
    expect(long).toHaveLength(40)
    expect(long.endsWith('…')).toBe(true)
  })

  it('knows an rdns when it sees one', () => {
    expect(['io.metamask', 'com.coinbase.wallet', 'app.phantom'].every(isRdns)).toBe(true)
    expect(['metamask', '', 'io..metamask', '.io', 'io.metamask.', 'a b.c', 42].some(isRdns)).toBe(false)
  })

  it('asks the wallets to announce and hears each one, until unsubscribed', () => {
    const target = new EventTarget()
    // A wallet in the page: it answers every request with its announcement, as extensions do.
    target.addEventListener('eip6963:requestProvider', () =>
      target.dispatchEvent(Object.assign(new Event('eip6963:announceProvider'), { detail: detail(RABBY) })),
    )
    const heard: string[] = []
    const stop = listenForWallets(target, (w) => heard.push(w.info.rdns))
    expect(heard).toEqual(['io.rabby'])
    target.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(heard).toEqual(['io.rabby', 'io.rabby'])
    stop()
    target.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(heard).toHaveLength(2)
  })
})
