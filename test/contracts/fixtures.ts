import { ethers } from 'hardhat'
import { deploySystem, type SystemOptions } from '../../scripts/lib/system'
import { ONE } from '../../src/domain/math'

export const USER_BALANCE = 1_000_000n * ONE
export const RESERVOIR_FUNDS = 100_000_000n * ONE
export const HARVEST_FUNDS = 10_000_000n * ONE

/**
 * The system with five funded users who approved both pools, a funded reservoir and harvest, and a trusted signer.
 * The reservoir holds twice `reservoirFunds` and lets each pool draw `reservoirFunds` (allowances must be backed by
 * its balance: Reservoir.approvePool).
 */
export async function deploySystemWith(opts: SystemOptions = {}, reservoirFunds = RESERVOIR_FUNDS) {
  const [owner, signer, ...rest] = await ethers.getSigners()
  const users = rest.slice(0, 5)
  const sys = await deploySystem(owner, opts)
  const { token, reservoir, harvest, poolV1, poolV2 } = sys
  const tokenAddr = await token.getAddress()
  for (const u of users) {
    await token.mint(u.address, USER_BALANCE)
    await token.connect(u).approve(await poolV1.getAddress(), ethers.MaxUint256)
    await token.connect(u).approve(await poolV2.getAddress(), ethers.MaxUint256)
  }
  await token.mint(await reservoir.getAddress(), 2n * reservoirFunds)
  await reservoir.approvePool(tokenAddr, await poolV1.getAddress(), reservoirFunds)
  await reservoir.approvePool(tokenAddr, await poolV2.getAddress(), reservoirFunds)
  await token.mint(await harvest.getAddress(), HARVEST_FUNDS)
  await harvest.setTrustedSigner(tokenAddr, signer.address, true)
  return { ...sys, owner, signer, users, other: rest[5] }
}

export async function deploySystemFixture() {
  return deploySystemWith()
}

/** A nearly empty reservoir: 10 tokens. */
export async function deployPoorReservoirFixture() {
  return deploySystemWith({}, 10n * ONE)
}
