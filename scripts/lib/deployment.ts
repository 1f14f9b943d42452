import fs from 'node:fs'
import path from 'node:path'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'

/** DEPLOYMENTS_DIR lets tests write their record elsewhere than the developer's running stack. */
export const DEPLOYMENTS_DIR = process.env.DEPLOYMENTS_DIR ?? path.join(__dirname, '..', '..', 'deployments')

export function deploymentPath(chainId: number | bigint): string {
  return path.join(DEPLOYMENTS_DIR, `${chainId}.json`)
}

export function writeDeployment(record: DeploymentRecord): string {
  fs.mkdirSync(DEPLOYMENTS_DIR, { recursive: true })
  const file = deploymentPath(record.chainId)
  fs.writeFileSync(file, JSON.stringify(record, null, 2) + '\n')
  return file
}

const TOKEN = 10n ** 18n
/** Local demo rounds for accounts #0-#4, in whole tokens. */
const LOCAL_ALLOCATIONS: { round: 'Public' | 'Private' | 'Seed'; tokens: bigint }[] = [
  { round: 'Public', tokens: 120_000n },
  { round: 'Private', tokens: 250_000n },
  { round: 'Seed', tokens: 400_000n },
  { round: 'Public', tokens: 50_000n },
  { round: 'Seed', tokens: 80_000n },
]

/**
 * deployments/allocations.31337.json for the API: TGE at the deploy time, 10 monthly steps of 30 days after
 * month 1, and one allocation per demo account (amounts in base units).
 */
export function writeLocalAllocations(record: DeploymentRecord, accounts: string[]): string {
  fs.mkdirSync(DEPLOYMENTS_DIR, { recursive: true })
  const file = path.join(DEPLOYMENTS_DIR, `allocations.${record.chainId}.json`)
  const allocations = Object.fromEntries(
    accounts.map((a, i) => [a, { round: LOCAL_ALLOCATIONS[i].round, amount: (LOCAL_ALLOCATIONS[i].tokens * TOKEN).toString() }]),
  )
  fs.writeFileSync(
    file,
    JSON.stringify({ tge: record.deployedAt, months: 10, monthSeconds: 30 * 86_400, allocations }, null, 2) + '\n',
  )
  return file
}
