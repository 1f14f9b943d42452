/**
 * Deploys and wires the whole system on the selected network and writes deployments/<chainId>.json.
 * On the local chain (31337) it also seeds a demo: balances for accounts #0-#4, a funded reservoir and harvest
 * contract, and a mix of stakes for account #0 made with time travel (active, matured, closed).
 *
 *   npx hardhat run scripts/deploy.ts --network localhost
 *   DEPLOYER_KEY=0x.. VESTING_SIGNER_ADDRESS=0x.. RPC_URL_97=https://.. npx hardhat run scripts/deploy.ts --network bscTestnet
 *
 * On every other chain (or with TIMELOCK=1) it ends by making an OpenZeppelin TimelockController the owner of pools,
 * registry, factory, harvest, reservoir and token: 48 h delay (TIMELOCK_DELAY_SECONDS), proposers TIMELOCK_PROPOSERS
 * (default the deployer), executors TIMELOCK_EXECUTORS (default anyone). See docs/operations.md.
 */
import hre from 'hardhat'
import { deploySystem } from './lib/system'
import type { DeploymentRecord } from '../src/domain/deploymentRecord'
import { writeDeployment, writeLocalAllocations } from './lib/deployment'
import { LOCAL_VESTING_SIGNER_INDEX } from '../src/domain/devAccounts'
import { seedLocalDemo } from './lib/seed'
import { handOverToTimelock, timelockOptionsFromEnv } from './lib/timelock'
import { ONE } from '../src/domain/math'

const LOCAL_CHAIN_ID = 31337n
const RESERVOIR_FUNDS = BigInt(process.env.RESERVOIR_FUNDS_TOKENS ?? '200000000') * ONE
const HARVEST_FUNDS = BigInt(process.env.HARVEST_FUNDS_TOKENS ?? '50000000') * ONE

async function main() {
  const { ethers } = hre
  const signers = await ethers.getSigners()
  if (signers.length === 0) throw new Error(`No deployer account for network "${hre.network.name}": set DEPLOYER_KEY.`)
  const deployer = signers[0]
  const { chainId } = await ethers.provider.getNetwork()
  const local = chainId === LOCAL_CHAIN_ID
  const vestingSigner = local ? signers[LOCAL_VESTING_SIGNER_INDEX].address : process.env.VESTING_SIGNER_ADDRESS
  if (!vestingSigner || !ethers.isAddress(vestingSigner)) throw new Error('Set VESTING_SIGNER_ADDRESS to the API signer address.')

  const startBlock = await ethers.provider.getBlockNumber()
  const sys = await deploySystem(deployer)
  const token = await sys.token.getAddress()
  const send = async (p: Promise<{ wait: () => Promise<unknown> }>) => (await p).wait()
  await send(sys.token.mint(await sys.reservoir.getAddress(), RESERVOIR_FUNDS))
  await send(sys.token.mint(await sys.harvest.getAddress(), HARVEST_FUNDS))
  // Each pool may draw its own backed half of the reservoir: a burst of stakes in one cannot use up the other's.
  for (const pool of [sys.poolV1, sys.poolV2])
    await send(sys.reservoir.approvePool(token, await pool.getAddress(), RESERVOIR_FUNDS / 2n))
  await send(sys.harvest.setTrustedSigner(token, vestingSigner, true))

  const record: DeploymentRecord = {
    chainId: Number(chainId),
    network: hre.network.name,
    startBlock: startBlock + 1,
    deployedAt: (await ethers.provider.getBlock('latest'))!.timestamp,
    deployer: deployer.address,
    contracts: {
      token,
      reservoir: await sys.reservoir.getAddress(),
      poolsInfo: await sys.poolsInfo.getAddress(),
      factory: await sys.factory.getAddress(),
      harvest: await sys.harvest.getAddress(),
      lens: await sys.lens.getAddress(),
      implV1: await sys.implV1.getAddress(),
      implV2: await sys.implV2.getAddress(),
    },
    pools: [
      { id: 0, address: await sys.poolV2.getAddress(), version: 2 },
      { id: 1, address: await sys.poolV1.getAddress(), version: 1 },
    ],
    defaultPoolId: 1,
    vestingSigner,
  }
  if (local) {
    await seedLocalDemo(sys, signers.slice(0, 5))
    const file = writeLocalAllocations(
      record,
      signers.slice(0, 5).map((s) => s.address),
    )
    console.log(`Vesting allocations for accounts #0-#4: ${file}`)
  }
  if (!local || process.env.TIMELOCK === '1') {
    const timelock = await handOverToTimelock(sys, deployer, timelockOptionsFromEnv())
    record.timelock = await timelock.getAddress()
    console.log(`Owner of pools, registry, factory, harvest, reservoir and token: timelock ${record.timelock}`)
  }
  const file = writeDeployment(record)
  console.log(`Deployed to ${hre.network.name} (chain ${chainId}); record: ${file}`)
  console.log(`  token ${token}  lens ${record.contracts.lens}  harvest ${record.contracts.harvest}`)
  console.log(`  pool 0 (v2) ${record.pools[0].address}  pool 1 (v1) ${record.pools[1].address}`)
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
})
