/**
 * Every dialog of the app, by name: the one list the open dialog's state (`wallet.openModal`), the action that opens
 * one (`modalOpened`) and the component registry (`OpenModal.tsx`) are checked against. A name not listed here does
 * not type-check, and a 'modal' cookie holding one is ignored.
 *
 * `needsWallet`: asked for without a wallet address, the connect dialog opens instead and the name is remembered in the
 * 'modal' cookie, so the dialog opens once connected (docs/product.md §2.2).
 */
export const MODALS = {
  /** The header's Choose Wallet dialog (docs/product.md §2.2). */
  chooseWallet: { needsWallet: false },
  /** "Connect your wallet": what a dialog that needs a wallet opens without one. */
  connect: { needsWallet: false },
  /** Create deposit (docs/product.md §2.6). */
  deposit: { needsWallet: true },
  /** A stake's closing summary (docs/product.md §2.5). */
  stakeSummary: { needsWallet: true },
  /** "Close all matured": what closing every matured stake pays, then one transaction (docs/product.md §2.4). */
  closeAllMatured: { needsWallet: true },
  /** Restake: matured stakes closed and staked again as one new stake, in one transaction (docs/product.md §2.6a). */
  restake: { needsWallet: true },
  /** Claim and stake, first step: the warning (docs/product.md §2.7). */
  claimWarning: { needsWallet: false },
  /** Claim and stake, second step: the term chooser (docs/product.md §2.7). */
  claimTerms: { needsWallet: false },
} as const satisfies Record<string, { needsWallet: boolean }>

export type ModalName = keyof typeof MODALS

export const isModalName = (name: unknown): name is ModalName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(MODALS, name)

export const needsWallet = (name: ModalName): boolean => MODALS[name].needsWallet
