/**
 * Stands in for @noble/curves/secp256k1 where ethers imports it, in the web build only (webpack.config.ts, a
 * NormalModuleReplacementPlugin limited to ethers' own files; WalletConnect's chunk keeps the real curve). ethers
 * needs the curve to sign with a private key and to recover a signer from a signature (Wallet, SigningKey,
 * recoverAddress, verifyTypedData, Transaction.from): the web app does none of that. Wallets sign (eth_sendTransaction
 * through the connector), the API signs claims on the server, and the app reads signed figures as they come. Leaving
 * the curve out takes about 9 KB gzip off the first view. Anything that reaches for it fails with this message.
 */
export const secp256k1: unknown = new Proxy(
  {},
  {
    get(_target, property) {
      throw new Error(
        `secp256k1 (${String(property)}) is not in the web build: the app never signs or recovers keys itself ` +
          '(src/chain/shims/noble-secp256k1.ts)',
      )
    },
  },
)
