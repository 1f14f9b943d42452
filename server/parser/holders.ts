import { getAddress, id, type JsonRpcProvider, type Log } from 'ethers'

const TRANSFER = id('Transfer(address,address,uint256)')
const ZERO = '0x0000000000000000000000000000000000000000'

/**
 * Counts holders of a pool's shares from its Transfer logs. Indexing is incremental: each call scans only the blocks
 * after the last one indexed (in chunks), and calls that overlap share one scan.
 */
export class HolderIndex {
  private readonly balances = new Map<string, bigint>()
  private holders = 0
  private indexedTo: number
  private running: Promise<void> | null = null

  constructor(
    private readonly provider: JsonRpcProvider,
    readonly pool: string,
    fromBlock: number,
    private readonly chunk = 5_000,
  ) {
    this.indexedTo = fromBlock - 1
  }

  /** Holder count as of block `to` or later. */
  async count(to: number): Promise<number> {
    while (this.indexedTo < to) {
      if (!this.running) this.running = this.indexUpTo(to).finally(() => (this.running = null))
      await this.running
    }
    return this.holders
  }

  get lastIndexedBlock(): number {
    return this.indexedTo
  }

  private async indexUpTo(to: number): Promise<void> {
    while (this.indexedTo < to) {
      const from = this.indexedTo + 1
      const end = Math.min(to, from + this.chunk - 1)
      const logs = await this.provider.getLogs({ address: this.pool, topics: [TRANSFER], fromBlock: from, toBlock: end })
      for (const log of logs) this.apply(log)
      this.indexedTo = end
    }
  }

  private apply(log: Log) {
    const from = getAddress('0x' + log.topics[1].slice(26))
    const to = getAddress('0x' + log.topics[2].slice(26))
    const value = BigInt(log.data)
    if (from !== ZERO) this.move(from, -value)
    if (to !== ZERO) this.move(to, value)
  }

  private move(account: string, delta: bigint) {
    const before = this.balances.get(account) ?? 0n
    const after = before + delta
    if (before === 0n && after !== 0n) this.holders++
    if (before !== 0n && after === 0n) this.holders--
    if (after === 0n) this.balances.delete(account)
    else this.balances.set(account, after)
  }
}
