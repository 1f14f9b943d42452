import type { ContractRunner } from 'ethers'
import { Lens__factory } from './types/factories/contracts/Lens__factory'
import { PlatformToken__factory } from './types/factories/contracts/PlatformToken__factory'
import { RewardHarvest__factory } from './types/factories/contracts/RewardHarvest__factory'
import { PoolsInfo__factory } from './types/factories/contracts/PoolsInfo__factory'
import { StakingPoolBase__factory } from './types/factories/contracts/StakingPoolBase__factory'

/**
 * Typed contract handles (TypeChain, ethers v6). The only place the app binds an address to an ABI; sagas pass a
 * read provider for views and the wallet's signer for writes.
 */
export const contracts = {
  lens: (address: string, runner: ContractRunner) => Lens__factory.connect(address, runner),
  token: (address: string, runner: ContractRunner) => PlatformToken__factory.connect(address, runner),
  pool: (address: string, runner: ContractRunner) => StakingPoolBase__factory.connect(address, runner),
  harvest: (address: string, runner: ContractRunner) => RewardHarvest__factory.connect(address, runner),
  poolsInfo: (address: string, runner: ContractRunner) => PoolsInfo__factory.connect(address, runner),
}
