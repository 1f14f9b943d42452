import { RewardHarvest__factory, PlatformToken__factory, ImplAndTermsV1__factory } from '../../src/chain/types'
import { ROUNDS, type Round } from '../../server/vesting/schedule'
import { DAY } from '../../src/domain/math'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { account, allocationsFile, chainNow, claimArgs, getJson, provider, record, startTestApi, travelTo } from '../support/api'

const MONTH = 30 * 86_400
const TOTALS: Record<Round, bigint> = {
  Public: 90_000n * 10n ** 18n + 1n,
  Private: 60_000n * 10n ** 18n,
  Seed: 30_000n * 10n ** 18n + 3n,
}
// Accounts #5-#7 hold one round each; #8 has no allocation.
const HOLDERS: [number, Round][] = [
  [5, 'Public'],
  [6, 'Private'],
  [7, 'Seed'],
]

describe('GET /vesting/address/:wallet against a real node', () => {
  const p = provider()
  let api: Awaited<ReturnType<typeof startTestApi>>
  let tge: number
  const rec = record()
  const addr = (i: number) => account(i, p).address
  const status = async (i: number) => (await getJson(`${api.url}/vesting/address/${addr(i)}`)).body
  const share = (round: Round, parts: ('tge' | 'm1')[]) =>
    parts.reduce(
      (sum, part) => sum + (TOTALS[round] * (part === 'tge' ? ROUNDS[round].tgePercent : ROUNDS[round].month1Percent)) / 100n,
      0n,
    )

  beforeAll(async () => {
    tge = (await chainNow(p)) + 3600
    const file = allocationsFile({
      tge,
      months: 3,
      monthSeconds: MONTH,
      allocations: Object.fromEntries(HOLDERS.map(([i, round]) => [addr(i), { round, amount: TOTALS[round].toString() }])),
    })
    api = await startTestApi({ allocationsFile: file })
  })
  afterAll(async () => {
    await api.app.close()
    p.destroy()
  })

  it('before TGE: nothing unlocked, no signature, next = the TGE share at TGE', async () => {
    for (const [i, round] of HOLDERS) {
      const s = await status(i)
      expect(s).toMatchObject({ total: TOTALS[round].toString(), claimed: '0', unlocked: '0', message: null, signature: null })
      expect(s.next).toEqual({ amount: share(round, ['tge']).toString(), date: new Date(tge * 1000).toISOString() })
      expect(s.rewardToken).toBe(rec.contracts.token)
    }
  })

  it('lists every unlock from TGE to the last, in order, the same at any block, adding up to the total', async () => {
    for (const [i, round] of HOLDERS) {
      const { schedule } = await status(i)
      // TGE, month 1, then the 3 monthly steps of this allocations file.
      expect(schedule.map((step: { date: string }) => (Date.parse(step.date) / 1000 - tge) / MONTH)).toEqual([0, 1, 2, 3, 4])
      expect(schedule.slice(0, 2).map((step: { amount: string }) => step.amount)).toEqual([
        share(round, ['tge']).toString(),
        share(round, ['m1']).toString(),
      ])
      expect(schedule.reduce((sum: bigint, step: { amount: string }) => sum + BigInt(step.amount), 0n)).toBe(TOTALS[round])
      await p.send('evm_mine', [])
      expect((await status(i)).schedule).toEqual(schedule)
    }
    expect((await status(8)).schedule).toEqual([])
  })

  it('an address without allocation gets zeros and no signature', async () => {
    const s = await status(8)
    expect(s).toMatchObject({
      total: '0',
      claimed: '0',
      unlocked: '0',
      lastUpdateBlock: '0',
      message: null,
      signature: null,
      next: null,
    })
    expect(Number(s.currentBlock)).toBeGreaterThan(0)
  })

  it('at TGE each round unlocks its TGE share, signed for the current block', async () => {
    await travelTo(p, tge)
    for (const [i, round] of HOLDERS) {
      const s = await status(i)
      expect(s.unlocked).toBe(share(round, ['tge']).toString())
      expect(s.currentBlock).toBe(String(await p.getBlockNumber()))
      expect(s.signature).toMatch(/^0x[0-9a-f]{130}$/)
      // The claim is valid for the configured time from the block it was made at.
      expect(Number(s.deadline)).toBe((await chainNow(p)) + api.config.claimTtlSeconds)
      expect(s.next.amount).toBe(share(round, ['m1']).toString())
    }
  })

  it('a claim round trip: harvest pays exactly unlocked, the next GET moves on, the old signature is dead', async () => {
    const user = account(5, p)
    const harvest = RewardHarvest__factory.connect(rec.contracts.harvest, user)
    const token = PlatformToken__factory.connect(rec.contracts.token, p)
    const s = await status(5)
    const before = await token.balanceOf(user.address)
    const args = claimArgs(s)
    await (await harvest.harvest(...args)).wait()
    expect(await token.balanceOf(user.address)).toBe(before + BigInt(s.unlocked))
    const after = await status(5)
    expect(after.claimed).toBe(s.unlocked)
    expect(after.lastUpdateBlock).toBe(s.currentBlock)
    expect(after.unlocked).toBe('0')
    expect(after.signature).toBeNull()
    expect(after.deadline).toBeNull()
    await expect(harvest.harvest.staticCall(...args)).rejects.toMatchObject({
      revert: { name: 'StaleClaim' },
    })
  })

  it('after month 1 the month-1 share is added (less what was claimed)', async () => {
    await travelTo(p, tge + MONTH)
    expect((await status(5)).unlocked).toBe(share('Public', ['m1']).toString())
    expect((await status(6)).unlocked).toBe(share('Private', ['tge', 'm1']).toString())
    expect((await status(7)).unlocked).toBe(share('Seed', ['tge', 'm1']).toString())
  })

  it('harvestStake with the returned fields stakes the claim in a pool term', async () => {
    const user = account(6, p)
    const s = await status(6)
    const pool = rec.pools.find((x) => x.id === rec.defaultPoolId)!.address
    const harvest = RewardHarvest__factory.connect(rec.contracts.harvest, user)
    const hold = 90n * DAY
    await (await harvest.harvestStake(...claimArgs(s), pool, hold)).wait()
    const stakes = await ImplAndTermsV1__factory.connect(pool, p).getAllUserStakes(user.address)
    expect(stakes).toHaveLength(1)
    expect(stakes[0].stakeAmount).toBe(BigInt(s.unlocked))
    expect(stakes[0].holdTime).toBe(hold)
    expect((await status(6)).claimed).toBe(s.unlocked)
  })

  it('at the end everything is vested, to the wei, and there is no next unlock', async () => {
    await travelTo(p, tge + 5 * MONTH)
    const seed = await status(7)
    expect(seed.unlocked).toBe(TOTALS.Seed.toString())
    expect(seed.next).toBeNull()
    const pub = await status(5)
    expect(BigInt(pub.unlocked) + BigInt(pub.claimed)).toBe(TOTALS.Public)
  })

  it('answers a burst of identical requests with one set of chain reads', async () => {
    const proxy = await startRpcProxy(process.env.CHAIN_URL!)
    const shared = await startTestApi({ rpcUrl: proxy.url, blockCacheMs: 1000, allocationsFile: api.config.allocationsFile })
    try {
      await getJson(`${shared.url}/health`)
      proxy.reset()
      const answers = await Promise.all(Array.from({ length: 40 }, () => getJson(`${shared.url}/vesting/address/${addr(7)}`)))
      expect(answers.every((a) => a.status === 200)).toBe(true)
      expect(new Set(answers.map((a) => a.body.signature)).size).toBe(1)
      // Unshared, 40 requests would make 40 x (head block + claim state) calls.
      expect(proxy.counts.calls).toBeLessThanOrEqual(2)
    } finally {
      await shared.app.close()
      await proxy.stop()
    }
  })

  it('a claim past its deadline is refused (ClaimExpired); the next answer is a fresh claim that pays', async () => {
    const user = account(5, p)
    const harvest = RewardHarvest__factory.connect(rec.contracts.harvest, user)
    const s = await status(5)
    expect(BigInt(s.unlocked)).toBeGreaterThan(0n)
    await travelTo(p, Number(s.deadline) + 1)
    await expect(harvest.harvest.staticCall(...claimArgs(s))).rejects.toMatchObject({
      revert: { name: 'ClaimExpired', args: [BigInt(s.deadline), BigInt(s.deadline) + 1n] },
    })
    const fresh = await status(5)
    expect(Number(fresh.deadline)).toBe((await chainNow(p)) + api.config.claimTtlSeconds)
    await (await harvest.harvest(...claimArgs(fresh))).wait()
    expect((await status(5)).claimed).toBe(TOTALS.Public.toString())
  })

  it('never puts the signer key in a response or a log line', async () => {
    const key = api.config.signerKey!.slice(2)
    const s = JSON.stringify(await status(7))
    expect(s).not.toContain(key)
    expect(api.logs.join('')).not.toContain(key)
    expect(api.logs.length).toBeGreaterThan(0)
  })
})
