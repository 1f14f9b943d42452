import Module from 'node:module'

/**
 * Remembers, for the life of the process, where each bare package name required from a given file resolved to (or
 * that it did not resolve). Hardhat's chai matchers `require('ethers')`, `require('bn.js')` and
 * `require('bignumber.js')` inside every `expect(...).to.equal` (hardhat/common/bigInt.js, hardhat-chai-matchers'
 * addressable.js and typed.js). Node caches neither a resolution through a package's "exports" nor a failed one, so
 * each assertion walked node_modules again with stat calls: 37% of a property run's time (FUZZ_RUNS=15 PoolProperties:
 * 27 s, 17 s with this). Loaded by hardhat.config.ts, so every Hardhat process (tests, node, scripts) has it. Paths
 * (`./x`, `/x`, `node:x`) and calls with their own search paths go straight through; node_modules does not change
 * while a test run lives.
 */
type Resolve = (request: string, parent: { path?: string } | undefined, isMain: boolean, options?: unknown) => string

const loader = Module as unknown as { _resolveFilename: Resolve }
const resolve = loader._resolveFilename
const known = new Map<string, { file: string } | { error: unknown }>()

loader._resolveFilename = function (request, parent, isMain, options) {
  if (options !== undefined || /^(\.|\/|node:)/.test(request)) return resolve.call(this, request, parent, isMain, options)
  const key = `${parent?.path ?? ''}\0${request}`
  let entry = known.get(key)
  if (!entry) {
    try {
      entry = { file: resolve.call(this, request, parent, isMain, options) }
    } catch (error) {
      entry = { error }
    }
    known.set(key, entry)
  }
  if ('error' in entry) throw entry.error
  return entry.file
}
