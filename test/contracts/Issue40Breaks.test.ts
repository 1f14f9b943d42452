/**
 * Issue 40's five breaks as the fourth attack review found them, written with only the pool API that the contracts
 * before the fix (168ec69) and after it share, so the same file runs on both: each `it` fails on 168ec69 (a 1-wei
 * referral: 5,000.00000000003 of R's fee to the reservoir; a forfeited bonus: 500,000; both: 500,000; an unfunded
 * bonus: 5,000; a matured 1-day stake: 495,431.32 of a 990,867.60 fee, as much as a 1,095-day one) and passes after.
 * The figures the new rules give, to the wei, are in ReferralDebtRegressions.test.ts.
 */
import { expect } from 'chai'
import { ethers, network } from 'hardhat'
import { deploySystem } from '../../scripts/lib/system'

const T = (n: bigint) => n * 10n ** 18n
const DAY = 86_400n
const fmt = (x: bigint) => ethers.formatUnits(x, 18)

async function world() {
  const [owner, R, X, G, A, B, C] = await ethers.getSigners()
  const sys = await deploySystem(owner)
  const pool = sys.poolV1
  const addr = await pool.getAddress()
  const res = await sys.reservoir.getAddress()
  await sys.token.mint(res, T(10n ** 12n))
  await sys.reservoir.approvePool(await sys.token.getAddress(), addr, T(10n ** 11n))
  for (const u of [R, X, G, A, B, C]) {
    await sys.token.mint(u.address, T(100_000_000n))
    await sys.token.connect(u).approve(addr, ethers.MaxUint256)
  }
  const at = async (t: bigint) => network.provider.send('evm_setNextBlockTimestamp', [Number(t)])
  const now = async () => BigInt((await ethers.provider.getBlock('latest'))!.timestamp)
  /** Closes `id` of `u` at `t`: its fee, forfeited, and what the reservoir got beyond the forfeited (the payback). */
  const close = async (u: typeof R, id: bigint, t: bigint) => {
    await at(t)
    const r0 = await sys.token.balanceOf(res)
    const [p0] = await pool.getFeeStream()
    const rc = (await (await pool.connect(u).unstake([id])).wait())!
    const ev = rc.logs.map((l) => pool.interface.parseLog(l)).find((e) => e?.name === 'Unstaked')!
    const [, , , fee, forfeited] = ev.args as unknown as bigint[]
    const payback = (await sys.token.balanceOf(res)) - r0 - forfeited
    const [p1] = await pool.getFeeStream()
    return { fee, payback, streamed: p1 - p0 }
  }
  return { sys, pool, R, X, G, A, B, C, at, now, close }
}

type State = Awaited<ReturnType<Awaited<ReturnType<typeof world>>['pool']['getPoolState']>>
const noFee = (p: State) => ({
  inflationPercent: p.inflationPercent,
  refererBonusPercent: p.refererBonusPercent,
  timeBonusPercent: p.timeBonusPercent,
  unHoldFee: 0n,
  holdTimeRefMin: p.holdTimeRefMin,
  holdTimeMax: p.holdTimeMax,
})

describe('issue 40: the five breaks', () => {
  it('1. a 1-wei referral keeps no old debt alive', async () => {
    const w = await world()
    const t0 = (await w.now()) + 10n
    await w.at(t0)
    await w.pool.connect(w.R)['stake(uint256,uint256)'](T(900_000n), 1095n * DAY)
    await w.at(t0 + 1n)
    await w.pool.connect(w.X)['stake(uint256,uint256,address)'](T(100_000n), 30n * DAY, w.R.address)
    await w.at(t0 + 29n * DAY)
    await w.pool.connect(w.G)['stake(uint256,uint256,address)'](1n, 1000n * DAY, w.R.address)
    await w.close(w.X, 0n, t0 + 31n * DAY)
    const r = await w.close(w.R, 0n, t0 + 100n * DAY)
    expect(r.payback, `R's fee ${fmt(r.fee)}: ${fmt(r.payback)} to the reservoir`).to.equal(0n)
  })

  /**
   * R stakes 90,000,000 for 1,095 days beside a holder B; at a 0% fee for new stakes G stakes 10,000,000 for 1,001 days
   * naming R and closes a second later, forfeiting its referral bonus.
   */
  async function forfeitedReferral() {
    const w = await world()
    const t0 = (await w.now()) + 10n
    await w.at(t0)
    await w.pool.connect(w.R)['stake(uint256,uint256)'](T(90_000_000n), 1095n * DAY)
    await w.at(t0 + 1n)
    await w.pool.connect(w.B)['stake(uint256,uint256)'](T(1_000n), 1095n * DAY)
    await w.pool.setParameters(noFee(await w.pool.getPoolState()))
    await w.at(t0 + 10n)
    await w.pool.connect(w.G)['stake(uint256,uint256,address)'](T(10_000_000n), 1001n * DAY, w.R.address)
    await w.close(w.G, 0n, t0 + 11n)
    return { w, t0 }
  }

  it('2. a forfeited bonus is not owed', async () => {
    const { w, t0 } = await forfeitedReferral()
    const r = await w.close(w.R, 0n, t0 + 10n * DAY)
    expect(r.payback, `R's fee ${fmt(r.fee)}: ${fmt(r.payback)} to the reservoir`).to.equal(0n)
  })

  it('3. both together: the whole of R\u2019s later fee streams to the holders', async () => {
    const { w, t0 } = await forfeitedReferral()
    await w.at(t0 + 12n)
    await w.pool.connect(w.A)['stake(uint256,uint256,address)'](1n, 1000n * DAY, w.R.address)
    const r = await w.close(w.R, 0n, t0 + 500n * DAY)
    expect([r.payback, r.streamed], `R's fee ${fmt(r.fee)}: ${fmt(r.payback)} to the reservoir`).to.deep.equal([0n, r.fee])
  })

  it('4. an unfunded bonus is not owed', async () => {
    const w = await world()
    const t0 = (await w.now()) + 10n
    await w.at(t0)
    await w.pool.connect(w.R)['stake(uint256,uint256)'](T(900_000n), 1095n * DAY)
    await w.sys.reservoir.approvePool(await w.sys.token.getAddress(), await w.pool.getAddress(), 0n)
    await w.at(t0 + 5n)
    await w.pool.connect(w.X)['stake(uint256,uint256,address,uint256,uint256)'](T(100_000n), 30n * DAY, w.R.address, 0n, 0n)
    const r = await w.close(w.R, 0n, t0 + 10n * DAY)
    expect(r.payback, `R's fee ${fmt(r.fee)}: ${fmt(r.payback)} to the reservoir`).to.equal(0n)
  })

  it('5. a matured stake left open takes no share of later fees', async () => {
    const w = await world()
    const t0 = ((await w.now()) / DAY + 1n) * DAY + 3600n
    await w.at(t0)
    await w.pool.connect(w.A)['stake(uint256,uint256)'](T(100_000n), DAY)
    await w.at(t0 + 1n)
    await w.pool.connect(w.B)['stake(uint256,uint256)'](T(100_000n), 1095n * DAY)
    await w.at(t0 + 2n)
    await w.pool.connect(w.C)['stake(uint256,uint256)'](T(1_000_000n), 1095n * DAY)
    const c = await w.close(w.C, 0n, t0 + 10n * DAY)
    await network.provider.send('evm_increaseTime', [Number(31n * DAY)])
    await network.provider.send('evm_mine', [])
    const a = (await w.pool.getStakeInfo(w.A.address, 0)).stake.gains
    const b = (await w.pool.getStakeInfo(w.B.address, 0)).stake.gains
    expect(a, `C's fee ${fmt(c.fee)}: the matured A collected ${fmt(a)}, B ${fmt(b)}`).to.equal(0n)
  })
})
