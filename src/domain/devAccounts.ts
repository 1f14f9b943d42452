/**
 * Hardhat's well-known development accounts (mnemonic "test test ... junk"). Public knowledge: usable only on the
 * local chain 31337, which is why the API refuses them elsewhere.
 */
export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk'

/** Account #9 signs vesting claims on the local chain; accounts #0-#4 are the demo holders. */
export const LOCAL_VESTING_SIGNER_INDEX = 9

/** Private key of Hardhat account `index` (derived from the public mnemonic). */
export function devAccountKey(index: number): string {
  // Required lazily so that importing the constants above stays free of ethers.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { HDNodeWallet, Mnemonic } = require('ethers') as typeof import('ethers')
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(HARDHAT_MNEMONIC), `m/44'/60'/0'/0/${index}`).privateKey
}
