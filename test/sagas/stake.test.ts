import { getAddress, Interface, MaxUint256 } from 'ethers'
import { lists, setLists, setTimers, timers } from '../../src/config/timers'
import { contracts } from '../../src/chain/contracts'
import { DAY, ONE, previewStake, unstakePreview } from '../../src/domain/math'
import { formatAmount } from '../../src/format/units'
import {
  depositPreview,
  poolMath,
  selectApproval,
  selectCanSignPermit,
  selectCloseAllMatured,
  selectFeeStreamNote,
  selectPermitFor,
  selectRestakeOf,
  selectRestakePlan,
} from '../../src/features/stake/selectors'
import { stakeRow } from '../../src/features/stake/rows'
import { releaseDayStart } from '../../src/features/stake/refresh'
import { selectAllowance } from '../../src/features/token/selectors'
import {
  allowanceCheckRequested,
  approveRequested,
  closeAllMaturedRequested,
  depositRequested,
  depositReset,
  depositWithPermitRequested,
  moreStakesRequested,
  permitSignRequested,
  poolSelected,
  restakeOpened,
  restakeRequested,
  stakeRefreshRequested,
  stakingPageOpened,
  unstakeRequested,
} from '../../src/features/stake/slice'
import { connectRequested, feeQuoteRequested, modalOpened } from '../../src/features/wallet/slice'
import { NOT_MATURED } from '../../src/features/stake/sagas'
import { MESSAGES } from '../../src/chain/tx'
import { cannotPayFee, feeQuoteKey, type FeePurpose } from '../../src/features/wallet/feeQuote'
import type { RootState } from '../../src/app/store'
import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import {
  CHAIN_URL,
  capturingLogs as capturing,
  deployment,
  installInjectedWallet,
  makeTestStore,
  nodeAccounts,
  rpc,
  waitFor,
  withFaultProxy,
} from '../support/sagaStore'

let accounts: string[]
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

const E18 = 10n ** 18n
/** The spec's approval, 1e28 base units (the dialog's default). */
const UNLIMITED = (10n ** 28n).toString()
const pool = (id: number) => deployment().pools.find((p) => p.id === id)!
/** The wallet's allowance to the page's pool, as the deposit dialog reads it. */
const pageAllowance = (s: RootState) => (s.stake.pool ? selectAllowance(s, s.stake.pool.address) : null)

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

/** Runs `body`; returns what it logged (tag and message lines). */
const capturingLogs = async (body: () => Promise<void>): Promise<string[]> => (await capturing(body)).logged

/** The reservoir owner (#0 on the local chain) lets `poolId` draw at most `amount` from now on. */
async function allowReservoir(poolId: number, amount: bigint) {
  const reservoir = new Interface(['function approvePool(address token, address pool, uint256 amount)'])
  const data = reservoir.encodeFunctionData('approvePool', [deployment().contracts.token, pool(poolId).address, amount])
  await rpc('eth_sendTransaction', [{ from: accounts[0], to: deployment().contracts.reservoir, data }])
}

async function fund(index: number, tokens: bigint) {
  const token = contracts.token(deployment().contracts.token, null as never)
  const data = token.interface.encodeFunctionData('transfer', [accounts[index], tokens * E18])
  await rpc('eth_sendTransaction', [{ from: accounts[0], to: deployment().contracts.token, data }])
}

describe('staking sagas against a real node', () => {
  it('loads the pool, the stakes and the wallet figures in one read, matching the contracts', async () => {
    const t = await onStakingPage(0, 1)
    const s = t.store.getState()
    const p = read(t, 1)
    const state = await p.getPoolState()
    expect(s.stake.pool).toMatchObject({
      id: 1,
      version: 1,
      address: pool(1).address,
      totalShares: state.totalShares.toString(),
      rate: state.rate.toString(),
      stakersCount: Number(state.stakersCount),
    })
    // The fee stream of the same block: what early closes have not yet released to the holders.
    const fees = await p.getFeeStream()
    expect(s.stake.pool).toMatchObject({ feesStreaming: fees.pending.toString(), feeStreamEnd: Number(fees.streamEnd) })
    // The seeded holders (#0-#4) and whoever else staked: the pool counts them itself.
    expect(s.stake.pool!.stakersCount).toBeGreaterThanOrEqual(5)
    const count = Number(await p.getUserStakesCount(accounts[0]))
    // The seeded mix: active (pending and matured) and closed (within six months) stakes, every one of them listed.
    expect(s.stake.userStakes.map((e) => e.id).sort()).toEqual(Array.from({ length: count }, (_, i) => i))
    expect(s.stake.moreStakes).toBe(false)
    const rows = s.stake.userStakes.map((e) => stakeRow(e, s.stake.pool!, s.stake.chainTime))
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['Pending', 'Matured', 'Closed']))
    // Each entry is the stake's own terms and what closing it pays (paid), as the pool reports them.
    for (const e of s.stake.userStakes) {
      const info = await p.getStakeInfo(accounts[0], e.id)
      expect(e).toMatchObject({
        active: info.stake.active,
        stakeAmount: info.stake.stakeAmount.toString(),
        bonus: info.stake.bonus.toString(),
        reward: info.stake.reward.toString(),
        unHoldFee: info.stake.unHoldFee.toString(),
        closeTime: Number(info.stake.closeTime),
      })
      if (!e.active)
        expect([e.amountOut, e.fee, e.forfeited, e.gains]).toEqual(
          [info.amountOut, info.fee, info.forfeited, info.stake.gains].map(String),
        )
    }
    // Active stakes: the list's figures are the shared math's at the chain time of the read; a stake whose release day
    // had begun gains to the rate at that day's start, which only its own gains show.
    for (const e of s.stake.userStakes.filter((x) => x.active)) {
      const onChain = await p.getStake(accounts[0], e.id)
      const c = unstakePreview(onChain, BigInt(s.stake.pool!.rate), BigInt(s.stake.chainTime))
      if (releaseDayStart(e) <= s.stake.chainTime)
        Object.assign(c, { amountOut: c.amountOut - c.gains + onChain.gains, gains: onChain.gains })
      expect([e.amountOut, e.fee, e.forfeited, e.gains]).toEqual([c.amountOut, c.fee, c.forfeited, c.gains].map(String))
    }
    expect(s.stake.totalStakedByUser).toBe((await p.getAllUserStakesAmount(accounts[0])).toString())
    const balance = await contracts.token(deployment().contracts.token, t.chain.readProvider(31337)).balanceOf(accounts[0])
    expect(s.token.balance).toBe(balance.toString())
  })

  it('reads the stake list a page at a time; Show more reads only the next page and adds it', async () => {
    const saved = lists.STAKE_PAGE_SIZE
    setLists({ STAKE_PAGE_SIZE: 2 })
    const proxy = await startRpcProxy(CHAIN_URL())
    try {
      const t = await onStakingPage(0, 1, proxy.url)
      const total = Number(await read(t, 1).getUserStakesCount(accounts[0]))
      expect(total).toBeGreaterThan(4)
      const first = t.store.getState().stake
      // Active stakes come first.
      expect(first.userStakes.map((e) => e.active)).toEqual([true, true])
      expect(first.moreStakes).toBe(true)
      proxy.reset()
      t.store.dispatch(moreStakesRequested())
      const second = await waitFor(t.store, (s) => s.stake.userStakes.length === 4)
      // One Lens call for the one new page: the rows shown are not read again.
      expect(proxy.counts).toMatchObject({ roundTrips: 1, calls: 1, byMethod: { eth_call: 1 } })
      expect(second.stake.userStakes.slice(0, 2)).toEqual(first.userStakes)
      let s = second
      while (s.stake.moreStakes) {
        const shown = s.stake.userStakes.length
        t.store.dispatch(moreStakesRequested())
        s = await waitFor(t.store, (x) => x.stake.userStakes.length > shown || !x.stake.moreStakes)
      }
      expect(s.stake.userStakes.map((e) => e.id).sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i))
      // A full read (Retry) reads every row shown again, two to a page, in one round trip.
      proxy.reset()
      t.store.dispatch(stakeRefreshRequested())
      await waitFor(t.store, (x) => x.stake.readAt > s.stake.readAt)
      expect(proxy.counts).toMatchObject({ roundTrips: 1, calls: 3 + Math.ceil(total / 2) })
      expect(t.store.getState().stake.userStakes).toHaveLength(total)
      // Another pool starts from its first page.
      t.store.dispatch(poolSelected(0))
      await waitFor(t.store, (x) => x.stake.pool?.id === 0 && x.stake.listStatus === 'ok')
      expect(t.store.getState().stake.userStakes.length).toBeLessThanOrEqual(2)
    } finally {
      setLists({ STAKE_PAGE_SIZE: saved })
      await proxy.stop()
    }
  })

  it('refreshes without reading the rows again when no stake was made or closed, to the wei of a full read', async () => {
    await withFaultProxy(CHAIN_URL(), { STAKING_REFRESH_MS: 150 }, async (proxy) => {
      const t = await onStakingPage(0, 1, proxy.url)
      await waitFor(t.store, (s) => s.stake.autoUpdate === 'running')
      // Time passes: fees fall, rewards are earned, a stake may mature; the rows are recomputed from their terms.
      await rpc('evm_increaseTime', [2 * Number(DAY) + 123])
      await rpc('evm_mine')
      const before = t.store.getState().stake
      proxy.reset()
      const refreshed = await waitFor(t.store, (s) => s.stake.blockNumber! > before.blockNumber!)
      expect(proxy.counts.roundTrips).toBe(1)
      expect(proxy.counts.byMethod.eth_call).toBe(2)
      const reread = refreshed.stake.userStakes
      // The same figures as the Lens gives for that block.
      const lens = contracts.lens(deployment().contracts.lens, t.chain.readProvider(31337))
      const page = await lens.getUnstakeDataPage(pool(1).address, accounts[0], 0, reread.length, {
        blockTag: refreshed.stake.blockNumber!,
      })
      expect(reread.map((e) => [e.id, e.amountOut, e.fee, e.forfeited, e.gains])).toEqual(
        page.infos.map((i) => [Number(i.stakeId), ...[i.amountOut, i.fee, i.forfeited, i.stake.gains].map(String)]),
      )
      expect(reread.some((e, i) => e.active && e.fee !== before.userStakes[i].fee)).toBe(true)
    })
  })

  it('after a new stake, a refresh reads only the new row; a stake and a close together read the rows afresh', async () => {
    const saved = timers.STAKING_REFRESH_MS
    // A second apart: at 150 ms, on a loaded machine the next update's calls joined the measured one's second batch
    // (6 eth_calls in 2 round trips instead of 4).
    setTimers({ STAKING_REFRESH_MS: 1_000 })
    const proxy = await startRpcProxy(CHAIN_URL())
    const staking = contracts.pool(pool(1).address, null as never).interface
    const token = contracts.token(deployment().contracts.token, null as never).interface
    const send = (to: string, data: string) => rpc('eth_sendTransaction', [{ from: accounts[0], to, data }])
    const stake = () => send(pool(1).address, staking.encodeFunctionData('stake(uint256,uint256)', [3n * E18, 30n * DAY]))
    try {
      await send(deployment().contracts.token, token.encodeFunctionData('approve', [pool(1).address, MaxUint256]))
      const t = await onStakingPage(0, 1, proxy.url)
      await waitFor(t.store, (s) => s.stake.autoUpdate === 'running')
      const asLens = async (s: RootState) => {
        const lens = contracts.lens(deployment().contracts.lens, t.chain.readProvider(31337))
        const page = await lens.getUnstakeDataPage(pool(1).address, accounts[0], 0, s.stake.userStakes.length, {
          blockTag: s.stake.blockNumber!,
        })
        return page.infos.map((i) => [Number(i.stakeId), i.stake.active, ...[i.amountOut, i.fee, i.stake.gains].map(String)])
      }
      const shown = (s: RootState) => s.stake.userStakes.map((e) => [e.id, e.active, e.amountOut, e.fee, e.gains])

      // One new stake: the rows read before stay, the new one comes first, as a full read has them.
      const before = t.store.getState().stake
      expect(before.userStakes.length).toBeGreaterThanOrEqual(2)
      await stake()
      proxy.reset()
      const after = await waitFor(t.store, (s) => s.stake.userStakesCount !== before.userStakesCount)
      const refresh = { ...proxy.counts }
      expect(after.stake.userStakes.length).toBe(before.userStakes.length + 1)
      expect(after.stake.userStakes[0].id).toBe(Number(before.userStakesCount))
      expect(shown(after)).toEqual(await asLens(after))
      // Pool and wallet figures, fee stream and block, then the new row alone.
      expect(refresh).toMatchObject({ roundTrips: 2, byMethod: { eth_call: 4, eth_getBlockByNumber: 1 } })
      // Smaller than one full read of the same rows (the pool read and every row).
      proxy.reset()
      t.store.dispatch(stakeRefreshRequested())
      const full = await waitFor(t.store, (s) => s.stake.readAt > after.stake.readAt && s.stake.listStatus === 'ok')
      expect(full.stake.userStakes.length).toBe(after.stake.userStakes.length)
      expect(refresh.bytes).toBeLessThan(proxy.counts.bytes)

      // A close and a new stake in the same block: the totals do not add up to new stakes alone, so the rows are
      // read again, in the order the close left them.
      await waitFor(t.store, (s) => s.stake.autoUpdate === 'running')
      const now = t.store.getState().stake
      const open = now.userStakes.find((e) => e.active && e.id !== now.userStakes[0].id)!
      await rpc('evm_setAutomine', [false])
      try {
        await send(pool(1).address, staking.encodeFunctionData('unstake', [[open.id]]))
        await stake()
        await rpc('evm_mine')
      } finally {
        await rpc('evm_setAutomine', [true])
      }
      const mixed = await waitFor(t.store, (s) => s.stake.userStakesCount !== now.userStakesCount)
      expect(shown(mixed)).toEqual(await asLens(mixed))
      expect(mixed.stake.userStakes.find((e) => e.id === open.id)?.active ?? false).toBe(false)
    } finally {
      setTimers({ STAKING_REFRESH_MS: saved })
      await proxy.stop()
    }
  })

  it('reads the page in one JSON-RPC round trip (a version 1 pool adds its fee stream to it), on the first load of a pool and on every refresh', async () => {
    const proxy = await startRpcProxy(CHAIN_URL())
    try {
      const t = await onStakingPage(0, 0, proxy.url)
      // Pool 0 (version 2) streams no fees: pool figures, stakes and the block's time.
      proxy.reset()
      const v2At = t.store.getState().stake.readAt
      t.store.dispatch(stakeRefreshRequested())
      await waitFor(t.store, (s) => s.stake.readAt > v2At)
      expect(proxy.counts).toMatchObject({
        roundTrips: 1,
        calls: 3,
        preflights: 0,
        byMethod: { eth_call: 2, eth_getBlockByNumber: 1 },
      })
      const pageRead = { roundTrips: 1, calls: 4, preflights: 0, byMethod: { eth_call: 3, eth_getBlockByNumber: 1 } }
      // The first read of pool 1: its address and version come from the deployment record, so the stakes and the fee
      // stream come in the same trip.
      proxy.reset()
      const readAt = t.store.getState().stake.readAt
      t.store.dispatch(poolSelected(1))
      const loaded = await waitFor(t.store, (s) => s.stake.pool?.id === 1 && s.stake.readAt > readAt)
      expect(proxy.counts).toMatchObject(pageRead)
      expect(loaded.stake.userStakes.length).toBe(Number(await read(t, 1).getUserStakesCount(accounts[0])))
      proxy.reset()
      t.store.dispatch(stakeRefreshRequested())
      await waitFor(t.store, (s) => s.stake.readAt > loaded.stake.readAt)
      expect(proxy.counts).toMatchObject(pageRead)
    } finally {
      await proxy.stop()
    }
  })

  it("keeps each pool's allowance: the connect read of the default pool's and the page's read of another's both stay", async () => {
    const me = 8
    await fund(me, 10n)
    const token = contracts.token(deployment().contracts.token, null as never)
    const data = token.interface.encodeFunctionData('approve', [pool(1).address, 7n * E18 + 1n])
    await rpc('eth_sendTransaction', [{ from: accounts[me], to: deployment().contracts.token, data }])
    const t = await onStakingPage(me, 0)
    // Connected on pool 0's page: its allowance is the page's, the default pool's (1) from the connect read is kept apart.
    const both = await waitFor(t.store, (s) => selectAllowance(s, pool(1).address) !== null)
    expect(both.token.balance).toBe((10n * E18).toString())
    expect(pageAllowance(both)).toBe('0')
    expect(selectAllowance(both, pool(1).address)).toBe((7n * E18 + 1n).toString())
    expect(selectApproval(both, E18.toString()).approved).toBe(false)
    t.store.dispatch(poolSelected(1))
    const s = await waitFor(t.store, (st) => st.stake.pool?.id === 1)
    expect(pageAllowance(s)).toBe((7n * E18 + 1n).toString())
    expect(selectApproval(s, E18.toString()).approved).toBe(true)
    expect(selectAllowance(s, pool(0).address)).toBe('0')
  })

  it('approves 1e28 and polls the allowance until the chain shows it, then stakes in version 1 with a referral', async () => {
    await fund(3, 5_000n)
    const t = await onStakingPage(3, 1)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    expect(t.store.getState().stake.approving).toBe(true)
    const approved = await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    expect(pageAllowance(approved)).toBe((10n ** 28n).toString())

    const before = await read(t, 1).getUserStakesCount(accounts[3])
    t.store.dispatch(depositRequested({ amount: (1_234n * E18 + 5n).toString(), days: 200, referral: accounts[4] }))
    const s = await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    expect(s.wallet.openModal).toBeNull()
    const stake = await read(t, 1).getStake(accounts[3], before)
    expect([stake.stakeAmount, stake.holdTime, stake.active]).toEqual([1_234n * E18 + 5n, 200n * DAY, true])
    // The referer (#4) has an active stake in the pool, so the referral bonus (5% of 200 / 1,095 days: it grows with the
    // hold as the length bonus does) is added to the length bonus.
    const bonusPercent = (30n * ONE * 200n * DAY) / (1095n * DAY) + (5n * ONE * 200n * DAY) / (1095n * DAY)
    expect(stake.bonus).toBe(((1_234n * E18 + 5n) * (bonusPercent / 100n)) / ONE)
    // The list reloads after the receipt and shows the new stake first.
    const listed = await waitFor(t.store, (s) => s.stake.userStakes.some((e) => e.id === Number(before)))
    const row = stakeRow(
      listed.stake.userStakes.find((e) => e.id === Number(before))!,
      listed.stake.pool!,
      listed.stake.chainTime,
    )
    expect(row).toMatchObject({ status: 'Pending', days: 200, amount: '1,234.00', progressText: '0.00%' })
  })

  it('with an allowance below the amount: the stake is refused before sending with the figures, and an exact approval lets it through', async () => {
    const me = 11
    await fund(me, 100n)
    const token = contracts.token(deployment().contracts.token)
    // 5 PLT approved straight from the account, as a wallet's allowance editor would leave it.
    await rpc('eth_sendTransaction', [
      {
        from: accounts[me],
        to: deployment().contracts.token,
        data: token.interface.encodeFunctionData('approve', [pool(1).address, 5n * E18]),
      },
    ])
    const t = await onStakingPage(me, 1)
    const ten = (10n * E18).toString()
    expect(selectApproval(t.store.getState(), ten)).toMatchObject({ approved: false, short: true, allowanceText: '5.00 PLT' })
    t.store.dispatch(modalOpened('deposit'))
    const logged = await capturingLogs(async () => {
      t.store.dispatch(depositRequested({ amount: ten, days: 30, referral: null }))
      const failed = await waitFor(t.store, (s) => s.stake.deposit.status === 'failed')
      expect(failed.stake.deposit.error).toBe(
        'The pool may spend only 5.00 of your tokens and this needs 10.00: approve at least that much first.',
      )
      expect(failed.wallet.openModal).toBe('deposit')
    })
    expect(logged).toEqual(['[tx] stake was not sent'])
    t.store.dispatch(approveRequested({ amount: ten }))
    const approved = await waitFor(t.store, (s) => pageAllowance(s) === ten && !s.stake.approving)
    expect(selectApproval(approved, ten).approved).toBe(true)
    expect(approved.stake.approveError).toBeNull()
    t.store.dispatch(depositRequested({ amount: ten, days: 30, referral: null }))
    await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    expect(await token.connect(t.chain.readProvider(31337)).allowance(accounts[me], pool(1).address)).toBe(0n)
  })

  it('stakes in version 2 without a referral, and refuses a stake the contract rejects with the modal kept open', async () => {
    await fund(2, 3_000n)
    const t = await onStakingPage(2, 0)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    const before = await read(t, 0).getUserStakesCount(accounts[2])
    t.store.dispatch(depositRequested({ amount: (100n * E18).toString(), days: 30, referral: null }))
    await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    const stake = await read(t, 0).getStake(accounts[2], before)
    expect([stake.stakeAmount, stake.holdTime]).toEqual([100n * E18, 30n * DAY])

    t.store.dispatch(modalOpened('deposit'))
    const logged = await capturingLogs(async () => {
      t.store.dispatch(depositRequested({ amount: (100n * E18).toString(), days: 5_000, referral: null }))
      const failed = await waitFor(t.store, (s) => s.stake.deposit.status === 'failed')
      expect(failed.stake.deposit.error).toBe('The number of days is outside what the pool allows.')
      expect(failed.wallet.openModal).toBe('deposit')
    })
    expect(logged).toEqual(['[tx] stake was not sent'])
  })

  it('refuses a referral whose referer has no active stake in the pool (a referral bonus is never free)', async () => {
    await fund(5, 1_000n)
    const t = await onStakingPage(5, 1)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    const before = await read(t, 1).getUserStakesCount(accounts[5])
    t.store.dispatch(modalOpened('deposit'))
    const logged = await capturingLogs(async () => {
      // Account #6 has never staked in pool 1.
      t.store.dispatch(depositRequested({ amount: (100n * E18).toString(), days: 60, referral: accounts[6] }))
      const failed = await waitFor(t.store, (s) => s.stake.deposit.status === 'failed')
      expect(failed.stake.deposit.error).toBe('Your referral has no active stake in this pool; stake without it.')
      expect(failed.wallet.openModal).toBe('deposit')
    })
    expect(logged).toEqual(['[tx] stake was not sent'])
    expect(await read(t, 1).getUserStakesCount(accounts[5])).toBe(before)
  })

  it('closes a stake before maturity (fee, bonus and unearned reward forfeited; the fee streams to the holders over time) and another after it, paying the shared math at its block', async () => {
    await fund(4, 2_000n)
    const t = await onStakingPage(4, 1)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    for (const days of [10, 20]) {
      t.store.dispatch(depositRequested({ amount: (500n * E18).toString(), days, referral: null }))
      await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
      t.store.dispatch({ type: 'stake/depositReset' })
    }
    const mine = (s: RootState, days: number) =>
      s.stake.userStakes.find((e) => e.holdTime === days * Number(DAY) && e.stakeAmount === (500n * E18).toString())
    const listed = await waitFor(t.store, (s) => mine(s, 10)?.active === true && mine(s, 20)?.active === true)
    const [early, later] = [mine(listed, 10)!, mine(listed, 20)!]
    // Terms fixed at stake time: a length bonus and 400% a year over the hold, funded by the reservoir.
    expect(BigInt(early.bonus)).toBeGreaterThan(0n)
    expect(BigInt(early.reward)).toBe((500n * E18 * ((400n * ONE * 10n * DAY) / (365n * DAY) / 100n)) / ONE)
    let balance = BigInt(listed.token.balance)
    t.store.dispatch(unstakeRequested(early.id))
    const afterEarly = await waitFor(t.store, (s) => s.stake.closing.status === 'succeeded' && mine(s, 10)?.active === false)
    const closedEarly = mine(afterEarly, 10)!
    // What the close paid, as the list now shows it: the fee taken, the whole bonus and the unearned reward forfeited.
    expect(BigInt(closedEarly.fee)).toBeGreaterThan(0n)
    expect(BigInt(closedEarly.forfeited)).toBeGreaterThan(BigInt(early.bonus))
    expect(BigInt(afterEarly.token.balance) - balance).toBe(BigInt(closedEarly.amountOut) - BigInt(closedEarly.fee))
    const summary = stakeRow(closedEarly, afterEarly.stake.pool!, afterEarly.stake.chainTime)
    expect(summary.close).toMatchObject({
      early: true,
      bonusForfeited: stakeRow(early, listed.stake.pool!, 0).close.bonusForfeited,
    })
    expect(BigInt(summary.raw.rewards)).toBeLessThan(0n)
    // The fee on the principal stays with those who hold (version 1), but not at once: it joins the fee stream, which
    // releases it over 30 days to the shares present at each moment. Right after the close the rate has risen by at
    // most the few seconds' release of earlier fees, far less than the fee itself would move it.
    const justClosed = afterEarly.stake.pool!
    expect(BigInt(justClosed.feesStreaming)).toBeGreaterThanOrEqual(BigInt(closedEarly.fee))
    // The stream ends 30 days after this close, or, with earlier fees still pending, at the amount-weighted average
    // of their end and that (math.ts extendedStreamEnd): never later, never before the earlier end.
    const before = listed.stake.pool!
    const fullEnd = closedEarly.closeTime + 30 * Number(DAY)
    if (BigInt(before.feesStreaming) === 0n) expect(justClosed.feeStreamEnd).toBe(fullEnd)
    else {
      expect(justClosed.feeStreamEnd).toBeLessThanOrEqual(fullEnd)
      expect(justClosed.feeStreamEnd).toBeGreaterThanOrEqual(Math.min(before.feeStreamEnd, fullEnd))
    }
    const feeStep = (BigInt(closedEarly.fee) * ONE) / (BigInt(justClosed.totalShares) + ONE)
    expect(BigInt(justClosed.rate) - BigInt(listed.stake.pool!.rate)).toBeLessThan(feeStep / 100n)
    expect(selectFeeStreamNote(afterEarly)).toMatch(/ PLT of early-close fees being shared until \w{3}, \d{1,2} \w{3} \d{4}$/)
    // Three days on, a tenth of it has reached the holders: the rate rose and less is pending.
    await rpc('evm_increaseTime', [3 * Number(DAY)])
    await rpc('evm_mine')
    t.store.dispatch(stakeRefreshRequested())
    const streamed = await waitFor(t.store, (s) => s.stake.readAt > afterEarly.stake.readAt)
    expect(BigInt(streamed.stake.pool!.rate) - BigInt(justClosed.rate)).toBeGreaterThan(feeStep / 20n)
    expect(BigInt(streamed.stake.pool!.feesStreaming)).toBeLessThan(BigInt(justClosed.feesStreaming))

    await rpc('evm_increaseTime', [18 * Number(DAY)])
    await rpc('evm_mine')
    t.store.dispatch({ type: 'stake/stakeRefreshRequested' })
    const matured = await waitFor(t.store, (s) => s.stake.userStakes.some((e) => e.id === later.id && e.fee === '0'))
    const row = matured.stake.userStakes.find((e) => e.id === later.id)!
    expect(stakeRow(row, matured.stake.pool!, matured.stake.chainTime)).toMatchObject({ status: 'Matured' })
    expect(row.forfeited).toBe('0')
    // At maturity: principal, bonus, the whole reward and the fees shared with it.
    expect(BigInt(row.amountOut)).toBe(500n * E18 + BigInt(row.bonus) + BigInt(row.reward) + BigInt(row.gains))
    balance = BigInt(matured.token.balance)
    const terms = await read(t, 1).getStake(accounts[4], later.id)
    t.store.dispatch(unstakeRequested(later.id))
    const done = await waitFor(t.store, (s) => s.stake.closing.status === 'succeeded' && BigInt(s.token.balance) > balance)
    const paid = BigInt(done.token.balance) - balance
    // The fee stream still runs, but this stake left the shares at 00:00 UTC of its release day: the close (a block
    // later than the list's read, at a higher rate) pays exactly what the list showed, gains and all.
    const [closed] = await read(t, 1).queryFilter(read(t, 1).filters.Unstaked(accounts[4], later.id))
    const closeBlock = (await t.chain.readProvider(31337).getBlock(closed.blockNumber))!
    const rateAtClose = await read(t, 1).getRate({ blockTag: closed.blockNumber })
    expect(rateAtClose).toBeGreaterThan(BigInt(matured.stake.pool!.rate))
    expect(paid).toBe(BigInt(row.amountOut))
    // Its gains stopped at its release day's rate, below the rate at the close.
    const gainsNow = unstakePreview(terms, rateAtClose, BigInt(closeBlock.timestamp)).gains
    expect(BigInt(row.gains)).toBeLessThan(gainsNow)
    expect((await read(t, 1).getStake(accounts[4], later.id)).active).toBe(false)
  })

  it('closes every matured stake, and only those, in one unstake(ids) whose payment is the previewed total to the wei', async () => {
    // Account #9: no other saga test uses it (#17 is the Activity export's). Pool 0 (version 2) shares no fees, so
    // nothing the stream releases between the read and the close's block comes on top: the close pays exactly what the
    // list was read with.
    const me = 9
    await fund(me, 1_000n)
    const t = await onStakingPage(me, 0)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    for (const days of [1, 2, 60]) {
      t.store.dispatch(depositRequested({ amount: (100n * E18).toString(), days, referral: null }))
      await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
      t.store.dispatch(depositReset())
    }
    const listed = await waitFor(t.store, (s) => s.stake.userStakes.filter((e) => e.active).length === 3)
    const idOf = (days: number) => listed.stake.userStakes.find((e) => e.holdTime === days * Number(DAY))!.id
    const [oneDay, twoDays, pending] = [idOf(1), idOf(2), idOf(60)]
    expect(selectCloseAllMatured(listed)).toBeNull()

    // Two days and a minute on, the 1- and 2-day stakes are matured; the 60-day one is not.
    await rpc('evm_increaseTime', [2 * Number(DAY) + 60])
    await rpc('evm_mine')
    t.store.dispatch(stakeRefreshRequested())
    const shown = await waitFor(t.store, (s) => selectCloseAllMatured(s)?.count === 2)
    const preview = selectCloseAllMatured(shown)!
    expect(preview.ids).toEqual([oneDay, twoDays].sort((a, b) => a - b))
    // What each of them pays, as the Lens listed it (amountOut - fee, no fee at maturity), added up.
    const lensSum = shown.stake.userStakes
      .filter((e) => preview.ids.includes(e.id))
      .reduce((n, e) => n + BigInt(e.amountOut) - BigInt(e.fee), 0n)
    expect(BigInt(preview.totalWei)).toBe(lensSum)
    expect(preview.total).toBe(formatAmount(lensSum, { symbol: 'PLT' }))

    // The dialog's network fee: the one unstake(ids), as the node estimates it.
    const provider = t.chain.readProvider(31337)
    const purpose: FeePurpose = { kind: 'closeAll', ids: preview.ids }
    t.store.dispatch(feeQuoteRequested({ key: feeQuoteKey(31337, accounts[me], purpose), purpose }))
    const quote = (await waitFor(t.store, (s) => s.wallet.feeQuote?.status === 'ready')).wallet.feeQuote!
    const data = read(t, 0).interface.encodeFunctionData('unstake', [preview.ids])
    const gas = await provider.estimateGas({ from: accounts[me], to: pool(0).address, data })
    expect(BigInt(quote.fee!)).toBe(gas * (await provider.getFeeData()).gasPrice!)

    // A pending stake among the ids (a page that sent more than it showed): refused, nothing asked of the wallet.
    const sends = () => t.wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    const sentBefore = sends()
    t.store.dispatch(modalOpened('closeAllMatured'))
    t.store.dispatch(closeAllMaturedRequested({ ids: [...preview.ids, pending] }))
    const refused = await waitFor(t.store, (s) => s.stake.closingAll.status === 'failed')
    expect(refused.stake.closingAll.error).toBe(NOT_MATURED)
    expect(sends()).toBe(sentBefore)

    // Declined in the wallet: its notice only; the dialog stays open, nothing was closed.
    t.wallet.rejectNext('eth_sendTransaction')
    t.store.dispatch(closeAllMaturedRequested({ ids: preview.ids }))
    const declined = await waitFor(t.store, (s) => s.stake.closingAll.status === 'failed')
    expect(declined.stake.closingAll.error).toBeNull()
    expect(declined.token.rejection).toBe(MESSAGES.rejected)
    expect(declined.wallet.openModal).toBe('closeAllMatured')
    expect(sends()).toBe(sentBefore + 1)
    for (const id of preview.ids) expect((await read(t, 0).getStake(accounts[me], id)).active).toBe(true)

    // Confirmed: one transaction closes exactly the matured two, and pays the previewed total to the wei.
    const token = contracts.token(deployment().contracts.token, provider)
    const [before, poolBefore] = [await token.balanceOf(accounts[me]), await token.balanceOf(pool(0).address)]
    const fromBlock = (await provider.getBlockNumber()) + 1
    const asked = sends()
    t.store.dispatch(closeAllMaturedRequested({ ids: preview.ids }))
    const done = await waitFor(t.store, (s) => s.stake.closingAll.status === 'succeeded' && s.wallet.openModal === null)
    expect(sends()).toBe(asked + 1)
    expect((await token.balanceOf(accounts[me])) - before).toBe(BigInt(preview.totalWei))
    // Both sides: the pool paid it all out of its own balance, nothing to the reservoir (no fee, nothing forfeited).
    expect(poolBefore - (await token.balanceOf(pool(0).address))).toBe(BigInt(preview.totalWei))
    const closes = await read(t, 0).queryFilter(read(t, 0).filters.Unstaked(accounts[me]), fromBlock)
    expect(closes.map((e) => Number(e.args.id))).toEqual(preview.ids)
    expect(new Set(closes.map((e) => e.transactionHash)).size).toBe(1)
    expect(done.token.transactions.filter((x) => x.kind === 'unstake').map((x) => x.status)).toContain('confirmed')
    expect((await read(t, 0).getStake(accounts[me], pending)).active).toBe(true)
    // The page reads again after the receipt: both closed, the pending one still open, nothing matured left.
    const after = await waitFor(t.store, (s) => s.stake.userStakes.filter((e) => e.active).length === 1)
    expect(after.stake.userStakes.filter((e) => e.active).map((e) => e.id)).toEqual([pending])
    expect(selectCloseAllMatured(after)).toBeNull()
  })

  it('restakes the chosen matured stakes in one restake(ids, ...): exactly the previewed amount and terms, no token leaving the pool', async () => {
    // Account #18: no other saga test uses it. Pool 0 (version 2) shares no fees: the closes pay exactly what the list
    // was read with, so the new stake's amount is the preview's to the wei.
    const me = 18
    await fund(me, 1_000n)
    const t = await onStakingPage(me, 0)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    for (const [amount, days] of [
      [100n, 1],
      [250n, 2],
      [300n, 60],
    ] as const) {
      t.store.dispatch(depositRequested({ amount: (amount * E18).toString(), days, referral: null }))
      await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
      t.store.dispatch(depositReset())
    }
    const listed = await waitFor(t.store, (s) => s.stake.userStakes.filter((e) => e.active).length === 3)
    const idOf = (days: number) => listed.stake.userStakes.find((e) => e.holdTime === days * Number(DAY))!.id
    const [oneDay, twoDays, pending] = [idOf(1), idOf(2), idOf(60)]
    // Not matured yet: nothing to plan.
    expect(selectRestakePlan([oneDay], 90)(listed)).toBeNull()

    // Two days and a minute on, the 1- and 2-day stakes are matured; the 60-day one is not. The holder restakes one.
    await rpc('evm_increaseTime', [2 * Number(DAY) + 60])
    await rpc('evm_mine')
    t.store.dispatch(stakeRefreshRequested())
    const shown = await waitFor(t.store, (s) => selectCloseAllMatured(s)?.count === 2)
    t.store.dispatch(restakeOpened({ ids: [oneDay] }))
    t.store.dispatch(modalOpened('restake'))
    const plan = selectRestakePlan([oneDay], 90)(t.store.getState())!
    const p = read(t, 0)
    // The amount: what closing it pays now, as the pool itself says (principal and bonus, no fee at maturity).
    const info = await p.getStakeInfo(accounts[me], oneDay)
    expect([info.fee, plan.amount]).toEqual([0n, info.amountOut])
    expect(plan.amount).toBe(BigInt(shown.stake.userStakes.find((e) => e.id === oneDay)!.amountOut))
    const view = selectRestakeOf(90)(t.store.getState())!
    expect([view.ids, view.amountWei]).toEqual([[oneDay], plan.amount.toString()])
    // A restake of a pending stake is not planned, nor sent: the page's action is checked, not trusted.
    const sends = () => t.wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    const sentBefore = sends()
    t.store.dispatch(restakeRequested({ ids: [oneDay, pending], days: 90, minimums: null }))
    expect((await waitFor(t.store, (s) => s.stake.restaking.status === 'failed')).stake.restaking.error).toBe(NOT_MATURED)
    expect(sends()).toBe(sentBefore)

    // The dialog's network fee: the one restake(ids, hold, maxFee, minBonus, minReward), as the node estimates it.
    const provider = t.chain.readProvider(31337)
    const purpose: FeePurpose = { kind: 'restake', ids: [oneDay], days: 90, minimums: null }
    t.store.dispatch(feeQuoteRequested({ key: feeQuoteKey(31337, accounts[me], purpose), purpose }))
    const quote = (await waitFor(t.store, (s) => s.wallet.feeQuote?.status === 'ready')).wallet.feeQuote!
    const b = plan.bounds
    const data = p.interface.encodeFunctionData('restake', [[oneDay], 90n * DAY, b.maxFee, b.minBonus, b.minReward])
    const gas = await provider.estimateGas({ from: accounts[me], to: pool(0).address, data })
    expect(BigInt(quote.fee!)).toBe(gas * (await provider.getFeeData()).gasPrice!)

    // The owner cuts the length bonus just before the holder confirms: refused before the wallet is asked, naming the
    // bonus, nothing closed or staked; the page reads the pool again at once.
    const state = await p.getPoolState()
    const params = {
      inflationPercent: state.inflationPercent,
      refererBonusPercent: state.refererBonusPercent,
      timeBonusPercent: state.timeBonusPercent,
      unHoldFee: state.unHoldFee,
      holdTimeRefMin: state.holdTimeRefMin,
      holdTimeMax: state.holdTimeMax,
    }
    const setParameters = (over: Partial<typeof params>) =>
      rpc('eth_sendTransaction', [
        {
          from: accounts[0],
          to: pool(0).address,
          data: p.interface.encodeFunctionData('setParameters', [{ ...params, ...over }]),
        },
      ])
    const count = await p.getUserStakesCount(accounts[me])
    try {
      await setParameters({ timeBonusPercent: params.timeBonusPercent / 2n })
      const cut = previewStake(
        poolMath({ ...shown.stake.pool!, timeBonusPercent: (params.timeBonusPercent / 2n).toString() }),
        plan.amount,
        90n * DAY,
        false,
      )
      const logged = await capturingLogs(async () => {
        t.store.dispatch(restakeRequested({ ids: [oneDay], days: 90, minimums: null }))
        const failed = await waitFor(t.store, (s) => s.stake.restaking.status === 'failed')
        expect(failed.stake.restaking.error).toBe(
          `The bonus is now ${formatAmount(cut.bonus)}, below the ${formatAmount(plan.bounds.minBonus)} you were shown. ` +
            'Nothing was staked; check the new figures and confirm again.',
        )
        expect(failed.wallet.openModal).toBe('restake')
        await waitFor(t.store, (s) => s.stake.pool!.timeBonusPercent === (params.timeBonusPercent / 2n).toString())
      })
      expect(logged).toEqual(['[tx] restake was not sent'])
      expect(sends()).toBe(sentBefore)
      expect([await p.getUserStakesCount(accounts[me]), (await p.getStake(accounts[me], oneDay)).active]).toEqual([count, true])
    } finally {
      await setParameters({})
    }
    const readAt = t.store.getState().stake.readAt
    t.store.dispatch(stakeRefreshRequested())
    await waitFor(
      t.store,
      (s) => s.stake.readAt > readAt && s.stake.pool!.timeBonusPercent === params.timeBonusPercent.toString(),
    )
    expect(selectRestakePlan([oneDay], 90)(t.store.getState())).toEqual(plan)

    // Declined in the wallet: its notice only; the dialog stays open, nothing was closed.
    t.wallet.rejectNext('eth_sendTransaction')
    t.store.dispatch(restakeRequested({ ids: [oneDay], days: 90, minimums: null }))
    const declined = await waitFor(t.store, (s) => s.stake.restaking.status === 'failed')
    expect(declined.stake.restaking.error).toBeNull()
    expect(declined.token.rejection).toBe(MESSAGES.rejected)
    expect(declined.wallet.openModal).toBe('restake')
    expect(sends()).toBe(sentBefore + 1)
    expect([await p.getUserStakesCount(accounts[me]), (await p.getStake(accounts[me], oneDay)).active]).toEqual([count, true])

    // Confirmed: one transaction closes exactly the chosen stake and makes one new stake of exactly the previewed
    // amount and terms; no token reaches the holder, none leaves the pool (the new stake's bonus comes in from the
    // reservoir, as any stake's).
    const token = contracts.token(deployment().contracts.token, provider)
    const [before, poolBefore] = [await token.balanceOf(accounts[me]), await token.balanceOf(pool(0).address)]
    const fromBlock = (await provider.getBlockNumber()) + 1
    t.store.dispatch(restakeRequested({ ids: [oneDay], days: 90, minimums: null }))
    const done = await waitFor(t.store, (s) => s.stake.restaking.status === 'succeeded' && s.wallet.openModal === null)
    expect(sends()).toBe(sentBefore + 2)
    expect(await token.balanceOf(accounts[me])).toBe(before)
    expect((await token.balanceOf(pool(0).address)) - poolBefore).toBe(plan.bounds.minBonus + plan.bounds.minReward)
    const [closes, staked, restaked] = await Promise.all([
      p.queryFilter(p.filters.Unstaked(accounts[me]), fromBlock),
      p.queryFilter(p.filters.Staked(accounts[me]), fromBlock),
      p.queryFilter(p.filters.Restaked(accounts[me]), fromBlock),
    ])
    expect(closes.map((e) => Number(e.args.id))).toEqual([oneDay])
    expect([staked.length, restaked.length]).toEqual([1, 1])
    expect(new Set([...closes, ...staked, ...restaked].map((e) => e.transactionHash)).size).toBe(1)
    const newId = restaked[0].args.id
    expect([restaked[0].args.ids.map(Number), restaked[0].args.amount, newId]).toEqual([[oneDay], plan.amount, count])
    const made = await p.getStake(accounts[me], newId)
    expect([made.active, made.stakeAmount, made.holdTime, made.bonus, made.reward, made.unHoldFee]).toEqual([
      true,
      plan.amount,
      90n * DAY,
      plan.bounds.minBonus,
      plan.bounds.minReward,
      plan.bounds.maxFee,
    ])
    expect(plan.bounds.minBonus).toBe(plan.preview.bonusWanted)
    expect(done.token.transactions.filter((x) => x.kind === 'restake').map((x) => x.status)).toContain('confirmed')
    // The others stay as they were: the other matured stake and the pending one still open.
    expect((await Promise.all([twoDays, pending].map((id) => p.getStake(accounts[me], id)))).map((s) => s.active)).toEqual([
      true,
      true,
    ])
    // The page reads again after the receipt: the chosen stake closed, the new one listed and pending.
    const after = await waitFor(t.store, (s) => s.stake.userStakes.some((e) => e.id === Number(newId)))
    const active = after.stake.userStakes.filter((e) => e.active).map((e) => e.id)
    expect(active.sort((x, y) => x - y)).toEqual([twoDays, pending, Number(newId)].sort((x, y) => x - y))
    expect(selectCloseAllMatured(after)?.ids).toEqual([twoDays])
  })

  it("in a version 1 pool, restakes a matured stake for what the pool pays, its gains stopped at its release day's rate", async () => {
    // The seeded holder (#0) has matured stakes in pool 1, which streams early-close fees; nothing is sent here.
    const t = await onStakingPage(0, 1)
    const s = t.store.getState()
    const matured = s.stake.userStakes.filter((e) => e.active && s.stake.chainTime >= e.stakeTime + e.holdTime)
    expect(matured.length).toBeGreaterThan(0)
    for (const e of matured) {
      const plan = selectRestakePlan([e.id], 90)(s)!
      const info = await read(t, 1).getStakeInfo(accounts[0], e.id, { blockTag: s.stake.blockNumber! })
      expect(plan.amount).toBe(info.amountOut - info.fee)
      // The node takes the restake on the bounds of that amount's preview (an estimate: nothing is sent).
      const purpose: FeePurpose = { kind: 'restake', ids: [e.id], days: 90, minimums: null }
      const key = feeQuoteKey(31337, accounts[0], purpose)
      t.store.dispatch(feeQuoteRequested({ key, purpose }))
      const quoted = await waitFor(t.store, (x) => x.wallet.feeQuote?.key === key && x.wallet.feeQuote.status !== 'pending')
      expect([quoted.wallet.feeQuote!.status, quoted.wallet.feeQuote!.error]).toEqual(['ready', null])
    }
  })

  it('stakes on lower terms only with the minimums the preview showed when the reservoir runs short', async () => {
    const me = 7
    await fund(me, 2_000n)
    const t = await onStakingPage(me, 1)
    t.store.dispatch(approveRequested({ amount: UNLIMITED }))
    await waitFor(t.store, (s) => pageAllowance(s) === UNLIMITED && !s.stake.approving)
    const amount = 100n * E18
    // 100 for 365 days wants a 10 bonus and a 400 reward; the owner lets the pool draw only 50 from the reservoir.
    const short = 50n * E18
    const refreshed = async (available: bigint) => {
      const readAt = t.store.getState().stake.readAt
      t.store.dispatch(stakeRefreshRequested())
      return waitFor(t.store, (s) => s.stake.readAt > readAt && s.stake.pool!.reservoirAvailable === available.toString())
    }
    const before = await read(t, 1).getUserStakesCount(accounts[me])
    try {
      await allowReservoir(1, short)
      const s = await refreshed(short)
      const preview = depositPreview(s.stake.pool!, amount, 365, false)
      const model = previewStake(poolMath(s.stake.pool!), amount, 365n * DAY, false)
      expect(preview.shortfall).toMatchObject({ funded: '50.00', wanted: '410.00', bonusCut: false, rewardCut: true })
      expect(preview.shortfall!.minimums).toEqual({ bonus: model.bonus.toString(), reward: model.reward.toString() })

      // The full terms (stake(amount, hold)): the pool refuses, the modal stays open with the reason, loading ends,
      // and the page reads the pool again at once.
      t.store.dispatch(modalOpened('deposit'))
      const logged = await capturingLogs(async () => {
        t.store.dispatch(depositRequested({ amount: amount.toString(), days: 365, referral: null }))
        const failed = await waitFor(t.store, (x) => x.stake.deposit.status === 'failed')
        expect(failed.stake.deposit.error).toBe(
          `The reward reservoir can no longer fund this stake's full bonus and reward: it can fund a bonus of ${formatAmount(
            model.bonus,
          )} and a reward of ${formatAmount(model.reward)}. Nothing was staked; check the new figures and try again.`,
        )
        expect(failed.wallet.openModal).toBe('deposit')
        await waitFor(t.store, (x) => x.stake.readAt > failed.stake.readAt)
      })
      expect(logged).toEqual(['[tx] stake was not sent'])
      expect(await read(t, 1).getUserStakesCount(accounts[me])).toBe(before)

      // Accepted minimums protect the person: if the reservoir is emptied further before the stake lands, it is refused
      // instead of getting less than they accepted.
      await allowReservoir(1, short / 2n)
      t.store.dispatch(depositReset())
      const refused = await capturingLogs(async () => {
        t.store.dispatch(
          depositRequested({ amount: amount.toString(), days: 365, referral: null, minimums: preview.shortfall!.minimums }),
        )
        const failed = await waitFor(t.store, (x) => x.stake.deposit.status === 'failed')
        expect(failed.stake.deposit.error).toMatch(/^The reward reservoir can no longer fund this stake's full bonus/)
      })
      expect(refused).toEqual(['[tx] stake was not sent'])
      expect(await read(t, 1).getUserStakesCount(accounts[me])).toBe(before)

      // With the minimums the current preview shows (stake(amount, hold, 0, minBonus, minReward)): staked on exactly
      // those terms.
      const now = await refreshed(short / 2n)
      const accepted = depositPreview(now.stake.pool!, amount, 365, false).shortfall!.minimums
      t.store.dispatch(depositReset())
      t.store.dispatch(depositRequested({ amount: amount.toString(), days: 365, referral: null, minimums: accepted }))
      // Staked, and the modal closes.
      await waitFor(t.store, (x) => x.stake.deposit.status === 'succeeded' && x.wallet.openModal === null)
      const stake = await read(t, 1).getStake(accounts[me], before)
      expect([stake.stakeAmount, stake.holdTime, stake.bonus, stake.reward]).toEqual([
        amount,
        365n * DAY,
        BigInt(accepted.bonus),
        BigInt(accepted.reward),
      ])
      // 25 funded: the whole 10 bonus first, the reward gets the 15 left.
      expect([stake.bonus, stake.reward]).toEqual([10n * E18, 15n * E18])
    } finally {
      await allowReservoir(1, MaxUint256)
    }
  })

  it('stakes in one signature: a permit for the amount, then stakeWithPermit on the terms shown, leaving no allowance', async () => {
    const me = 13
    await fund(me, 300n)
    const t = await onStakingPage(me, 1)
    const before = await read(t, 1).getUserStakesCount(accounts[me])
    const token = contracts.token(deployment().contracts.token, t.chain.readProvider(31337))
    expect(await token.allowance(accounts[me], pool(1).address)).toBe(0n)
    t.store.dispatch(depositWithPermitRequested({ amount: (250n * E18).toString(), days: 90, referral: null }))
    const done = await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    expect(done.wallet.openModal).toBeNull()
    const stake = await read(t, 1).getStake(accounts[me], before)
    const shown = previewStake(poolMath(t.store.getState().stake.pool!), 250n * E18, 90n * DAY, false)
    expect([stake.stakeAmount, stake.holdTime, stake.bonus, stake.reward]).toEqual([
      250n * E18,
      90n * DAY,
      shown.bonus,
      shown.reward,
    ])
    expect(await token.allowance(accounts[me], pool(1).address)).toBe(0n)
  })

  it('Sign and stake: the wallet can sign, Sign keeps the permit, the fee is the stakeWithPermit, one signature and one send', async () => {
    const me = 14
    await fund(me, 300n)
    const t = await onStakingPage(me, 1)
    // The dialog opens: an account without code, a token with permits.
    t.store.dispatch(allowanceCheckRequested())
    await waitFor(t.store, (s) => selectCanSignPermit(s))
    const amount = (120n * E18).toString()
    t.store.dispatch(permitSignRequested({ amount }))
    const signed = await waitFor(t.store, (s) => !s.stake.signing && selectPermitFor(amount)(s) !== null)
    const permit = signed.stake.permit!
    // Signing sent nothing: no transaction, no allowance yet.
    const token = contracts.token(deployment().contracts.token, t.chain.readProvider(31337))
    expect(await token.allowance(accounts[me], pool(1).address)).toBe(0n)
    expect(t.wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toEqual([])
    // The fee of the very transaction Confirm sends: the node estimates stakeWithPermit with this signature.
    const purpose = { kind: 'permitStake' as const, amount, days: 60, referral: null, minimums: null, permit }
    t.store.dispatch(feeQuoteRequested({ key: 'permit-quote', purpose }))
    const quoted = await waitFor(
      t.store,
      (s) => s.wallet.feeQuote?.key === 'permit-quote' && s.wallet.feeQuote.status !== 'pending',
    )
    expect(quoted.wallet.feeQuote!.status).toBe('ready')
    expect(BigInt(quoted.wallet.feeQuote!.fee!)).toBeGreaterThan(0n)
    const before = await read(t, 1).getUserStakesCount(accounts[me])
    t.store.dispatch(depositWithPermitRequested({ amount, days: 60, referral: null }))
    await waitFor(t.store, (s) => s.stake.deposit.status === 'succeeded')
    const methods = t.wallet.requests.map((r) => r.method)
    expect(methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(1)
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1)
    expect((await read(t, 1).getStake(accounts[me], before)).stakeAmount).toBe(120n * E18)
    expect(await token.allowance(accounts[me], pool(1).address)).toBe(0n)
  })

  it('Sign declined: nothing kept, nothing said but the notice; the permit of another amount is not used', async () => {
    const me = 14
    const t = await onStakingPage(me, 1)
    t.wallet.rejectNext('eth_signTypedData_v4')
    t.store.dispatch(permitSignRequested({ amount: (5n * E18).toString() }))
    const s = await waitFor(t.store, (st) => !st.stake.signing)
    expect([s.stake.permit, s.stake.signError]).toEqual([null, null])
    expect(selectPermitFor((6n * E18).toString())(s)).toBeNull()
  })

  it('pauses the 15 s update at its first error, says so, keeps the figures, and resumes by itself when the node is back', async () => {
    await withFaultProxy(
      CHAIN_URL(),
      { STAKING_REFRESH_MS: 100, RETRY_FIRST_MS: 100, RETRY_MAX_MS: 300, RPC_TIMEOUT_MS: 400 },
      async (proxy) => {
        const { value: t, logged } = await capturing(async () => {
          const t = await onStakingPage(1, 1, proxy.url)
          const shown = t.store.getState().stake
          expect(shown.listStatus).toBe('ok')
          // The node's RPC hangs: each read times out, the auto-update pauses and retries with backoff.
          proxy.setFault('hang')
          const paused = await waitFor(t.store, (s) => s.stake.autoUpdate === 'paused' && s.stake.status === 'failed')
          expect(paused.stake.error).toBe('The network did not answer in time.')
          expect(paused.stake.retryAt).toBeGreaterThan(Date.now() - 1_000)
          // What was read stays on screen, marked with its block.
          expect(paused.stake.pool).toEqual(shown.pool)
          expect(paused.stake.userStakes).toEqual(shown.userStakes)
          expect(paused.stake.blockNumber).toBe(shown.blockNumber)
          // Then it refuses connections: still paused, still retrying.
          proxy.setFault('down')
          await waitFor(t.store, (s) => s.stake.error === "Can't reach the network.")
          proxy.setFault('none')
          await rpc('evm_mine')
          await waitFor(t.store, (s) => s.stake.autoUpdate === 'running' && s.stake.status === 'succeeded')
          return t
        })
        expect(logged).toContain('[stake] pool read failed')
        expect(logged).toContain('[stake] auto-update paused at its first error; retrying with backoff')
        // Running again every 100 ms.
        const again = t.store.getState().stake.readAt
        await waitFor(t.store, (s) => s.stake.readAt > again && s.stake.error === null)
      },
    )
  })

  it('shows a stake list read failure as an error with the rows kept, never as an empty list, and recovers on Retry', async () => {
    const proxy = await startRpcProxy(CHAIN_URL())
    const selector = contracts
      .lens(deployment().contracts.lens, null as never)
      .interface.getFunction('getUnstakeDataPage')!.selector
    try {
      const t = await onStakingPage(0, 1, proxy.url)
      const rows = t.store.getState().stake.userStakes
      expect(rows.length).toBeGreaterThan(0)
      // The node refuses the list's Lens call (as one past its gas cap); the pool read in the same batch still answers.
      proxy.failCalls(selector)
      const { logged } = await capturing(async () => {
        const readAt = t.store.getState().stake.readAt
        t.store.dispatch(stakeRefreshRequested())
        await waitFor(t.store, (s) => s.stake.listStatus === 'failed' && s.stake.readAt > readAt)
      })
      expect(logged).toContain('[stake] stake list read failed')
      const failed = t.store.getState().stake
      expect(failed.listError).toBe('The network refused the read.')
      expect(failed.userStakes).toEqual(rows)
      expect(failed.status).toBe('succeeded')
      // A new wallet's first read fails the same way: no rows, and the list is 'failed', not empty and 'ok'.
      t.wallet.switchAccount(accounts[2])
      await capturing(() => waitFor(t.store, (s) => s.wallet.address === accounts[2] && s.stake.listStatus === 'failed'))
      expect(t.store.getState().stake.userStakes).toEqual([])
      proxy.failCalls(null)
      t.store.dispatch(stakeRefreshRequested())
      const back = await waitFor(t.store, (s) => s.stake.listStatus === 'ok')
      expect(back.stake.userStakes.length).toBeGreaterThan(0)
    } finally {
      await proxy.stop()
    }
  })
})

describe('the network fee a dialog shows before Confirm, against the node', () => {
  it('quotes the approval from the wallet (estimate × gas price) and says when the balance cannot pay it', async () => {
    // Account #13: no other saga test uses it, and its balance is put back after.
    const me = accounts[13]
    const t = await onStakingPage(13, 1)
    const purpose: FeePurpose = { kind: 'approve', amount: UNLIMITED }
    const key = feeQuoteKey(31337, me, purpose)
    t.store.dispatch(feeQuoteRequested({ key, purpose }))
    const q = (await waitFor(t.store, (s) => s.wallet.feeQuote?.status === 'ready')).wallet.feeQuote!
    // The node's own figures for the same call: the quote is the estimate at the current gas price.
    const provider = t.chain.readProvider(31337)
    const token = contracts.token(deployment().contracts.token, provider)
    const data = token.interface.encodeFunctionData('approve', [pool(1).address, BigInt(UNLIMITED)])
    const gas = await provider.estimateGas({ from: me, to: deployment().contracts.token, data })
    const { gasPrice, maxFeePerGas } = await provider.getFeeData()
    expect(q.key).toBe(key)
    expect(BigInt(q.fee!)).toBe(gas * gasPrice!)
    // What the wallet wants covered: the gas limit the app sets (estimate + 20%) at the most per gas.
    expect(BigInt(q.need!)).toBe((gas + (gas * 20n) / 100n) * maxFeePerGas!)
    expect(q.balance).toBe((await provider.getBalance(me)).toString())
    expect(cannotPayFee(q)).toBe(false)

    const saved = (await rpc('eth_getBalance', [me, 'latest'])) as string
    try {
      await rpc('hardhat_setBalance', [me, `0x${(BigInt(q.need!) - 1n).toString(16)}`])
      t.store.dispatch(feeQuoteRequested({ key, purpose }))
      const short = (await waitFor(t.store, (s) => s.wallet.feeQuote?.balance === (BigInt(q.need!) - 1n).toString())).wallet
        .feeQuote!
      expect(cannotPayFee(short)).toBe(true)
    } finally {
      await rpc('hardhat_setBalance', [me, saved])
    }
  })

  it('gives the reason instead of a figure when the node refuses what would be sent', async () => {
    const t = await onStakingPage(13, 1)
    // A close of a stake this wallet does not have: the simulation reverts.
    const purpose: FeePurpose = { kind: 'close', id: 999 }
    t.store.dispatch(feeQuoteRequested({ key: feeQuoteKey(31337, accounts[13], purpose), purpose }))
    const q = (await waitFor(t.store, (s) => s.wallet.feeQuote?.status === 'failed')).wallet.feeQuote!
    expect(q.fee).toBeNull()
    expect(q.error).toMatch(/\w/)
    expect(cannotPayFee(q)).toBe(false)
  })
})
