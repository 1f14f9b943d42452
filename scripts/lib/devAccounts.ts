/**
 * Hardhat's well-known development accounts (mnemonic "test test ... junk"). Public knowledge: usable only on the
 * local chain 31337, which is why the API refuses them elsewhere.
 */
export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk'

/** Account #9 signs vesting claims on the local chain; accounts #0-#4 are the demo holders. */
export const LOCAL_VESTING_SIGNER_INDEX = 9
