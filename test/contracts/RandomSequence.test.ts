import { expect } from 'chai'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import { deploySystemFixture } from './fixtures'
import { pinNextTimestamp, stakeMath, storedState, type Pool } from './helpers'
import { DAY, ONE, inflationPaid, previewStake, rate as rateOf, unstakePreview, type PoolVersion } from '../../src/chain/math'

/** mulberry32: a tiny seeded generator, so a failing sequence can be replayed from its seed. */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SEED = Number(process.env.SEQUENCE_SEED ?? 20261122)
const STEPS = 320

for (const version of [1, 2] as PoolVersion[]) {
  describe(`ImplAndTermsV${version}: seeded random sequence (seed ${SEED}, ${STEPS} steps)`, () => {
    it('matches the math module on every step and can always pay every active stake', async () => {
      const sys = await loadFixture(deploySystemFixture)
      const pool: Pool = version === 1 ? sys.poolV1 : sys.poolV2
      const poolAddr = await pool.getAddress()
      const rand = rng(SEED + version)
      const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]
      const active = new Map<string, bigint[]>(sys.users.map((u) => [u.address, []]))
      const counts = { stake: 0, unstake: 0, travel: 0 }

      for (let step = 0; step < STEPS; step++) {
        const user = pick(sys.users)
        const mine = active.get(user.address)!
        const roll = rand()
        if (roll < 0.45 || mine.length === 0) {
          const amount = BigInt(Math.floor(rand() * 50_000) + 1) * ONE + BigInt(Math.floor(rand() * 1e9))
          const days = BigInt(Math.floor(rand() * 400) + 1)
          const referer = rand() < 0.3 && days >= 30n ? pick(sys.users.filter((u) => u !== user)).address : undefined
          const { state, lastAccrual } = await storedState(pool)
          const t = await pinNextTimestamp()
          const e = previewStake(
            state,
            amount,
            days * DAY + BigInt(Math.floor(rand() * 86_000)),
            referer !== undefined,
            t - lastAccrual,
          )
          const id = await pool.getUserStakesCount(user.address)
          const p = pool.connect(user)
          await (referer
            ? p['stake(uint256,uint256,address)'](amount, e.holdTime, referer)
            : p['stake(uint256,uint256)'](amount, e.holdTime))
          const s = await pool.getStake(user.address, id)
          expect(s.lpAmount, `step ${step}: shares`).to.equal(e.shares)
          mine.push(id)
          counts.stake++
        } else if (roll < 0.8) {
          const take = mine.filter(() => rand() < 0.5)
          const ids = take.length > 0 ? take : [mine[0]]
          const { state, lastAccrual } = await storedState(pool)
          const t = await pinNextTimestamp()
          const r = rateOf(version, state.totalStaked + inflationPaid(state, t - lastAccrual), state.totalShares)
          let expected = 0n
          for (const id of ids)
            expected += unstakePreview(version, await stakeMath(pool, user.address, id), r, state.unHoldFee, t).received
          const tx = pool.connect(user).unstake(ids)
          await expect(tx, `step ${step}: paid`).to.changeTokenBalance(sys.token, user, expected)
          active.set(
            user.address,
            mine.filter((id) => !ids.includes(id)),
          )
          counts.unstake++
        } else {
          await time.increase(Math.floor(rand() * 60 * 86_400) + 1)
          counts.travel++
        }

        // Invariants after every step.
        const balance = await sys.token.balanceOf(poolAddr)
        const totalStaked = await pool.totalStaked()
        const supply = await pool.totalSupply()
        expect(balance, `step ${step}: balance covers totalStaked`).to.be.greaterThanOrEqual(totalStaked)
        let shares = 0n
        let owed = 0n
        const storedRate = rateOf(version, totalStaked, supply)
        for (const u of sys.users) {
          let amount = 0n
          for (const id of active.get(u.address)!) {
            const s = await pool.getStake(u.address, id)
            expect(s.active).to.equal(true)
            shares += s.lpAmount
            amount += s.stakeAmount
            owed += version === 1 ? (s.lpAmount * storedRate) / ONE : s.lpAmount
          }
          expect(await pool.getAllUserStakesAmount(u.address), `step ${step}: user total`).to.equal(amount)
          expect(await pool.balanceOf(u.address)).to.be.greaterThanOrEqual(0n)
        }
        expect(supply, `step ${step}: shares agree`).to.equal(shares)
        expect(owed, `step ${step}: pool can pay every active stake`).to.be.lessThanOrEqual(balance)
        if (version === 2) expect(totalStaked).to.equal(supply)
      }
      expect(counts.stake + counts.unstake + counts.travel).to.equal(STEPS)
      expect(counts.unstake).to.be.greaterThan(50)
      expect(counts.travel).to.be.greaterThan(30)
    })
  })
}
