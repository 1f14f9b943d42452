/**
 * `npm run bench:gas`: gas used by each write the app sends and by the Lens page reads, on the in-process Hardhat
 * network with the deployed system (optimizer 200). Prints a table against scripts/bench/gas-budgets.json (the
 * figures before the pool redesign and the targets of docs/architecture.md §8), then the Lens table: one stake-list
 * page for a user with 20, 2,000 and 20,000 stakes (BENCH_LENS_MAX lowers the largest), then what bringing a pool's
 * books to now costs after idle days.
 */
import hre from 'hardhat'
import type { ContractTransactionResponse } from 'ethers'
import { deploySystem } from '../lib/system'
import { signedClaim } from '../lib/claims'
import { HeavyStaker__factory } from '../../src/chain/types'
import budgets from './gas-budgets.json'
import { APPROVE_AMOUNT, DAY, ONE, boundsOf, previewStake } from '../../src/domain/math'
import { permitDomain, signPermit } from '../../src/domain/permit'
import { mathState } from '../../scripts/lib/poolState'

type Row = { operation: string; gas: bigint }
type Budget = { baseline?: number; budget?: number }
const BUDGETS = budgets as unknown as Record<string, Budget>

async function used(tx: Promise<ContractTransactionResponse>): Promise<bigint> {
  const receipt = await (await tx).wait()
  return receipt!.gasUsed
}

async function main() {
  const { ethers } = hre
  const [owner, signer, alice, bob, carol, dave] = await ethers.getSigners()
  const sys = await deploySystem(owner)
  const token = await sys.token.getAddress()
  const v1 = await sys.poolV1.getAddress()
  const v2 = await sys.poolV2.getAddress()
  await sys.token.mint(await sys.reservoir.getAddress(), 200_000_000n * ONE)
  await sys.token.mint(await sys.harvest.getAddress(), 1_000_000n * ONE)
  await sys.reservoir.approvePool(token, v1, 100_000_000n * ONE)
  await sys.reservoir.approvePool(token, v2, 100_000_000n * ONE)
  await sys.harvest.setTrustedSigner(token, signer.address, true)
  for (const u of [alice, bob, carol, dave]) await sys.token.mint(u.address, 1_000_000n * ONE)

  const rows: Row[] = []
  const domain = permitDomain(await sys.token.name(), (await ethers.provider.getNetwork()).chainId, token)
  rows.push({ operation: 'approve (1e28)', gas: await used(sys.token.connect(alice).approve(v1, APPROVE_AMOUNT)) })
  await sys.token.connect(alice).approve(v2, APPROVE_AMOUNT)
  await sys.token.connect(bob).approve(v1, APPROVE_AMOUNT)
  await sys.token.connect(bob).approve(v2, APPROVE_AMOUNT)
  // Make both pools active (someone staked before) so "first" means the user's first, as in the budget. Bob's stake
  // is long and large enough to back the referral below (docs/contracts.md, "A referral").
  await sys.poolV1.connect(bob)['stake(uint256,uint256)'](1000n * ONE, 1095n * DAY)
  await sys.poolV2.connect(bob)['stake(uint256,uint256)'](1000n * ONE, 1095n * DAY)
  await hre.network.provider.send('evm_increaseTime', [3600])

  const p1 = sys.poolV1.connect(alice)
  const p2 = sys.poolV2.connect(alice)
  // In each pool: alice's first stake, her next, and one with bob as referer.
  for (const [version, p] of [
    ['v1', p1],
    ['v2', p2],
  ] as const) {
    const stake = () => p['stake(uint256,uint256)'](1000n * ONE, 365n * DAY)
    rows.push({ operation: `stake ${version}, user first`, gas: await used(stake()) })
    rows.push({ operation: `stake ${version}, user next`, gas: await used(stake()) })
    rows.push({
      operation: `stake ${version}, with referral`,
      gas: await used(p['stake(uint256,uint256,address)'](1000n * ONE, 365n * DAY, bob.address)),
    })
    // The guarded form with the figures of its preview (what the app sends), then the permit stake (one signature),
    // each a user's next stake (dave's, so alice's list stays as it was).
    const pool = version === 'v1' ? sys.poolV1 : sys.poolV2
    const d = pool.connect(dave)
    await sys.token.connect(dave).approve(await pool.getAddress(), APPROVE_AMOUNT)
    await d['stake(uint256,uint256)'](1000n * ONE, 365n * DAY)
    const bounds = async () => boundsOf(previewStake(await mathState(pool), 1000n * ONE, 365n * DAY, false))
    const b = await bounds()
    rows.push({
      operation: `stake ${version}, guarded`,
      gas: await used(
        d['stake(uint256,uint256,address,uint256,uint256,uint256)'](
          1000n * ONE,
          365n * DAY,
          ethers.ZeroAddress,
          b.maxFee,
          b.minBonus,
          b.minReward,
        ),
      ),
    })
    const addr = await pool.getAddress()
    const deadline = BigInt((await ethers.provider.getBlock('latest'))!.timestamp) + 3600n
    const permit = {
      owner: dave.address,
      spender: addr,
      value: 1000n * ONE,
      nonce: await sys.token.nonces(dave.address),
      deadline,
    }
    const sig = await signPermit(dave, domain, permit)
    const pb = await bounds()
    rows.push({
      operation: `stake ${version}, with permit`,
      gas: await used(
        d.stakeWithPermit(
          1000n * ONE,
          365n * DAY,
          ethers.ZeroAddress,
          pb.maxFee,
          pb.minBonus,
          pb.minReward,
          deadline,
          sig.v,
          sig.r,
          sig.s,
        ),
      ),
    })
  }
  for (let i = 0; i < 20; i++) {
    await p1['stake(uint256,uint256)'](10n * ONE, 30n * DAY)
    await p2['stake(uint256,uint256)'](10n * ONE, 30n * DAY)
  }
  await hre.network.provider.send('evm_increaseTime', [10 * 86400])
  rows.push({ operation: 'unstake v1, 1 stake', gas: await used(p1.unstake([0])) })
  rows.push({ operation: 'unstake v2, 1 stake', gas: await used(p2.unstake([0])) })
  const ten = Array.from({ length: 10 }, (_, i) => i + 3)
  rows.push({ operation: 'unstake v1, 10 stakes', gas: await used(p1.unstake(ten)) })
  rows.push({ operation: 'unstake v2, 10 stakes', gas: await used(p2.unstake(ten)) })

  const claimArgs = async (user: string, amount: bigint) =>
    (await signedClaim({ harvest: sys.harvest, rewardToken: token, signer }, user, amount)).args
  rows.push({
    operation: 'harvest, user first claim',
    gas: await used(sys.harvest.connect(carol).harvest(...(await claimArgs(carol.address, 100n * ONE)))),
  })
  rows.push({
    operation: 'harvest, user next claim',
    gas: await used(sys.harvest.connect(carol).harvest(...(await claimArgs(carol.address, 100n * ONE)))),
  })
  rows.push({
    operation: 'harvestStake into v1 (90 d term)',
    gas: await used(sys.harvest.connect(carol).harvestStake(...(await claimArgs(carol.address, 100n * ONE)), v1, 90n * DAY)),
  })
  const term = boundsOf(previewStake(await mathState(sys.poolV1), 100n * ONE, 90n * DAY, false, 20n * ONE))
  rows.push({
    operation: 'harvestStakeGuarded into v1 (90 d term)',
    gas: await used(
      sys.harvest.connect(carol).harvestStakeGuarded(...(await claimArgs(carol.address, 100n * ONE)), v1, 90n * DAY, term),
    ),
  })

  // Lens reads for a user with 20+ stakes in each pool (estimateGas of the view call, intrinsic 21,000 included).
  const lens = sys.lens
  const poolsInfo = await sys.poolsInfo.getAddress()
  const est = (data: string) => ethers.provider.estimateGas({ to: lens.target as string, data, from: alice.address })
  rows.push({
    operation: 'Lens getPoolData (pool page, 20 stakes)',
    gas: await est(lens.interface.encodeFunctionData('getPoolData', [v1, alice.address])),
  })
  rows.push({
    operation: 'Lens getPoolsDataFromPoolInfo (2 pools)',
    gas: await est(lens.interface.encodeFunctionData('getPoolsDataFromPoolInfo', [poolsInfo, alice.address])),
  })
  rows.push({
    operation: 'Lens getPoolsPage (2 pools)',
    gas: await est(lens.interface.encodeFunctionData('getPoolsPage', [poolsInfo, alice.address, 0, 8])),
  })
  rows.push({
    operation: `Lens stakes + unstake data (${await sys.poolV1.getUserStakesCount(alice.address)} stakes)`,
    gas: await est(
      lens.interface.encodeFunctionData('getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth', [v1, alice.address]),
    ),
  })

  // Restake against a close and a stake of the same amount (after the Lens reads, which it would change): two matured
  // stakes of dave's, each way, into a stake with the bounds of its preview, of 365 and 366 days so that each is the
  // first stake released on its day (neither finds the other's release day already written).
  const dv = sys.poolV1.connect(dave)
  // Dave's permit stake above left the pool no allowance.
  await sys.token.connect(dave).approve(v1, APPROVE_AMOUNT)
  const first = await sys.poolV1.getUserStakesCount(dave.address)
  for (let i = 0; i < 4; i++) await dv['stake(uint256,uint256)'](1000n * ONE, DAY)
  await hre.network.provider.send('evm_increaseTime', [2 * 86_400])
  await hre.network.provider.send('evm_mine', [])
  const pays = async (ids: bigint[]) => {
    let total = 0n
    for (const id of ids) total += (await sys.poolV1.getStakeInfo(dave.address, id)).amountOut
    return total
  }
  const guardedFor = async (amount: bigint, hold: bigint) =>
    boundsOf(previewStake(await mathState(sys.poolV1), amount, hold, false))
  const twice = [first, first + 1n]
  const rb = await guardedFor(await pays(twice), 365n * DAY)
  const restake = await used(dv.restake(twice, 365n * DAY, rb.maxFee, rb.minBonus, rb.minReward))
  rows.push({ operation: 'restake v1, 2 matured stakes', gas: restake })
  const other = [first + 2n, first + 3n]
  const amount = await pays(other)
  const closed = await used(dv.unstake(other))
  const sb = await guardedFor(amount, 366n * DAY)
  const staked = await used(
    dv['stake(uint256,uint256,address,uint256,uint256,uint256)'](
      amount,
      366n * DAY,
      ethers.ZeroAddress,
      sb.maxFee,
      sb.minBonus,
      sb.minReward,
    ),
  )
  rows.push({ operation: 'unstake + guarded stake v1, the same', gas: closed + staked })

  const width = Math.max(...rows.map((r) => r.operation.length))
  const n = (v: bigint | number | undefined) => (v === undefined ? '-' : v.toLocaleString('en-US'))
  console.log(`${'operation'.padEnd(width)}  ${'gas'.padStart(9)}  ${'before'.padStart(9)}  ${'budget'.padStart(9)}  verdict`)
  for (const r of rows) {
    const b = BUDGETS[r.operation] ?? {}
    const verdicts = [
      b.baseline !== undefined && (r.gas <= BigInt(b.baseline) ? 'not above before' : 'ABOVE BEFORE'),
      b.budget !== undefined && (r.gas <= BigInt(b.budget) ? 'within budget' : 'over budget'),
    ].filter(Boolean)
    console.log(
      `${r.operation.padEnd(width)}  ${n(r.gas).padStart(9)}  ${n(b.baseline).padStart(9)}  ${n(b.budget).padStart(9)}  ${verdicts.join(', ')}`,
    )
  }
  await lensTable(sys, owner)
  await walkTable(owner)
}

/**
 * What bringing a pool's books to now costs after it was left alone (checkpoint(), which every stake and close runs
 * first): per UTC day with a stake released on it, and per day without one. A fresh system each time: a holder's
 * 1,095-day stake and `releases` one-wei stakes released on as many successive days, then `idle` days without a
 * transaction.
 */
async function walkTable(owner: Awaited<ReturnType<typeof hre.ethers.getSigners>>[number]) {
  console.log('\nBringing pool v1 to now after idle days (checkpoint(); every stake and close does it first)')
  console.log(
    `${'release days'.padStart(12)}  ${'idle days'.padStart(9)}  ${'gas'.padStart(10)}  ${'per release day'.padStart(15)}`,
  )
  let base = 0n
  for (const [releases, idle] of [
    [0, 1],
    [0, 1095],
    [30, 31],
    [365, 366],
  ]) {
    const sys = await deploySystem(owner)
    const pool = sys.poolV1
    const addr = await pool.getAddress()
    await sys.reservoir.approvePool(await sys.token.getAddress(), addr, 0n)
    await sys.token.mint(owner.address, 1_000_000n * ONE)
    await sys.token.approve(addr, APPROVE_AMOUNT)
    await pool['stake(uint256,uint256,address,uint256,uint256)'](1000n * ONE, 1095n * DAY, hre.ethers.ZeroAddress, 0n, 0n)
    for (let d = 1; d <= releases; d++)
      await pool['stake(uint256,uint256,address,uint256,uint256)'](1n, BigInt(d) * DAY, hre.ethers.ZeroAddress, 0n, 0n)
    await hre.network.provider.send('evm_increaseTime', [idle * 86_400])
    const gas = await used(pool.checkpoint())
    if (releases === 0 && idle === 1) base = gas
    const per = releases === 0 ? '-' : ((gas - base) / BigInt(releases)).toLocaleString('en-US')
    console.log(
      `${releases.toLocaleString('en-US').padStart(12)}  ${idle.toLocaleString('en-US').padStart(9)}  ${gas.toLocaleString('en-US').padStart(10)}  ${per.padStart(15)}`,
    )
  }
}

/**
 * Gas of the staking page's stake-list reads for a heavy staker: N stakes made by a contract, of which the newest 20
 * are active and the rest were closed more than six months ago. One page (50 rows), the full active + last-180-days
 * read, and the pool page.
 */
async function lensTable(
  sys: Awaited<ReturnType<typeof deploySystem>>,
  owner: Awaited<ReturnType<typeof hre.ethers.getSigners>>[number],
) {
  const { ethers } = hre
  const sizes = [20, 2_000, 20_000].filter((s) => s <= Number(process.env.BENCH_LENS_MAX ?? 20_000))
  const v1 = await sys.poolV1.getAddress()
  const token = await sys.token.getAddress()
  const gasLimit = 16_000_000
  console.log(`\nLens, stake list of a user with N stakes in pool v1 (newest 20 active, the rest closed over 180 days ago)`)
  console.log(
    `${'stakes'.padStart(7)}  ${'page of 50'.padStart(11)}  ${'active + last 180 days'.padStart(23)}  ${'getPoolData'.padStart(11)}`,
  )
  for (const size of sizes) {
    const bulk = await new HeavyStaker__factory(owner).deploy()
    const who = await bulk.getAddress()
    await sys.token.mint(who, BigInt(size) * ONE)
    const old = size - 20
    for (let i = 0; i < old; i += 100)
      await (await bulk.stakeMany(v1, token, ONE, DAY, Math.min(100, old - i), { gasLimit })).wait()
    for (let i = 0; i < old; i += 200) await (await bulk.closeRange(v1, i, Math.min(i + 200, old), { gasLimit })).wait()
    await hre.network.provider.send('evm_increaseTime', [200 * 86_400])
    await (await bulk.stakeMany(v1, token, ONE, 30n * DAY, 20, { gasLimit })).wait()
    const est = (data: string) => ethers.provider.estimateGas({ to: sys.lens.target as string, data })
    const page = await est(sys.lens.interface.encodeFunctionData('getUnstakeDataPage', [v1, who, 0, 50]))
    const all = await est(
      sys.lens.interface.encodeFunctionData('getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth', [v1, who]),
    )
    const data = await est(sys.lens.interface.encodeFunctionData('getPoolData', [v1, who]))
    const f = (v: bigint) => v.toLocaleString('en-US')
    console.log(
      `${size.toLocaleString('en-US').padStart(7)}  ${f(page).padStart(11)}  ${f(all).padStart(23)}  ${f(data).padStart(11)}`,
    )
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
