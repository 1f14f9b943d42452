import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseUnits } from 'ethers'
import { RewardHarvest__factory } from '../../src/chain/types'
import { account, claimArgs, dedicatedChain, getJson, provider, startTestApi } from '../support/api'

const DAY = 86_400
const plt = (n: number) => parseUnits(String(n), 18).toString()
/** Account #0's allocation in the local deploy (Public round). */
const ALLOCATION = 120_000n * 10n ** 18n

/** A JSON-RPC proxy to `target` that, while `hold` is set, keeps every request with an eth_call until it is released. */
async function gatingProxy(target: string) {
  const held: (() => void)[] = []
  const state = { hold: false, heldCalls: 0 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString()
      if (state.hold && body.includes('"eth_call"')) {
        state.heldCalls++
        await new Promise<void>((resolve) => held.push(resolve))
      }
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(upstream.status, { 'content-type': 'application/json' })
      res.end(await upstream.text())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    release() {
      state.hold = false
      held.splice(0).forEach((go) => go())
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * Issue 13's attacks, replayed against a real node and the real service: a rollback (what a reorg does on a real
 * chain; evm_revert here) and a node restart. Each ends with the total claimed within the allocation and the
 * service's figures equal to the chain's.
 */
describe('rollback and restart against a real node and the service', () => {
  let chain: Awaited<ReturnType<typeof dedicatedChain>>
  let api: Awaited<ReturnType<typeof startTestApi>>
  beforeEach(async () => {
    chain = await dedicatedChain()
    api = await startTestApi(chain.apiConfig)
  })
  afterEach(async () => {
    await api.app.close()
    await chain.down()
  })

  const setup = () => {
    const p = provider(chain.url)
    const user = account(0, p)
    const token = chain.record().contracts.token
    const harvest = RewardHarvest__factory.connect(chain.record().contracts.harvest, user)
    const status = async () => (await getJson(`${api.url}/vesting/address/${user.address}`)).body
    const claimedOnChain = () => harvest.claimed(user.address, token)
    const travel = async (seconds: number, blocks = 1) => {
      await p.send('evm_increaseTime', [seconds])
      await p.send('hardhat_mine', [`0x${blocks.toString(16)}`])
    }
    return { p, user, harvest, status, claimedOnChain, travel }
  }

  it('four steps: claim, keep a later signature, roll back and claim everything, send the kept one: refused', async () => {
    const { p, user, harvest, status, claimedOnChain, travel } = setup()

    // 1. Snapshot the chain. Mine a block; the service signs 72,000. Claim it.
    const snapshot = await p.send('evm_snapshot', [])
    await p.send('evm_mine', [])
    const s1 = await status()
    expect(s1).toMatchObject({ total: plt(120_000), claimed: '0', unlocked: plt(72_000) })
    await (await harvest.harvest(...claimArgs(s1))).wait()
    expect(await claimedOnChain()).toBe(BigInt(plt(72_000)))

    // 2. Move 400 days, mine 10 blocks; the service signs 48,000. Keep that signature.
    await travel(400 * DAY, 10)
    const kept = await status()
    expect(kept).toMatchObject({ claimed: plt(72_000), unlocked: plt(48_000), lastUpdateBlock: s1.currentBlock })

    // 3. Revert to the snapshot. Move 400 days, mine a block; the service signs 120,000 on this branch. Claim it.
    expect(await p.send('evm_revert', [snapshot])).toBe(true)
    await travel(400 * DAY)
    const s3 = await status()
    // The same block number as step 1's signature, on another branch: the service answers for this one.
    expect(s3).toMatchObject({ claimed: '0', unlocked: plt(120_000), currentBlock: s1.currentBlock })
    await (await harvest.harvest(...claimArgs(s3))).wait()
    // The claim's last block is the one step 2's signature names: only the claimed total tells them apart.
    expect(await harvest.getLastBlock(user.address, chain.record().contracts.token)).toBe(BigInt(kept.lastUpdateBlock))
    expect(api.logs.join('')).toMatch(/reorg: cached answers of the old branch dropped/)

    // 4. Mine up to step 2's block and send the kept signature: refused; nothing more is paid.
    const head = await p.getBlockNumber()
    await p.send('hardhat_mine', [`0x${Math.max(1, Number(kept.currentBlock) - head).toString(16)}`])
    await expect(harvest.harvest.staticCall(...claimArgs(kept))).rejects.toMatchObject({
      revert: { name: 'ClaimedTotalMismatch', args: [BigInt(plt(120_000)), BigInt(plt(72_000))] },
    })
    await expect(harvest.harvest(...claimArgs(kept), { gasLimit: 300_000 })).rejects.toThrow()

    const claimed = await claimedOnChain()
    expect(claimed).toBe(ALLOCATION)
    expect(claimed <= ALLOCATION).toBe(true)
    const final = await status()
    expect(final).toMatchObject({ claimed: claimed.toString(), unlocked: '0', signature: null })
    expect(final.currentBlock).toBe(String(await p.getBlockNumber()))
    p.destroy()
  })

  it('a node restart: the dead chain gets 503s, then the new chain is answered with its own figures', async () => {
    const { p, user, harvest, status, travel } = setup()
    await travel(400 * DAY)
    const before = await status()
    expect(before.unlocked).toBe(plt(120_000))
    await (await harvest.harvest(...claimArgs(before))).wait()
    const old = await status()
    expect(old).toMatchObject({ claimed: plt(120_000), unlocked: '0' })
    p.destroy()

    await chain.down()
    const down = await getJson(`${api.url}/vesting/address/${user.address}`)
    expect(down.status).toBe(503)
    expect(down.headers.get('retry-after')).toBe('5')
    expect(down.body).toMatchObject({ reason: 'chain_unreachable' })

    // Same port, same deploy, same contract addresses: a new chain that has paid nothing.
    await chain.up()
    const fresh = setup()
    // Up to the block numbers the service answered for on the dead chain.
    const head = await fresh.p.getBlockNumber()
    if (head < Number(old.currentBlock)) await fresh.travel(1, Number(old.currentBlock) - head)
    const after = await fresh.status()
    expect(await fresh.claimedOnChain()).toBe(0n)
    expect(after).toMatchObject({ claimed: '0', lastUpdateBlock: '0', unlocked: plt(72_000) })
    expect(Number(after.currentBlock)).toBeGreaterThanOrEqual(Number(old.currentBlock))
    expect(api.logs.join('')).toMatch(/new genesis: the chain was restarted/)

    await (await fresh.harvest.harvest(...claimArgs(after))).wait()
    const claimed = await fresh.claimedOnChain()
    expect(claimed).toBe(BigInt(plt(72_000)))
    expect(claimed <= ALLOCATION).toBe(true)
    expect(await fresh.status()).toMatchObject({ claimed: claimed.toString(), unlocked: '0' })
    fresh.p.destroy()
  })

  it('an answer being made when the chain reorganises is made again on the new branch before it is signed', async () => {
    const { p, user, harvest, claimedOnChain, travel } = setup()
    const proxy = await gatingProxy(chain.url)
    const gated = await startTestApi({ ...chain.apiConfig, rpcUrl: proxy.url })
    try {
      const snapshot = await p.send('evm_snapshot', [])
      await p.send('evm_mine', [])
      const branchA = await p.getBlock('latest')
      // The service takes branch A's head, then its read of the claim state at that block is held up...
      proxy.state.hold = true
      const answer = getJson(`${gated.url}/vesting/address/${user.address}`)
      while (proxy.state.heldCalls === 0) await new Promise((r) => setTimeout(r, 20))
      // ... while the chain moves to branch B: the same height, 400 days later.
      await p.send('evm_revert', [snapshot])
      await travel(400 * DAY)
      const branchB = await p.getBlock('latest')
      expect(branchB!.number).toBe(branchA!.number)
      expect(branchB!.hash).not.toBe(branchA!.hash)
      proxy.release()
      const s = (await answer).body
      // Answered and signed for branch B: its block, its figures (everything vested), a claim that pays there.
      expect(s).toMatchObject({ currentBlock: String(branchB!.number), claimed: '0', unlocked: plt(120_000) })
      expect(gated.logs.join('')).toMatch(/reorg: cached answers of the old branch dropped/)
      await (await harvest.harvest(...claimArgs(s))).wait()
      expect(await claimedOnChain()).toBe(ALLOCATION)
    } finally {
      proxy.release()
      await gated.app.close()
      await proxy.stop()
      p.destroy()
    }
  })
})
