/** The two routes both navigations link to; staking is active whenever the path contains 'staking' (docs/product.md §2.1). */
export const NAV_LINKS = [
  { to: '/', label: 'Claim', isActive: (path: string) => !path.includes('staking') },
  { to: '/staking', label: 'Staking', isActive: (path: string) => path.includes('staking') },
]
