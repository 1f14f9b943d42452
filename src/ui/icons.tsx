import type { SVGProps } from 'react'

/** Wallet logos and network icons, drawn as inline SVG (no extra requests, crisp at any size). */
type IconProps = SVGProps<SVGSVGElement> & { size?: number }

const Svg = ({ size = 32, children, ...rest }: IconProps) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" {...rest}>
    {children}
  </svg>
)

export const HardwareWalletLogo = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="10" width="22" height="12" rx="3" fill="#2a3a31" stroke="#a9bdb2" strokeWidth="1.5" />
    <rect x="25" y="13" width="4" height="6" rx="1" fill="#a9bdb2" />
    <rect x="7" y="13.5" width="10" height="5" rx="1" fill="#3ddc84" />
    <circle cx="21" cy="16" r="2" fill="#a9bdb2" />
  </Svg>
)

export const BrowserWalletLogo = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2" y="5" width="28" height="22" rx="4" fill="#1b241f" stroke="#f6851b" strokeWidth="1.5" />
    <path d="M2 10h28" stroke="#f6851b" strokeWidth="1.5" />
    <circle cx="6" cy="7.5" r="1" fill="#f6851b" />
    <circle cx="9.5" cy="7.5" r="1" fill="#f6851b" />
    <path d="M10 14l4 2.5-1 4 3 1.5 3-1.5-1-4 4-2.5-3 7h-6z" fill="#f6851b" />
  </Svg>
)

export const MobileWalletLogo = (p: IconProps) => (
  <Svg {...p}>
    <rect x="8" y="2" width="16" height="28" rx="4" fill="#1b241f" stroke="#3ddc84" strokeWidth="1.5" />
    <rect x="12" y="12" width="8" height="7" rx="1.5" fill="#3ddc84" />
    <path d="M12 14h8" stroke="#06240f" strokeWidth="1" />
    <rect x="13" y="25" width="6" height="1.5" rx="0.75" fill="#a9bdb2" />
  </Svg>
)

export const ConnectionProtocolLogo = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="16" cy="16" r="15" fill="#3b99fc" />
    <path
      d="M9.5 13.2c3.6-3.5 9.4-3.5 13 0l.4.4a.5.5 0 0 1 0 .7l-1.5 1.4a.3.3 0 0 1-.4 0l-.6-.6a6.6 6.6 0 0 0-9 0l-.7.6a.3.3 0 0 1-.4 0l-1.5-1.4a.5.5 0 0 1 0-.7zm16.1 3 1.3 1.3a.5.5 0 0 1 0 .7l-6 5.8a.5.5 0 0 1-.7 0L16 19.9a.1.1 0 0 0-.2 0l-4.2 4.1a.5.5 0 0 1-.7 0l-6-5.8a.5.5 0 0 1 0-.7l1.3-1.3a.5.5 0 0 1 .7 0l4.2 4.1a.1.1 0 0 0 .2 0l4.2-4.1a.5.5 0 0 1 .7 0l4.2 4.1a.1.1 0 0 0 .2 0l4.2-4.1a.5.5 0 0 1 .7 0z"
      fill="#fff"
    />
  </Svg>
)

export const DevAccountLogo = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2" y="4" width="28" height="24" rx="4" fill="#1b241f" stroke="#ffd27a" strokeWidth="1.5" />
    <path d="M8 12l4 4-4 4M14 21h9" stroke="#ffd27a" strokeWidth="2" fill="none" strokeLinecap="round" />
  </Svg>
)

/** A multisig account (a vault with two keyholes): the Safe the app is open in. */
export const MultisigLogo = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="26" height="24" rx="4" fill="#1b241f" stroke="#12ff80" strokeWidth="1.5" />
    <circle cx="11.5" cy="16" r="3" fill="none" stroke="#12ff80" strokeWidth="1.5" />
    <circle cx="20.5" cy="16" r="3" fill="none" stroke="#12ff80" strokeWidth="1.5" />
    <path d="M11.5 19v4M20.5 19v4" stroke="#12ff80" strokeWidth="1.5" strokeLinecap="round" />
  </Svg>
)

/** The Ethereum-style green set (chain ids 1, 3, 4, 5, 47). */
export const EthereumIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M16 3l8 13-8 5-8-5z" fill="#3ddc84" />
    <path d="M16 22.5l8-5-8 11.5-8-11.5z" fill="#2aa864" />
  </Svg>
)

export const BscIcon = (p: IconProps) => (
  <Svg {...p}>
    <path
      d="M16 4l3.5 3.5L16 11l-3.5-3.5zM9 11l3.5 3.5L9 18l-3.5-3.5zm14 0l3.5 3.5L23 18l-3.5-3.5zM16 11.5l4 4-4 4-4-4zM16 21l3.5 3.5L16 28l-3.5-3.5z"
      fill="#f3ba2f"
    />
  </Svg>
)

export const LocalChainIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="16" cy="16" r="12" fill="none" stroke="#ffd27a" strokeWidth="2" />
    <circle cx="16" cy="16" r="4" fill="#ffd27a" />
  </Svg>
)

export const UnknownChainIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="16" cy="16" r="12" fill="none" stroke="#a9bdb2" strokeWidth="2" strokeDasharray="4 3" />
  </Svg>
)

/** Chain ids drawn with the Ethereum-style green icon set (docs/product.md §9). */
const ETHEREUM_STYLE = new Set([1, 3, 4, 5, 47])

export function ChainIcon({ chainId, ...p }: IconProps & { chainId: number | null }) {
  if (chainId !== null && ETHEREUM_STYLE.has(chainId)) return <EthereumIcon {...p} />
  if (chainId === 56 || chainId === 97) return <BscIcon {...p} />
  if (chainId === 31337) return <LocalChainIcon {...p} />
  return <UnknownChainIcon {...p} />
}
