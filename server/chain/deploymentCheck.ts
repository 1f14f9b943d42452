import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import type { BlockCache, Head } from './blockCache'
import type { ChainClient } from './client'
import { ServiceUnavailableError } from './errors'

/**
 * Whether the chain holds the deployment the service serves: code at every contract and pool of the record. A node
 * that answers but lacks them (a fresh or restarted node, another chain on the same port) makes /health a 503
 * `deployment_missing` instead of "ok". Contracts once found stay until the cache sees a reorg or a new genesis
 * (its epoch), so a healthy service reads their code once; while any is missing, each new block is checked again.
 */
export class DeploymentCheck {
  private readonly contracts: [string, string][]
  private found: { epoch: number } | null = null
  private pending: { hash: string; missing: Promise<string[]> } | null = null

  constructor(
    private readonly chain: ChainClient,
    private readonly cache: BlockCache,
    record: DeploymentRecord,
  ) {
    this.contracts = [
      ...Object.entries(record.contracts),
      ...record.pools.map((p): [string, string] => [`pool ${p.id}`, p.address]),
    ]
  }

  /** Throws ServiceUnavailableError('deployment_missing') when any contract has no code at `head`. */
  async assertAt(head: Head): Promise<void> {
    const epoch = this.cache.epoch
    if (this.found?.epoch === epoch) return
    let pending = this.pending
    if (pending?.hash !== head.hash) {
      const read = this.missingAt(head)
      pending = this.pending = { hash: head.hash, missing: read }
      // A failed read is not an answer: the next request reads again.
      read.catch(() => {
        if (this.pending?.missing === read) this.pending = null
      })
    }
    const missing = await pending.missing
    if (missing.length === 0) {
      this.found = { epoch }
      return
    }
    const names = missing.length === this.contracts.length ? 'any of its contracts' : missing.join(', ')
    throw new ServiceUnavailableError(
      'deployment_missing',
      `The chain at block ${head.number} does not hold the deployment this service serves (no code at ${names}): ` +
        'the node was restarted or is another chain.',
    )
  }

  private async missingAt(head: Head): Promise<string[]> {
    const codes = await Promise.all(this.contracts.map(([, address]) => this.chain.codeAt(head, address)))
    return this.contracts.filter((_, i) => codes[i] === '0x').map(([name]) => name)
  }
}
