import { useLocation } from 'react-router-dom'

/**
 * The link out of an `?account=` view: the same page and its other query parameters (`ref` among them), without
 * `account`, so the pages show the connected wallet's own figures again.
 */
export function useOwnViewLink(): { pathname: string; search: string } {
  const { pathname, search } = useLocation()
  const params = new URLSearchParams(search)
  params.delete('account')
  const rest = params.toString()
  return { pathname, search: rest ? `?${rest}` : '' }
}
