import { Contract, Interface, type ContractRunner, type InterfaceAbi } from 'ethers'
import LensArtifact from '../../artifacts/contracts/Lens.sol/Lens.json'
import TokenArtifact from '../../artifacts/contracts/PlatformToken.sol/PlatformToken.json'
import HarvestArtifact from '../../artifacts/contracts/RewardHarvest.sol/RewardHarvest.json'
import PoolsInfoArtifact from '../../artifacts/contracts/PoolsInfo.sol/PoolsInfo.json'
import PoolArtifact from '../../artifacts/contracts/StakingPoolBase.sol/StakingPoolBase.json'
import type { Lens, PlatformToken, PoolsInfo, RewardHarvest, StakingPoolBase } from './types'

/**
 * Typed contract handles: TypeChain's types over the ABIs from the Hardhat artifacts. The artifacts are read for
 * `.abi` only, which webpack keeps while dropping the bytecode (the TypeChain factories would ship ~10 KB gzip of
 * deploy code the app never uses). Sagas pass a read provider for views; writes need no runner, only the calldata
 * (`contracts.pool(address).interface.encodeFunctionData(...)`), which runTx simulates and sends (src/chain/tx.ts).
 */
const bind = <T>(abi: InterfaceAbi) => {
  // Parsed once, on first use: a Contract made from the JSON ABI parses it again each time, and sagas make one per read.
  let iface: Interface | null = null
  const parsed = () => (iface ??= new Interface(abi))
  const handle = (address: string, runner: ContractRunner | null = null): T =>
    new Contract(address, parsed(), runner) as unknown as T
  return Object.assign(handle, { parse: (): void => void parsed() })
}

export const contracts = {
  lens: bind<Lens>(LensArtifact.abi),
  token: bind<PlatformToken>(TokenArtifact.abi),
  /** Both pool versions share StakingPoolBase's interface. */
  pool: bind<StakingPoolBase>(PoolArtifact.abi),
  harvest: bind<RewardHarvest>(HarvestArtifact.abi),
  poolsInfo: bind<PoolsInfo>(PoolsInfoArtifact.abi),
}

/**
 * Parses each ABI now, one a call (the Lens's alone is tens of ms on a phone): the chain sagas call them in tasks of
 * their own before the first read, which would otherwise pay for them inside the task that sends it.
 */
export const parseAbis = Object.values(contracts).map((c) => c.parse)
