import { Interface } from 'ethers'
import LensArtifact from '../../artifacts/contracts/Lens.sol/Lens.json'
import TokenArtifact from '../../artifacts/contracts/PlatformToken.sol/PlatformToken.json'
import HarvestArtifact from '../../artifacts/contracts/RewardHarvest.sol/RewardHarvest.json'
import PoolsInfoArtifact from '../../artifacts/contracts/PoolsInfo.sol/PoolsInfo.json'
import PoolArtifact from '../../artifacts/contracts/StakingPoolBase.sol/StakingPoolBase.json'
import { contracts, parseAbis } from './contracts'

const ABIS = {
  lens: LensArtifact.abi,
  token: TokenArtifact.abi,
  pool: PoolArtifact.abi,
  harvest: HarvestArtifact.abi,
  poolsInfo: PoolsInfoArtifact.abi,
}

describe('the contracts’ ABIs, parsed in steps', () => {
  it('give each contract the interface a whole parse gives, fragment for fragment', () => {
    const steps = parseAbis()
    for (const step of steps) step()
    for (const [name, abi] of Object.entries(ABIS)) {
      const handle = contracts[name as keyof typeof contracts]('0x0000000000000000000000000000000000000001')
      const iface = (handle as unknown as { interface: Interface }).interface
      expect([name, iface.format()]).toEqual([name, new Interface(abi).format()])
    }
  })

  it('split the Lens ABI into several steps, and end each contract with a step that builds its interface', () => {
    const lens = contracts.lens.parseSteps()
    // 18 KB of JSON: at least four parse steps, then the interface.
    expect(lens.length).toBeGreaterThanOrEqual(5)
    expect(parseAbis().length).toBe(Object.values(contracts).reduce((n, c) => n + c.parseSteps().length, 0))
    expect(parseAbis().length).toBeGreaterThan(2 * Object.keys(contracts).length)
  })
})
