import fs from 'node:fs'
import path from 'node:path'

/** deployments/<chainId>.json: what the API and the app read to find the contracts. */
export interface DeploymentRecord {
  chainId: number
  network: string
  startBlock: number
  deployedAt: number
  deployer: string
  contracts: {
    token: string
    reservoir: string
    poolsInfo: string
    factory: string
    harvest: string
    lens: string
    implV1: string
    implV2: string
  }
  pools: { id: number; address: string; version: number }[]
  defaultPoolId: number
  vestingSigner: string
}

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

export function readDeployment(chainId: number | bigint): DeploymentRecord | null {
  const file = deploymentPath(chainId)
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DeploymentRecord) : null
}
