import fs from 'node:fs'
import path from 'node:path'
import type { DeploymentRecord } from '../src/domain/deploymentRecord'

/** The deployment record the service serves; a missing one is a configuration error, said plainly. */
export function readDeploymentFrom(dir: string, chainId: number): DeploymentRecord {
  const file = path.join(dir, `${chainId}.json`)
  if (!fs.existsSync(file)) throw new Error(`No deployment record ${file}: deploy first (npm start does it locally).`)
  return JSON.parse(fs.readFileSync(file, 'utf8')) as DeploymentRecord
}
