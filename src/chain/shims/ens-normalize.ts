/**
 * Stands in for @adraffy/ens-normalize in the web build (webpack.config.ts, resolve.alias). ethers imports it to
 * normalise ENS names, about 11 KB gzip of Unicode tables in the first view; this app never resolves a name: every
 * address it uses is hex (deployment records, the wallet's accounts, the ref parameter checked with isAddress), and
 * ethers takes a hex address as it is, without this. Should a name ever reach ethers, it fails with this clear
 * message (ethers reports it as "invalid ENS name (ENS names are not supported ...)").
 */
export function ens_normalize(name: string): string {
  throw new Error(`ENS names are not supported (${JSON.stringify(name)})`)
}
