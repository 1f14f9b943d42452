import { subtask } from 'hardhat/config'
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from 'hardhat/builtin-tasks/task-names'
import type { HardhatUserConfig } from 'hardhat/types'
import '@nomicfoundation/hardhat-ethers'
import '@nomicfoundation/hardhat-chai-matchers'
import '@typechain/hardhat'
import 'solidity-coverage'
import path from 'node:path'
import './scripts/lib/packageResolveMemo'

/**
 * The only compiler this project uses: solc-js from npm. These machines cannot download compilers, so the
 * subtask that would fetch one is replaced by one that hands Hardhat the bundled soljson.js, and refuses any
 * other version with a message that says what to do instead of a network time-out.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SOLC_VERSION: string = require('solc/package.json').version

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }: { solcVersion: string }) => {
  if (solcVersion !== SOLC_VERSION) {
    throw new Error(
      `Solidity ${solcVersion} was requested, but only the npm solc package (${SOLC_VERSION}) is available offline. ` +
        `Use "pragma solidity ${SOLC_VERSION};" (or a range that includes it) and keep hardhat.config.ts on ${SOLC_VERSION}.`,
    )
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc')
  return {
    version: SOLC_VERSION,
    longVersion: solc.version() as string,
    compilerPath: path.join(path.dirname(require.resolve('solc/package.json')), 'soljson.js'),
    isSolcJs: true,
  }
})

const accounts = process.env.DEPLOYER_KEY ? [process.env.DEPLOYER_KEY] : []

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
    },
  },
  networks: {
    // The local stack starts the node in the past so the demo's time travel ends at the wall clock.
    hardhat: { chainId: 31337, ...(process.env.HARDHAT_INITIAL_DATE ? { initialDate: process.env.HARDHAT_INITIAL_DATE } : {}) },
    localhost: { url: process.env.RPC_URL_LOCAL ?? 'http://127.0.0.1:8545', chainId: 31337 },
    rinkeby: { url: process.env.RPC_URL_4 ?? '', chainId: 4, accounts },
    bscTestnet: { url: process.env.RPC_URL_97 ?? 'https://data-seed-prebsc-1-s1.binance.org:8545', chainId: 97, accounts },
    bsc: { url: process.env.RPC_URL_56 ?? 'https://bsc-dataseed.binance.org', chainId: 56, accounts },
  },
  typechain: { outDir: 'src/chain/types', target: 'ethers-v6' },
  // Dots keep a green `npm test` short (failures still print in full); MOCHA_REPORTER=spec lists every test.
  mocha: { timeout: 120_000, reporter: process.env.MOCHA_REPORTER ?? 'dot' },
  paths: { tests: 'test/contracts' },
}

export default config
