import type { Provider } from '@web3-react/types'
import { isRdns } from './rdns'

/**
 * EIP-6963 (multi injected provider discovery): each wallet extension answers `eip6963:requestProvider` with an
 * `eip6963:announceProvider` event that carries its own name, icon, rdns and provider, so two extensions no longer
 * fight over window.ethereum. The events themselves are a dozen lines, in the "wallet" chunk: wallets answer every
 * request, so asking once the connectors' code has loaded finds them all.
 */
export interface AnnouncedInfo {
  uuid: string
  name: string
  /** A data URI (RFC 2397), shown only through <img>, never as markup. */
  icon: string
  /** Reverse DNS of the wallet, e.g. "io.metamask": the wallet's name in the walletName cookie. */
  rdns: string
}

export interface AnnouncedWallet {
  info: AnnouncedInfo
  provider: Provider
}

/** At most this many characters of an announced name are shown: a wallet's name is not a paragraph. */
const NAME_MAX = 40
/** An icon larger than this is dropped (the option keeps a plain logo): the store holds the options as JSON. */
const ICON_MAX = 64 * 1024

/**
 * The announcement `detail` as a wallet we can list, or null: an event is anyone's to dispatch, so each field is
 * checked (a provider with request and on, an rdns, a name, an image data URI or none).
 */
export function readAnnouncement(detail: unknown): AnnouncedWallet | null {
  const d = detail as { info?: Partial<AnnouncedInfo>; provider?: Partial<Provider> } | null
  const info = d?.info
  const provider = d?.provider
  if (!info || !provider || typeof provider.request !== 'function' || typeof provider.on !== 'function') return null
  if (!isRdns(info.rdns) || typeof info.name !== 'string' || info.name.trim() === '') return null
  const icon =
    typeof info.icon === 'string' && info.icon.length <= ICON_MAX && /^data:image\/[a-z0-9.+-]+[;,]/i.test(info.icon)
      ? info.icon
      : ''
  const name = info.name.trim()
  return {
    info: {
      uuid: typeof info.uuid === 'string' ? info.uuid : '',
      name: name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name,
      icon,
      rdns: info.rdns.toLowerCase(),
    },
    provider: provider as Provider,
  }
}

/** Listens for announcements on `target` (the window), asks the wallets to announce, and returns the unsubscribe. */
export function listenForWallets(target: EventTarget, onAnnounce: (wallet: AnnouncedWallet) => void): () => void {
  const handler = (event: Event) => {
    const wallet = readAnnouncement((event as CustomEvent).detail)
    if (wallet) onAnnounce(wallet)
  }
  target.addEventListener('eip6963:announceProvider', handler)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  return () => target.removeEventListener('eip6963:announceProvider', handler)
}
