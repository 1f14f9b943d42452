/**
 * An owner call a TimelockController holds for a contract: public for the timelock's delay before anyone may run it
 * (docs/contracts.md, "Owner powers"). Plain JSON, so it can sit in the store.
 */
export interface ScheduledCall {
  /** The timelock operation's id (bytes32 hex). */
  id: string
  /** Unix seconds (chain time) from which anyone may execute it. */
  readyAt: number
  /** The function called on the target (e.g. 'setParameters'), or null when the target's ABI does not know it. */
  fn: string | null
  /** Its arguments by name: amounts and fractions as base-unit decimal strings, structs as objects, lists as arrays. */
  args: Record<string, unknown>
}
