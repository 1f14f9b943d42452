/**
 * Jest global setup for layers that need a real chain: a Hardhat node on a free port with the system deployed and
 * seeded (deploy script, records in a temp dir). Tests read CHAIN_URL / DEPLOYMENTS_DIR from the environment.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, runHardhatScript, startHardhatNode, type RunningNode } from '../../scripts/lib/node'

declare global {
  // Every Jest project that needs a chain gets its own node; teardown stops them all.
  var __CHAIN_NODES__: RunningNode[] | undefined
}

export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-deployments-'))
  const node = await startHardhatNode(await freePort())
  await runHardhatScript('scripts/deploy.ts', node.url, { DEPLOYMENTS_DIR: dir }, { quiet: true })
  globalThis.__CHAIN_NODES__ = [...(globalThis.__CHAIN_NODES__ ?? []), node]
  process.env.CHAIN_URL = node.url
  process.env.TEST_DEPLOYMENTS_DIR = dir
}
