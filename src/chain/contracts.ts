import { Contract, Fragment, Interface, type ContractRunner, type JsonFragment } from 'ethers'
import LensArtifact from '../../artifacts/contracts/Lens.sol/Lens.json'
import TokenArtifact from '../../artifacts/contracts/PlatformToken.sol/PlatformToken.json'
import HarvestArtifact from '../../artifacts/contracts/RewardHarvest.sol/RewardHarvest.json'
import PoolsInfoArtifact from '../../artifacts/contracts/PoolsInfo.sol/PoolsInfo.json'
import PoolArtifact from '../../artifacts/contracts/StakingPoolBase.sol/StakingPoolBase.json'
import type { Lens, PlatformToken, PoolsInfo, RewardHarvest, StakingPoolBase } from './types'

/**
 * About this much of an ABI's JSON is parsed in one step: a few milliseconds on a phone. The Lens's ABI (18 KB, tuples
 * in tuples) parsed whole was one task of 10-14 ms on this machine unthrottled, over 50 ms on a 4x throttled CPU.
 */
const PARSE_STEP_CHARS = 4_000

/**
 * Typed contract handles: TypeChain's types over the ABIs from the Hardhat artifacts. The artifacts are read for
 * `.abi` only, which webpack keeps while dropping the bytecode (the TypeChain factories would ship ~10 KB gzip of
 * deploy code the app never uses). Sagas pass a read provider for views; writes need no runner, only the calldata
 * (`contracts.pool(address).interface.encodeFunctionData(...)`), which runTx simulates and sends (src/chain/tx.ts).
 */
export const bind = <T>(abi: readonly JsonFragment[]) => {
  // Parsed once, on first use: a Contract made from the JSON ABI parses it again each time, and sagas make one per read.
  // Fragments parsed ahead (parseSteps) are taken as they are: ethers' Fragment.from returns a fragment unchanged.
  const fragments: (Fragment | undefined)[] = []
  const fragment = (i: number) => (fragments[i] ??= Fragment.from(abi[i]))
  let iface: Interface | null = null
  const parsed = () => (iface ??= new Interface(abi.map((_, i) => fragment(i))))
  const handle = (address: string, runner: ContractRunner | null = null): T =>
    new Contract(address, parsed(), runner) as unknown as T
  /** The parse in steps of about PARSE_STEP_CHARS of JSON each, then the interface from the parsed fragments. */
  const parseSteps = (): (() => void)[] => {
    const steps: (() => void)[] = []
    for (let from = 0, i = 0, size = 0; i < abi.length; i++) {
      size += JSON.stringify(abi[i]).length
      if (size < PARSE_STEP_CHARS && i < abi.length - 1) continue
      const [start, end] = [from, i + 1]
      steps.push(() => {
        for (let j = start; j < end; j++) fragment(j)
      })
      ;[from, size] = [end, 0]
    }
    return [...steps, () => void parsed()]
  }
  return Object.assign(handle, { parseSteps })
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
 * Parses each ABI now, a few fragments a call: the chain sagas call them in tasks of their own before the first read,
 * which would otherwise pay for them inside the task that sends it.
 */
export const parseAbis = (): (() => void)[] => Object.values(contracts).flatMap((c) => c.parseSteps())
