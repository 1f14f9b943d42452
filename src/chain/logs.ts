import type { Filter, Log, Provider } from 'ethers'

/** Blocks per eth_getLogs call: public RPCs refuse much wider ranges. */
export const LOGS_RANGE = 2_000

/** The logs matching `filter` from `fromBlock` to `toBlock`, read in ranges of LOGS_RANGE blocks, oldest first. */
export async function logsInRanges(
  provider: Provider,
  filter: Omit<Filter, 'fromBlock' | 'toBlock'>,
  fromBlock: number,
  toBlock: number,
): Promise<Log[]> {
  const out: Log[] = []
  for (let from = fromBlock; from <= toBlock; from += LOGS_RANGE)
    out.push(...(await provider.getLogs({ ...filter, fromBlock: from, toBlock: Math.min(toBlock, from + LOGS_RANGE - 1) })))
  return out
}
