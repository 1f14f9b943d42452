import fs from 'node:fs'
import path from 'node:path'
import { getAddress } from 'ethers'
import { rootReducer, type RootState } from '../../src/app/store'
import { contracts } from '../../src/chain/contracts'
import { DAY } from '../../src/domain/math'
import { selectSelectedTerm } from '../../src/features/vesting/selectors'
import {
  approveRequested,
  depositRequested,
  poolSelected,
  stakingPageOpened,
  unstakeRequested,
} from '../../src/features/stake/slice'
import { selectAllowance } from '../../src/features/token/selectors'
import {
  claimPageClosed,
  claimPageOpened,
  claimRequested,
  stakingRequested,
  vestingRefreshRequested,
} from '../../src/features/vesting/slice'
import { connectRequested, modalOpened } from '../../src/features/wallet/slice'
import { allocationsFile, startTestApi, QUICK_CLOSE_MS } from '../support/api'
import { notJsonAt, sessionRecorder } from '../support/sessionRecorder'
import {
  capturingLogs,
  deployment,
  installInjectedWallet,
  makeTestStore,
  nodeAccounts,
  rpc,
  waitFor,
  withFaultProxy,
} from '../support/sagaStore'

const E18 = 10n ** 18n
/** An account no other saga test uses, with an allocation of its own, so the session's figures are its alone. */
const ME = 15

let accounts: string[]
let api: Awaited<ReturnType<typeof startTestApi>>
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
  const local = JSON.parse(fs.readFileSync(path.join(process.env.TEST_DEPLOYMENTS_DIR!, 'allocations.31337.json'), 'utf8'))
  local.allocations[accounts[ME]] = { round: 'Seed', amount: (10_000n * E18).toString() }
  api = await startTestApi({ allocationsFile: allocationsFile(local), idleTimeoutMs: QUICK_CLOSE_MS })
})
afterAll(async () => {
  await api.app.close()
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

const loaded = (s: RootState) => s.vesting.status === 'succeeded' && s.vesting.lastClaimedBlock !== null

/** The whole session a holder has in one visit, recorded as Redux DevTools would export it. */
async function recordSession() {
  const recorder = sessionRecorder()
  const token = contracts.token(deployment().contracts.token)
  await rpc('eth_sendTransaction', [
    {
      from: accounts[0],
      to: deployment().contracts.token,
      data: token.interface.encodeFunctionData('transfer', [accounts[ME], 1_000n * E18]),
    },
  ])
  await withFaultProxy(api.url, { RETRY_FIRST_MS: 100, RETRY_MAX_MS: 200 }, async (proxy) => {
    const wallet = installInjectedWallet(accounts[ME])
    const { store } = makeTestStore({ injected: wallet, apiUrl: proxy.url, enhancer: recorder.enhancer })

    // Connect, open the claim page and claim to the wallet.
    store.dispatch(connectRequested('browser'))
    store.dispatch(claimPageOpened())
    await waitFor(store, (s) => s.wallet.address === accounts[ME] && loaded(s) && BigInt(s.vesting.info.unlocked) > 0n)
    store.dispatch(claimRequested())
    await waitFor(store, (s) => s.vesting.claim.status === 'succeeded')
    await waitFor(store, (s) => loaded(s) && s.vesting.info.unlocked === '0')

    // A month on, claim the next step into a stake with the default term.
    await rpc('evm_increaseTime', [31 * 86_400])
    await rpc('evm_mine')
    store.dispatch(vestingRefreshRequested())
    await waitFor(store, (s) => loaded(s) && BigInt(s.vesting.info.unlocked) > 0n)
    store.dispatch(stakingRequested({ hold: selectSelectedTerm(store.getState())!.hold }))
    await waitFor(store, (s) => s.vesting.claim.status === 'succeeded')
    store.dispatch(claimPageClosed())

    // The staking page: approve, stake, then close that stake early.
    const poolId = deployment().defaultPoolId
    store.dispatch(poolSelected(poolId))
    store.dispatch(stakingPageOpened())
    await waitFor(store, (s) => s.stake.status === 'succeeded' && s.stake.pool?.id === poolId)
    const poolAddress = store.getState().stake.pool!.address
    store.dispatch(modalOpened('deposit'))
    store.dispatch(approveRequested({ amount: (100n * E18).toString() }))
    await waitFor(store, (s) => selectAllowance(s, poolAddress) === (100n * E18).toString() && !s.stake.approving)
    store.dispatch(depositRequested({ amount: (100n * E18).toString(), days: 30, referral: null }))
    await waitFor(store, (s) => s.stake.deposit.status === 'succeeded')
    const mine = (s: RootState) =>
      s.stake.userStakes.find((e) => e.stakeAmount === (100n * E18).toString() && e.holdTime === 30 * Number(DAY))
    const staked = await waitFor(store, (s) => mine(s)?.active === true)
    store.dispatch(unstakeRequested(mine(staked)!.id))
    await waitFor(store, (s) => s.stake.closing.status === 'succeeded' && mine(s)?.active === false)

    // Back on the claim page, the vesting API goes down and comes back; the page recovers by itself.
    store.dispatch(claimPageOpened())
    await waitFor(store, loaded)
    proxy.setFault('down')
    await capturingLogs(async () => {
      store.dispatch(vestingRefreshRequested())
      await waitFor(store, (s) => s.vesting.status === 'failed' && s.vesting.retryAt !== null)
    })
    proxy.setFault('none')
    await waitFor(store, (s) => s.vesting.status === 'succeeded' && s.vesting.retryAt === null)
    store.close()
  })
  return recorder.session
}

describe('a whole session replays from its actions alone (Redux DevTools export and import)', () => {
  it('reaches the same state after every action, replayed on another day, and every action and state is JSON', async () => {
    const session = await recordSession()
    const types = new Set(session.steps.map((s) => s.action.type))
    for (const t of [
      'wallet/connectRequested',
      'vesting/claimRequested',
      'vesting/stakingRequested',
      'vesting/vestingLoaded',
      'vesting/vestingFailed',
      'stake/approveRequested',
      'stake/depositRequested',
      'stake/unstakeRequested',
    ])
      expect(types).toContain(t)

    for (const [i, step] of session.steps.entries()) {
      expect([i, step.action.type, notJsonAt(step.action)]).toEqual([i, step.action.type, null])
      expect([i, step.action.type, notJsonAt(step.state)]).toEqual([i, step.action.type, null])
    }

    // DevTools exports JSON and imports it later: the replay sees only the parsed actions, at another time.
    const exported = JSON.parse(JSON.stringify({ initial: session.initial, actions: session.steps.map((s) => s.action) }))
    jest.useFakeTimers({ now: Date.now() + 86_400_000 })
    try {
      let state = exported.initial as RootState
      for (const [i, action] of (exported.actions as { type: string }[]).entries()) {
        state = rootReducer(state, action)
        // Compared as DevTools would show them: JSON.
        expect([i, action.type, JSON.parse(JSON.stringify(state))]).toEqual([
          i,
          action.type,
          JSON.parse(JSON.stringify(session.steps[i].state)),
        ])
      }
    } finally {
      jest.useRealTimers()
    }
  })
})
