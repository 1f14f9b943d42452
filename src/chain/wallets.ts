import type { MetaMask } from '@web3-react/metamask'
import type { Connector, Provider, Web3ReactStore } from '@web3-react/types'
import type { JsonRpcSigner } from 'ethers'
import type { BrowserEnv } from '../platform/browserEnv'
import type { DevAccountConnector } from './devWallet'
import { supportedNetworks, type NetworkConfig } from '../config/networks'
import { isRdns } from '../platform/rdns'
import { log } from '../platform/log'
import type { AnnouncedWallet } from '../platform/walletDiscovery'
import type { SafeAccount, SafeChannel } from './safe'
import type { SafeApp } from './safeApp'

/** The spec's options of the Choose Wallet dialog (docs/product.md §2.2), and the Safe the app runs inside (§11.4). */
export type BuiltinWalletName = 'browser' | 'mobile' | 'walletconnect' | 'dev' | 'safe'
export const BUILTIN_WALLETS: BuiltinWalletName[] = ['browser', 'mobile', 'walletconnect', 'dev', 'safe']
/** A spec option, or the rdns of a wallet that announced itself (EIP-6963), e.g. "io.metamask". */
export type WalletName = BuiltinWalletName | (string & {})

/** What the dialog shows for an option; plain JSON for the store. */
export interface WalletOption {
  name: WalletName
  label: string
  description: string
  /** An announced wallet's own icon (an image data URI); null for the spec's options, which have their logos. */
  icon: string | null
  /** Why the option cannot be used here, or null. */
  unavailable: string | null
  /** On a phone without a wallet: open this page in the MetaMask app instead. */
  deepLink: string | null
}

/** Finds Safe{Wallet} around the app (src/chain/safeApp.ts); tests hand in their own stand-in. */
export type SafeAppFinder = (allowedOrigins: string[], waitMs: number) => Promise<SafeApp | null>

export interface LoadedWallet {
  name: WalletName
  connector: Connector
  store: Web3ReactStore
}

export const isBuiltinWallet = (s: unknown): s is BuiltinWalletName => BUILTIN_WALLETS.includes(s as BuiltinWalletName)
export const isWalletName = (s: unknown): s is WalletName => isBuiltinWallet(s) || isRdns(s)

/** MetaMask's universal link that opens a dapp inside its mobile browser. */
export function metaMaskDeepLink(href: string): string {
  return `https://metamask.app.link/dapp/${href.replace(/^https?:\/\//, '')}`
}

/**
 * The connectors' code, a lazy chunk ("wallet", in the one file the documents' loader fetches beside the entry,
 * webpack.config.ts): a first visit shows the Connect Wallet prompt without it, and a returning wallet loads it at
 * startup (startWallet).
 */
const loadConnectors = () =>
  Promise.all([
    import(/* webpackChunkName: "wallet" */ '@web3-react/core'),
    import(/* webpackChunkName: "wallet" */ '@web3-react/metamask'),
    import(/* webpackChunkName: "wallet" */ './devWallet'),
    import(/* webpackChunkName: "wallet" */ './announcedConnector'),
  ]).then(([core, metaMask, dev, announced]) => ({
    initializeConnector: core.initializeConnector,
    MetaMask: metaMask.MetaMask,
    DevAccountConnector: dev.DevAccountConnector,
    AnnouncedConnector: announced.AnnouncedConnector,
  }))

/**
 * The wallets the app can connect: web3-react connectors made on first use (their code is the "wallet" chunk;
 * WalletConnect's, about 140 KB gzip, a lazy chunk of its own loaded only when chosen). One wallet is active at a time.
 */
export class Wallets {
  private loaded = new Map<WalletName, Promise<LoadedWallet>>()
  private activeName: WalletName | null = null
  private current: LoadedWallet | null = null
  /** Wallets that announced themselves (EIP-6963), by rdns; a wallet that announces again replaces its entry. */
  private announced = new Map<string, AnnouncedWallet>()
  /** Safe{Wallet}, when the app runs inside it as a Safe App. */
  private safeApp: SafeApp | null = null

  constructor(
    private readonly env: BrowserEnv,
    private readonly networks: Record<number, NetworkConfig>,
    private readonly opts: {
      walletConnectProjectId: string
      localRpcUrl: string
      defaultChainId: number
      /** The Safe{Wallet} origins allowed to host the app (SAFE_APP_ORIGINS). */
      safeAppOrigins: string[]
      findSafeApp?: SafeAppFinder
    },
  ) {}

  /**
   * In a frame, asks whether the parent is Safe{Wallet} (the "safe" chunk, loaded only then); the Safe it opened the
   * app for, or null. A Safe App connects by being opened, so startWallet connects it at once.
   */
  async findSafeApp(waitMs: number): Promise<SafeAccount | null> {
    if (!this.env.framed) return null
    const find = this.opts.findSafeApp ?? (await import(/* webpackChunkName: "safe" */ './safeApp')).connectSafeApp
    this.safeApp = await find(this.opts.safeAppOrigins, waitMs)
    return this.safeApp?.channel.account ?? null
  }

  /** Safe{Wallet}'s channel while the app acts through it: sends become Safe transactions proposed there. */
  safeChannel(): SafeChannel | null {
    return this.activeName === 'safe' ? (this.safeApp?.channel ?? null) : null
  }

  /**
   * Starts listening for announced wallets (EIP-6963) and asks them to announce, once the discovery's code (the
   * "wallet" chunk, about 1 KB of it) has loaded; `onChange` runs after each new or changed one. Returns the
   * unsubscribe.
   */
  discover(onChange: () => void): () => void {
    let stop: (() => void) | null = null
    let stopped = false
    void import(/* webpackChunkName: "wallet" */ '../platform/walletDiscovery').then(
      ({ listenForWallets }) => {
        if (stopped) return
        stop = listenForWallets(this.env.walletEvents, (wallet) => {
          const had = this.announced.get(wallet.info.rdns)
          this.announced.set(wallet.info.rdns, wallet)
          // The same wallet answering each request again changes nothing; a new provider object is used from now on.
          if (had?.provider !== wallet.provider || had.info.name !== wallet.info.name || had.info.icon !== wallet.info.icon) {
            if (had?.provider !== wallet.provider) this.loaded.delete(wallet.info.rdns)
            onChange()
          }
        })
      },
      (err: unknown) => log.warn('wallet', 'wallet discovery did not load', err),
    )
    return () => {
      stopped = true
      stop?.()
    }
  }

  options(): WalletOption[] {
    const injected = !!this.env.injected
    const noInjected = this.env.isPhone
      ? 'No wallet in this browser: open the page in the MetaMask app.'
      : 'No browser wallet found: install a wallet extension such as MetaMask.'
    const list: WalletOption[] = [
      {
        name: 'browser',
        label: 'Browser wallet',
        description: 'A wallet extension in this browser, such as MetaMask',
        icon: null,
        unavailable: injected ? null : noInjected,
        deepLink: !injected && this.env.isPhone ? metaMaskDeepLink(this.env.href()) : null,
      },
      {
        name: 'mobile',
        label: 'Mobile wallet',
        description: "Your wallet app's built-in browser",
        icon: null,
        unavailable: injected ? null : 'Open this page in the browser of your wallet app.',
        deepLink: !injected && this.env.isPhone ? metaMaskDeepLink(this.env.href()) : null,
      },
      {
        name: 'walletconnect',
        label: 'WalletConnect',
        description: 'Scan a QR code with any WalletConnect wallet',
        icon: null,
        unavailable: this.opts.walletConnectProjectId ? null : 'WalletConnect is not configured for this site (no project id).',
        deepLink: null,
      },
    ]
    if (this.networks[31337]?.contracts) {
      list.push({
        name: 'dev',
        label: 'Development account',
        description: 'Hardhat account #0 on the local chain; no extension needed',
        icon: null,
        unavailable: null,
        deepLink: null,
      })
    }
    // Each announced wallet by its own name and icon, first: the person sees the wallets they installed.
    const announced: WalletOption[] = [...this.announced.values()].map(({ info }) => ({
      name: info.rdns,
      label: info.name,
      description: `Installed in this browser (${info.rdns})`,
      icon: info.icon || null,
      unavailable: null,
      deepLink: null,
    }))
    // Inside Safe{Wallet}, the Safe it opened the app for comes first: it is the account the app acts for.
    const safeAddress = this.safeApp?.channel.account.address ?? ''
    const safe: WalletOption[] = this.safeApp
      ? [
          {
            name: 'safe',
            label: 'Safe{Wallet}',
            description: `The Safe this app is open in (${safeAddress.slice(0, 6)}…${safeAddress.slice(-4)})`,
            icon: null,
            unavailable: null,
            deepLink: null,
          },
        ]
      : []
    return [...safe, ...announced, ...list]
  }

  /** Whether the wallet with this rdns has announced itself (EIP-6963). */
  isAnnounced(rdns: string): boolean {
    return this.announced.has(rdns)
  }

  /** Creates (once) the connector for `name`; the browser and mobile options share the injected one. */
  load(name: WalletName): Promise<LoadedWallet> {
    const key: WalletName = name === 'mobile' ? 'browser' : name
    let p = this.loaded.get(key)
    if (!p) {
      p = this.create(key)
      this.loaded.set(key, p)
      p.catch(() => this.loaded.delete(key))
    }
    return p.then((w) => ({ ...w, name }))
  }

  private async create(name: WalletName): Promise<LoadedWallet> {
    const { initializeConnector, MetaMask, DevAccountConnector, AnnouncedConnector } = await loadConnectors()
    if (!isBuiltinWallet(name)) {
      const announced = this.announced.get(name)
      if (!announced) throw new Error(`The wallet ${name} is not installed in this browser (it did not announce itself).`)
      const [connector, , store] = initializeConnector<InstanceType<typeof AnnouncedConnector>>(
        (actions) => new AnnouncedConnector({ actions, provider: announced.provider }),
      )
      return { name, connector, store }
    }
    if (name === 'safe') {
      const safeApp = this.safeApp
      if (!safeApp) throw new Error('This page is not open in Safe{Wallet}.')
      const { SafeAppConnector } = await import(/* webpackChunkName: "safe" */ './safeApp')
      const [connector, , store] = initializeConnector<InstanceType<typeof SafeAppConnector>>(
        (actions) => new SafeAppConnector({ actions, provider: safeApp.provider }),
      )
      return { name, connector, store }
    }
    if (name === 'dev') {
      const [connector, , store] = initializeConnector<DevAccountConnector>(
        (actions) => new DevAccountConnector(actions, this.opts.localRpcUrl),
      )
      return { name, connector, store }
    }
    if (name === 'walletconnect') {
      if (!this.opts.walletConnectProjectId) throw new Error('WalletConnect is not configured for this site.')
      const { WalletConnect } = await import(/* webpackChunkName: "walletconnect" */ '@web3-react/walletconnect-v2')
      const chains = supportedNetworks(this.networks).filter((n) => n.chainId !== 31337)
      const rpcMap = Object.fromEntries(chains.map((n) => [n.chainId, n.rpcUrls[0]]))
      const [connector, , store] = initializeConnector<InstanceType<typeof WalletConnect>>(
        (actions) =>
          new WalletConnect({
            actions,
            options: {
              projectId: this.opts.walletConnectProjectId,
              chains: [chains[0]?.chainId ?? 56],
              optionalChains: chains.map((n) => n.chainId),
              rpcMap,
              showQrModal: true,
            },
          }),
      )
      return { name, connector, store }
    }
    const [connector, , store] = initializeConnector<MetaMask>(
      (actions) => new MetaMask({ actions, options: { mustBeMetaMask: false, silent: true, timeout: 1000 } }),
    )
    return { name, connector, store }
  }

  /** Marks `wallet` as the one the app acts through. */
  use(wallet: LoadedWallet) {
    this.current = wallet
    this.activeName = wallet.name
  }

  get active(): WalletName | null {
    return this.activeName
  }

  /** The active wallet's EIP-1193 provider, for wallet requests (switch or add chain, watch asset). */
  provider(): Provider | null {
    return this.current?.connector.provider ?? null
  }

  /** A signer for the active wallet's account (ethers v6 over the EIP-1193 provider). */
  async signer(): Promise<JsonRpcSigner> {
    const provider = this.provider()
    if (!provider) throw new Error('No wallet is connected.')
    // Only sends need it (the "chain" chunk, loaded by then): ethers' provider stays out of the first view.
    const { BrowserProvider } = await import(/* webpackChunkName: "chain", webpackExports: ["BrowserProvider"] */ 'ethers')
    // cacheTimeout -1: an automining node answers back-to-back sends before a cached nonce would expire.
    return new BrowserProvider(provider, undefined, { cacheTimeout: -1 }).getSigner()
  }

  async disconnect(): Promise<void> {
    const c = this.current?.connector
    if (c) await (c.deactivate ? c.deactivate() : c.resetState())
    this.current = null
    this.activeName = null
  }
}
