import { getAddress } from 'ethers'
import { setTimers, timers } from '../../src/app/config'
import { contracts } from '../../src/chain/contracts'
import { DAY, ONE } from '../../src/chain/math'
import { stakeRow } from '../../src/features/stake/selectors'
import {
  approveRequested,
  depositRequested,
  poolSelected,
  stakeRefreshRequested,
  stakingPageClosed,
  stakingPageOpened,
  unstakeRequested,
} from '../../src/features/stake/slice'
import { connectRequested } from '../../src/features/wallet/slice'
import type { RootState } from '../../src/app/store'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { CHAIN_URL, deployment, installInjectedWallet, makeTestStore, nodeAccounts, rpc, waitFor } from './support'

let accounts: string[]
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

const E18 = 10n ** 18n
const pool = (id: number) => deployment().pools.find((p) => p.id === id)!

/** A store on the staking page of pool `poolId`, connected as Hardhat account `index` through an injected wallet. */
async function onStakingPage(index: number, poolId: number, rpcUrl?: string) {
  const wallet = installInjectedWallet(accounts[index])
  const t = makeTestStore({ injected: wallet, rpcUrl })
  t.store.dispatch(connectRequested('browser'))
  await waitFor(t.store, (s) => s.wallet.address === accounts[index])
  t.store.dispatch(poolSelected(poolId))
  t.store.dispatch(stakingPageOpened())
  await waitFor(t.store, (s) => s.stake.status === 'succeeded' && s.stake.pool?.id === poolId && s.token.symbol !== '')
  return { ...t, wallet }
}

const read = (t: Awaited<ReturnType<typeof onStakingPage>>, id: number) =>
  contracts.pool(pool(id).address, t.chain.readProvider(31337))

async function fund(index: number, tokens: bigint) {
  const token = contracts.token(deployment().contracts.token, null as never)
  const data = token.interface.encodeFunctionData('transfer', [accounts[index], tokens * E18])
  await rpc('eth_sendTransaction', [{ from: accounts[0], to: deployment().contracts.token, data }])
}

describe('staking sagas against a real node', () => {
  it('loads the pool, the stakes and the wallet figures in one read, matching the contracts', async () => {
    const t = await onStakingPage(0, 1)
    const s = t.store.getState()
    const state = await read(t, 1).getPoolState()
    expect(s.stake.pool).toMatchObject({ id: 1, version: 1, address: pool(1).address, totalShares: state.totalShares.toString() })
    const onChain = await read(t, 1).getAllUserStakes(accounts[0])
    // The seeded mix: active and closed (within six months) stakes, every one of them listed.
    expect(s.stake.userStakes.map((e) => e.id).sort()).toEqual(onChain.map((_, i) => i).sort())
    expect(s.stake.userStakes.some((e) => !e.active)).toBe(true)
    expect(s.stake.totalStakedByUser).toBe((await read(t, 1).getAllUserStakesAmount(accounts[0])).toString())
    const balance = await contracts.token(deployment().contracts.token, t.chain.readProvider(31337)).balanceOf(accounts[0])
    expect(s.token.balance).toBe(balance.toString())
  })

  it('reads the page in one JSON-RPC round trip of three calls, on the first load of a pool and on every refresh', async () => {
    const proxy = await startRpcProxy(CHAIN_URL())
    try {
      const t = await onStakingPage(0, 0, proxy.url)
      const pageRead = { roundTrips: 1, calls: 3, preflights: 0, byMethod: { eth_call: 2, eth_getBlockByNumber: 1 } }
      // The first read of pool 1: its address comes from the deployment record, so the stakes come in the same trip.
      proxy.reset()
      const readAt = t.store.getState().stake.readAt
      t.store.dispatch(poolSelected(1))
      const loaded = await waitFor(t.store, (s) => s.stake.pool?.id === 1 && s.stake.readAt > readAt)
      expect(proxy.counts).toEqual(pageRead)
      expect(loaded.stake.userStakes.length).toBe(Number(await read(t, 1).getUserStakesCount(accounts[0])))
      proxy.reset()
      t.store.dispatch(stakeRefreshRequested())
      await waitFor(t.store, (s) => s.stake.readAt > loaded.stake.readAt)
      expect(proxy.counts).toEqual(pageRead)
    } finally {
      await proxy.stop()
    }
  })

  it("keeps the allowance of the page's pool: the connect read of the default pool's never overwrites another's", async () => {
    const me = 8
    await fund(me, 10n)
    const token = contracts.token(deployment().contracts.token, null as never)
    const data = token.interface.encodeFunctionData('approve', [pool(1).address, 7n * E18 + 1n])
    await rpc('eth_sendTransaction', [{ from: accounts[me], to: deployment().contracts.token, data }])
    const t = await onStakingPage(me, 0)
    // Connected while pool 0 was the page's pool: the default pool's (1) allowance from the connect read is not used.
    expect(t.store.getState().token).toMatchObject({ allowance: '0', approved: false, balance: (10n * E18).toString() })
    t.store.dispatch(poolSelected(1))
    const s = await waitFor(t.store, (st) => st.stake.pool?.id === 1)
    expect(s.token).toMatchObject({ allowance: (7n * E18 + 1n).toString(), approved: true })
  })

  it('approves 1e28 and polls the allowance until the chain shows it, then stakes in version 1 with a referral', async () => {
    await fund(3, 5_000n)
    const t = await onStakingPage(3, 1)
    t.store.dispatch(approveRequested())
    expect(t.store.getState().stake.approving).toBe(true)
    const approved = await waitFor(t.store, (s) => s.token.approved && !s.stake.approving)
    expect(approved.token.allowance).toBe((10n ** 28n).toString())

    const before = await read(t, 1).getUserStakesCount(accounts[3])
    t.store.dispatch(depositRequested({ amount: (1_234n * E18 + 5n).toString(), days: 200, referral: accounts[4] }))
    const s = await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    expect(s.wallet.openModal).toBeNull()
    const stake = await read(t, 1).getStake(accounts[3], before)
    expect([stake.stakeAmount, stake.holdTime, stake.active]).toEqual([1_234n * E18 + 5n, 200n * DAY, true])
    // The list reloads after the receipt and shows the new stake first.
    const listed = await waitFor(t.store, (s) => s.stake.userStakes.some((e) => e.id === Number(before)))
    const row = stakeRow(
      listed.stake.userStakes.find((e) => e.id === Number(before))!,
      listed.stake.pool!,
      listed.stake.chainTime,
    )
    expect(row).toMatchObject({ status: 'Pending', days: 200, amount: '1,234.00', progressText: '0.00%' })
  })

  it('stakes in version 2 without a referral, and refuses a stake the contract rejects with the modal kept open', async () => {
    await fund(2, 3_000n)
    const t = await onStakingPage(2, 0)
    t.store.dispatch(approveRequested())
    await waitFor(t.store, (s) => s.token.approved && !s.stake.approving)
    const before = await read(t, 0).getUserStakesCount(accounts[2])
    t.store.dispatch(depositRequested({ amount: (100n * E18).toString(), days: 30, referral: null }))
    await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    const stake = await read(t, 0).getStake(accounts[2], before)
    expect([stake.stakeAmount, stake.holdTime]).toEqual([100n * E18, 30n * DAY])

    t.store.dispatch({ type: 'wallet/modalOpened', payload: 'deposit' })
    t.store.dispatch(depositRequested({ amount: (100n * E18).toString(), days: 5_000, referral: null }))
    const failed = await waitFor(t.store, (s) => s.stake.deposit.status === 'failed')
    expect(failed.stake.deposit.error).toBe('The number of days is outside what the pool allows.')
    expect(failed.wallet.openModal).toBe('deposit')
  })

  it('closes a stake before maturity (fee) and another after time travel (none), paying what the list showed', async () => {
    await fund(4, 2_000n)
    const t = await onStakingPage(4, 1)
    t.store.dispatch(approveRequested())
    await waitFor(t.store, (s) => s.token.approved && !s.stake.approving)
    for (const days of [10, 20]) {
      t.store.dispatch(depositRequested({ amount: (500n * E18).toString(), days, referral: null }))
      await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
      t.store.dispatch({ type: 'stake/depositReset' })
    }
    const mine = (s: RootState, days: number) =>
      s.stake.userStakes.find((e) => e.active && e.holdTime === days * Number(DAY) && e.stakeAmount === (500n * E18).toString())
    const listed = await waitFor(t.store, (s) => mine(s, 10) !== undefined && mine(s, 20) !== undefined)
    const [early, later] = [mine(listed, 10)!, mine(listed, 20)!]
    t.store.dispatch(unstakeRequested(early.id))
    await waitFor(t.store, (s) => s.stake.closing.status === 'succeeded')
    const closedEarly = await read(t, 1).getStake(accounts[4], early.id)
    expect(closedEarly.active).toBe(false)
    expect(BigInt(early.fee)).toBeGreaterThan(0n)
    await rpc('evm_increaseTime', [21 * Number(DAY)])
    await rpc('evm_mine')
    t.store.dispatch({ type: 'stake/stakeRefreshRequested' })
    const matured = await waitFor(t.store, (s) => s.stake.userStakes.some((e) => e.id === later.id && e.fee === '0'))
    const row = matured.stake.userStakes.find((e) => e.id === later.id)!
    expect(stakeRow(row, matured.stake.pool!, matured.stake.chainTime).status).toBe('Matured')
    const balance = BigInt(matured.token.balance)
    t.store.dispatch(unstakeRequested(later.id))
    const done = await waitFor(t.store, (s) => s.stake.closing.status === 'succeeded' && BigInt(s.token.balance) > balance)
    const paid = BigInt(done.token.balance) - balance
    // Paid at the rate of the closing block, which may be a little above the rate the list was read at.
    expect(paid).toBeGreaterThanOrEqual(BigInt(row.amountOut))
    expect(paid).toBeLessThan(BigInt(row.amountOut) + BigInt(row.amountOut) / 1000n)
    expect((await read(t, 1).getStake(accounts[4], later.id)).active).toBe(false)
    expect(done.stake.pool!.rate).not.toBe(ONE.toString())
  })

  it('refreshes every 15 s (shortened here), stops at the first error, and restarts on the next page visit', async () => {
    const saved = timers.STAKING_REFRESH_MS
    setTimers({ STAKING_REFRESH_MS: 100 })
    try {
      const t = await onStakingPage(1, 1)
      const readAt = t.store.getState().stake.readAt
      await waitFor(t.store, (s) => s.stake.readAt > readAt && s.stake.autoUpdate === 'running')
      // The node stops answering: the next automatic read fails and the auto-update stops for good.
      const provider = t.chain.readProvider(31337)
      const send = provider.send.bind(provider)
      provider.send = async () => {
        throw new Error('node unreachable')
      }
      await waitFor(t.store, (s: RootState) => s.stake.autoUpdate === 'stopped')
      provider.send = send
      const stoppedAt = t.store.getState().stake.readAt
      await new Promise((r) => setTimeout(r, 400))
      expect(t.store.getState().stake.readAt).toBe(stoppedAt)
      // Leaving and opening the page again restarts it.
      t.store.dispatch(stakingPageClosed())
      t.store.dispatch(stakingPageOpened())
      await waitFor(t.store, (s) => s.stake.autoUpdate === 'running' && s.stake.readAt > stoppedAt)
    } finally {
      setTimers({ STAKING_REFRESH_MS: saved })
    }
  })
})
