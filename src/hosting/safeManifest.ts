/**
 * What Safe{Wallet} reads before it opens the app as a Safe App (docs/operations.md): manifest.json at the site's root
 * with the app's name, description and icon. Safe{Wallet} fetches both from its own origin, so they are served with
 * `Access-Control-Allow-Origin: *` (headers.ts).
 */
export const SAFE_MANIFEST_FILE = 'manifest.json'
/** The favicon, under a name of its own: the icon Safe{Wallet} shows in its app list. */
export const SAFE_ICON_FILE = 'safe-app-icon.svg'

export function safeAppManifest(): string {
  return `${JSON.stringify(
    {
      name: 'Claim and stake',
      description: 'Claim your vested tokens and stake them in pools, from your Safe.',
      iconPath: SAFE_ICON_FILE,
    },
    null,
    2,
  )}\n`
}
