/**
 * `npm run bench:gas`: gas used by each write the app sends and by the Lens page reads, on the in-process Hardhat
 * network with the deployed system (optimizer 200). Prints a table with the budgets from ARCHITECTURE.md.
 */
import hre from 'hardhat'
import type { ContractTransactionResponse } from 'ethers'
import { deploySystem } from '../lib/system'
import { claimDomain, signClaim } from '../../src/chain/claim'
import { APPROVE_AMOUNT, DAY, ONE } from '../../src/chain/math'

type Row = { operation: string; gas: bigint; budget?: number }

async function used(tx: Promise<ContractTransactionResponse>): Promise<bigint> {
  const receipt = await (await tx).wait()
  return receipt!.gasUsed
}

async function main() {
  const { ethers } = hre
  const [owner, signer, alice, bob, carol] = await ethers.getSigners()
  const sys = await deploySystem(owner)
  const token = await sys.token.getAddress()
  const v1 = await sys.poolV1.getAddress()
  const v2 = await sys.poolV2.getAddress()
  await sys.token.mint(await sys.reservoir.getAddress(), 100_000_000n * ONE)
  await sys.token.mint(await sys.harvest.getAddress(), 1_000_000n * ONE)
  await sys.reservoir.approvePool(token, v1, ethers.MaxUint256)
  await sys.reservoir.approvePool(token, v2, ethers.MaxUint256)
  await sys.harvest.setTrustedSigner(token, signer.address, true)
  for (const u of [alice, bob, carol]) await sys.token.mint(u.address, 1_000_000n * ONE)

  const rows: Row[] = []
  rows.push({ operation: 'approve (1e28)', gas: await used(sys.token.connect(alice).approve(v1, APPROVE_AMOUNT)) })
  await sys.token.connect(alice).approve(v2, APPROVE_AMOUNT)
  await sys.token.connect(bob).approve(v1, APPROVE_AMOUNT)
  await sys.token.connect(bob).approve(v2, APPROVE_AMOUNT)
  // Make both pools active (someone staked before) so "first" means the user's first, as in the budget.
  await sys.poolV1.connect(bob)['stake(uint256,uint256)'](100n * ONE, 30n * DAY)
  await sys.poolV2.connect(bob)['stake(uint256,uint256)'](100n * ONE, 30n * DAY)
  await hre.network.provider.send('evm_increaseTime', [3600])

  const p1 = sys.poolV1.connect(alice)
  const p2 = sys.poolV2.connect(alice)
  rows.push({
    operation: 'stake v1, user first',
    gas: await used(p1['stake(uint256,uint256)'](1000n * ONE, 365n * DAY)),
    budget: 150_000,
  })
  rows.push({
    operation: 'stake v1, user next',
    gas: await used(p1['stake(uint256,uint256)'](1000n * ONE, 365n * DAY)),
    budget: 120_000,
  })
  rows.push({
    operation: 'stake v1, with referral',
    gas: await used(p1['stake(uint256,uint256,address)'](1000n * ONE, 365n * DAY, bob.address)),
    budget: 120_000,
  })
  rows.push({
    operation: 'stake v2, user first',
    gas: await used(p2['stake(uint256,uint256)'](1000n * ONE, 365n * DAY)),
    budget: 150_000,
  })
  rows.push({
    operation: 'stake v2, user next',
    gas: await used(p2['stake(uint256,uint256)'](1000n * ONE, 365n * DAY)),
    budget: 120_000,
  })
  rows.push({
    operation: 'stake v2, with referral',
    gas: await used(p2['stake(uint256,uint256,address)'](1000n * ONE, 365n * DAY, bob.address)),
    budget: 120_000,
  })
  for (let i = 0; i < 20; i++) {
    await p1['stake(uint256,uint256)'](10n * ONE, 30n * DAY)
    await p2['stake(uint256,uint256)'](10n * ONE, 30n * DAY)
  }
  await hre.network.provider.send('evm_increaseTime', [10 * 86400])
  rows.push({ operation: 'unstake v1, 1 stake', gas: await used(p1.unstake([0])), budget: 90_000 })
  rows.push({ operation: 'unstake v2, 1 stake', gas: await used(p2.unstake([0])), budget: 90_000 })
  const ten = Array.from({ length: 10 }, (_, i) => i + 3)
  rows.push({ operation: 'unstake v1, 10 stakes', gas: await used(p1.unstake(ten)), budget: 400_000 })
  rows.push({ operation: 'unstake v2, 10 stakes', gas: await used(p2.unstake(ten)), budget: 400_000 })

  const { chainId } = await ethers.provider.getNetwork()
  const domain = claimDomain(chainId, await sys.harvest.getAddress())
  const claimArgs = async (user: string, amount: bigint) => {
    const claim = {
      user,
      amount,
      lastUpdateBlock: await sys.harvest.getLastBlock(user, token),
      currentBlock: BigInt(await ethers.provider.getBlockNumber()),
      rewardToken: token,
    }
    const { message, signature } = await signClaim(signer, domain, claim)
    return [claim.amount, claim.lastUpdateBlock, claim.currentBlock, message, signature, token] as const
  }
  rows.push({
    operation: 'harvest, user first claim',
    gas: await used(sys.harvest.connect(carol).harvest(...(await claimArgs(carol.address, 100n * ONE)))),
    budget: 110_000,
  })
  rows.push({
    operation: 'harvest, user next claim',
    gas: await used(sys.harvest.connect(carol).harvest(...(await claimArgs(carol.address, 100n * ONE)))),
  })
  rows.push({
    operation: 'harvestStake into v1 (90 d term)',
    gas: await used(sys.harvest.connect(carol).harvestStake(...(await claimArgs(carol.address, 100n * ONE)), v1, 90n * DAY)),
  })

  // Lens reads for a user with 20+ stakes in each pool (estimateGas of the view call, intrinsic 21,000 included).
  const lens = sys.lens
  const poolsInfo = await sys.poolsInfo.getAddress()
  const est = (data: string) => ethers.provider.estimateGas({ to: lens.target as string, data, from: alice.address })
  rows.push({
    operation: 'Lens getPoolData (pool page, 20 stakes)',
    gas: await est(lens.interface.encodeFunctionData('getPoolData', [v1, alice.address])),
    budget: 100_000,
  })
  rows.push({
    operation: 'Lens getPoolsDataFromPoolInfo (2 pools)',
    gas: await est(lens.interface.encodeFunctionData('getPoolsDataFromPoolInfo', [poolsInfo, alice.address])),
  })
  rows.push({
    operation: `Lens stakes + unstake data (${await sys.poolV1.getUserStakesCount(alice.address)} stakes)`,
    gas: await est(
      lens.interface.encodeFunctionData('getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth', [v1, alice.address]),
    ),
  })

  const width = Math.max(...rows.map((r) => r.operation.length))
  console.log(`${'operation'.padEnd(width)}  ${'gas'.padStart(9)}  ${'budget'.padStart(9)}  verdict`)
  for (const r of rows) {
    const verdict = r.budget === undefined ? '' : r.gas <= BigInt(r.budget) ? 'within' : 'OVER'
    console.log(
      `${r.operation.padEnd(width)}  ${r.gas.toLocaleString('en-US').padStart(9)}  ${(r.budget?.toLocaleString('en-US') ?? '-').padStart(9)}  ${verdict}`,
    )
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
