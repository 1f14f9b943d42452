/** deployments/<chainId>.json, written by scripts/deploy.ts: what the app and the API read to find the contracts. */
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
  /** The TimelockController that owns everything (real networks). */
  timelock?: string
}
