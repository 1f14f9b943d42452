import type { Signer } from 'ethers'
import {
  ImplAndTermsV1,
  ImplAndTermsV1__factory,
  PoolSettings__factory,
  PoolViews__factory,
  ImplAndTermsV2,
  ImplAndTermsV2__factory,
  Lens__factory,
  PlatformToken__factory,
  PoolsInfo__factory,
  Reservoir__factory,
  RewardHarvest__factory,
  StakingPoolFactory__factory,
} from '../../src/chain/types'
import type { IStakingPool } from '../../src/chain/types/contracts/ImplAndTermsV1'
import { DAY, ONE } from '../../src/domain/math'

const pct = (n: number): bigint => BigInt(Math.round(n * 1e6)) * (ONE / 1_000_000n)

/** Harvest terms every pool offers for claim-and-stake: 30 d 5%, 90 d 20%, 180 d 40%. */
export const DEFAULT_TERMS: IStakingPool.HarvestTermStruct[] = [
  { hold: 30n * DAY, bonus: pct(5) },
  { hold: 90n * DAY, bonus: pct(20) },
  { hold: 180n * DAY, bonus: pct(40) },
]

/** Version 1: 400% a year inflation (the spec's "Maximum APR (Pool rewards)"), 5% referral, up to 30% for length. */
export const V1_PARAMS: IStakingPool.PoolParamsStruct = {
  inflationPercent: pct(400),
  refererBonusPercent: pct(5),
  timeBonusPercent: pct(30),
  unHoldFee: pct(100),
  holdTimeRefMin: 30n * DAY,
  holdTimeMax: 1095n * DAY,
}

/** Version 2: fixed rate, up to 50% length bonus paid at maturity, no inflation or referral bonus. */
export const V2_PARAMS: IStakingPool.PoolParamsStruct = {
  inflationPercent: 0n,
  refererBonusPercent: 0n,
  timeBonusPercent: pct(50),
  unHoldFee: pct(100),
  holdTimeRefMin: 30n * DAY,
  holdTimeMax: 1095n * DAY,
}

export interface SystemOptions {
  tokenName?: string
  tokenSymbol?: string
  v1Params?: IStakingPool.PoolParamsStruct
  v2Params?: IStakingPool.PoolParamsStruct
  terms?: IStakingPool.HarvestTermStruct[]
}

/**
 * Deploys and wires the whole system from `deployer`, who owns everything: token, reservoir, pools registry,
 * factory (whitelisted), harvest, Lens, both implementations, and pool 0 = version 2, pool 1 = version 1.
 * Funding and reservoir allowances are left to the caller.
 */
export async function deploySystem(deployer: Signer, opts: SystemOptions = {}) {
  const owner = await deployer.getAddress()
  const token = await new PlatformToken__factory(deployer).deploy(
    opts.tokenName ?? 'Platform Token',
    opts.tokenSymbol ?? 'PLT',
    owner,
  )
  const reservoir = await new Reservoir__factory(deployer).deploy(owner)
  const poolsInfo = await new PoolsInfo__factory(deployer).deploy(owner)
  const factory = await new StakingPoolFactory__factory(deployer).deploy(await poolsInfo.getAddress(), owner)
  await (await poolsInfo.setWhitelisted(await factory.getAddress(), true)).wait()
  const harvest = await new RewardHarvest__factory(deployer).deploy(
    await poolsInfo.getAddress(),
    await factory.getAddress(),
    owner,
  )
  const lens = await new Lens__factory(deployer).deploy()
  // Each version's per-stake views and owner's settings run on its pools' storage from a PoolViews and a PoolSettings
  // of their own (docs/contracts.md, "Storage").
  const parts = async (sharesFees: boolean) =>
    Promise.all([
      new PoolViews__factory(deployer).deploy(sharesFees).then((c) => c.getAddress()),
      new PoolSettings__factory(deployer).deploy(sharesFees).then((c) => c.getAddress()),
    ])
  const implV1 = await new ImplAndTermsV1__factory(deployer).deploy(...(await parts(true)))
  const implV2 = await new ImplAndTermsV2__factory(deployer).deploy(...(await parts(false)))

  const base = {
    stakeToken: await token.getAddress(),
    reservoir: await reservoir.getAddress(),
    harvest: await harvest.getAddress(),
    terms: opts.terms ?? DEFAULT_TERMS,
  }
  const create = async (implementation: string, name: string, symbol: string, params: IStakingPool.PoolParamsStruct) => {
    const config = { implementation, name, symbol, params, ...base }
    const [pool] = await factory.createPool.staticCall(config)
    await (await factory.createPool(config)).wait()
    return pool
  }
  const poolV2Address = await create(await implV2.getAddress(), 'PLT Staking Shares v2', 'sPLT2', opts.v2Params ?? V2_PARAMS)
  const poolV1Address = await create(await implV1.getAddress(), 'PLT Staking Shares v1', 'sPLT1', opts.v1Params ?? V1_PARAMS)
  const poolV1: ImplAndTermsV1 = ImplAndTermsV1__factory.connect(poolV1Address, deployer)
  const poolV2: ImplAndTermsV2 = ImplAndTermsV2__factory.connect(poolV2Address, deployer)

  return { token, reservoir, poolsInfo, factory, harvest, lens, implV1, implV2, poolV1, poolV2 }
}

export type System = Awaited<ReturnType<typeof deploySystem>>
