import fs from 'node:fs'
import path from 'node:path'
import { getAddress } from 'ethers'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'

export type Abi = unknown[]

const ARTIFACT_OF: Record<keyof DeploymentRecord['contracts'], string> = {
  token: 'PlatformToken',
  reservoir: 'Reservoir',
  poolsInfo: 'PoolsInfo',
  factory: 'StakingPoolFactory',
  harvest: 'RewardHarvest',
  lens: 'Lens',
  implV1: 'ImplAndTermsV1',
  implV2: 'ImplAndTermsV2',
}

/** ABIs of every contract in the deployment record (pools get their implementation's), keyed by checksum address. */
export function loadAbis(record: DeploymentRecord, artifactsDir: string): Map<string, { name: string; abi: Abi }> {
  const read = (name: string): Abi =>
    (JSON.parse(fs.readFileSync(path.join(artifactsDir, 'contracts', `${name}.sol`, `${name}.json`), 'utf8')) as { abi: Abi }).abi
  const out = new Map<string, { name: string; abi: Abi }>()
  for (const [key, name] of Object.entries(ARTIFACT_OF) as [keyof DeploymentRecord['contracts'], string][]) {
    out.set(getAddress(record.contracts[key]), { name, abi: read(name) })
  }
  for (const pool of record.pools) {
    const name = pool.version === 1 ? 'ImplAndTermsV1' : 'ImplAndTermsV2'
    out.set(getAddress(pool.address), { name, abi: read(name) })
  }
  return out
}
