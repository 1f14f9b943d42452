/** The two routes both navigations link to; staking is active whenever the path contains 'staking' (docs/product.md §2.1). */
export const NAV_LINKS = [
  { to: '/', label: 'Claim', isActive: (path: string) => !path.includes('staking') },
  { to: '/staking', label: 'Staking', isActive: (path: string) => path.includes('staking') },
]

/**
 * The query both navigations carry from page to page: an `?account=` view stays on the other page (docs/product.md
 * §2.8); nothing else does (`ref` is kept in its cookie once read).
 */
export function keptSearch(search: string): string {
  const account = new URLSearchParams(search).get('account')
  return account === null ? '' : `?${new URLSearchParams({ account })}`
}
