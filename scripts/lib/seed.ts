import hre from 'hardhat'
import type { Signer } from 'ethers'
import type { System } from './system'
import { DAY, ONE } from '../../src/domain/math'

const DEMO_BALANCE = 1_000_000n * ONE

async function travel(seconds: bigint) {
  await hre.network.provider.send('evm_increaseTime', [Number(seconds)])
  await hre.network.provider.send('evm_mine', [])
}

/**
 * The local demo: 1,000,000 PLT for accounts #0-#4, stakes by several holders in both pools, and for account #0
 * (pool 1, the local default) a stake that matured, two still pending (one with a referral), one closed at maturity
 * and one closed early, all within the last six months, plus a pending stake in pool 0 (version 2). Every stake's
 * bonus and reward are funded by the reservoir when it is made. The early close shares its fee with the holders
 * (their 'earned from strong hands') and gives its bonus and unearned reward back to the reservoir. A referral needs
 * a referer whose latest stake backs it (docs/contracts.md, "A referral"): #0's names #1, who staked first. The node is started in the past
 * (HARDHAT_INITIAL_DATE) so that after the time travel the chain's clock is brought back in line with the wall clock.
 */
export async function seedLocalDemo(sys: System, holders: Signer[]) {
  const ethers = hre.ethers
  const [main, ...others] = holders
  const v1 = await sys.poolV1.getAddress()
  const v2 = await sys.poolV2.getAddress()
  for (const h of holders) {
    await (await sys.token.mint(await h.getAddress(), DEMO_BALANCE)).wait()
  }
  // Accounts #1-#4 stake in both pools so the pools have holders (and #1 can be a referer: its latest stake in pool 1,
  // 5,000 PLT for 365 days, backs a referral released within that time).
  for (const [i, h] of others.entries()) {
    await (await sys.token.connect(h).approve(v1, ethers.MaxUint256)).wait()
    await (await sys.token.connect(h).approve(v2, ethers.MaxUint256)).wait()
    await (
      await sys.poolV1
        .connect(h)
        ['stake(uint256,uint256)'](BigInt(5_000 * (i + 1)) * ONE, BigInt(i === 0 ? 365 : 90 * (i + 1)) * DAY)
    ).wait()
    await (
      await sys.poolV2.connect(h)['stake(uint256,uint256)'](BigInt(2_000 * (i + 1)) * ONE, BigInt(180 * (i + 1)) * DAY)
    ).wait()
  }
  const s = sys.poolV1.connect(main)
  // Account #0 approves exactly what it stakes: its allowance ends at 0, so a newcomer meets the Approve step.
  const stakeTotal = (1_000n + 2_500n + 400n + 12_000n + 750n) * ONE
  await (await sys.token.connect(main).approve(v1, stakeTotal)).wait()
  await (await s['stake(uint256,uint256)'](1_000n * ONE, 30n * DAY)).wait() // #0: matures, stays open
  await (await s['stake(uint256,uint256)'](400n * ONE, 7n * DAY)).wait() // #1: closed at maturity
  await travel(10n * DAY)
  await (await s['stake(uint256,uint256)'](750n * ONE, 60n * DAY)).wait() // #2: closed early
  await travel(5n * DAY)
  await (await s.unstake([2])).wait()
  // #3: pending, referred by #1, whose 365-day stake is still active.
  await (await s['stake(uint256,uint256,address)'](2_500n * ONE, 180n * DAY, await others[0].getAddress())).wait()
  await travel(25n * DAY)
  await (await s.unstake([1])).wait()
  await (await s['stake(uint256,uint256)'](12_000n * ONE, 365n * DAY)).wait() // #4: pending
  // Pool 0 (version 2): one pending stake with its length bonus, approved exactly as well.
  await (await sys.token.connect(main).approve(v2, 3_000n * ONE)).wait()
  await (await sys.poolV2.connect(main)['stake(uint256,uint256)'](3_000n * ONE, 365n * DAY)).wait()
  await travel(2n * DAY)
  // Bring the chain clock back to the wall clock if the node was started in the past.
  const latest = (await ethers.provider.getBlock('latest'))!.timestamp
  const now = Math.floor(Date.now() / 1000)
  if (now > latest) {
    await hre.network.provider.send('evm_setNextBlockTimestamp', [now])
    await hre.network.provider.send('evm_mine', [])
  }
}
