/**
 * The vesting rounds (docs/product.md §2.7, §9): the share unlocked at TGE and one month later, in whole percent. One table
 * for the API service, which computes the schedule, and the claim page, which shows it.
 */
export type Round = 'Public' | 'Private' | 'Seed'

export const ROUNDS: Record<Round, { tgePercent: bigint; month1Percent: bigint }> = {
  Public: { tgePercent: 30n, month1Percent: 30n },
  Private: { tgePercent: 15n, month1Percent: 20n },
  Seed: { tgePercent: 10n, month1Percent: 20n },
}

export const ROUND_NAMES = Object.keys(ROUNDS) as Round[]
