import { getAddress, JsonRpcProvider, NonceManager, Wallet, ZeroAddress, ZeroHash, id } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import { TimelockController__factory } from '../../src/chain/types'
import { devAccountKey } from '../../src/domain/devAccounts'
import { selectScheduledCalls } from '../../src/features/token/selectors'
import { scheduledCallsRequested } from '../../src/features/token/slice'
import { connectRequested } from '../../src/features/wallet/slice'
import { describeScheduled } from '../../src/format/poolTerms'
import { CHAIN_URL, deployment, installInjectedWallet, makeTestStore, nodeAccounts, waitFor } from '../support/sagaStore'

const E18 = 10n ** 18n
const DELAY = 2 * 86_400
const ME = 16

let accounts: string[]
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

describe('owner calls a timelock has scheduled, read from the chain for the dialogs', () => {
  it('lists the calls still pending for the pool, decoded, from when they can run; not cancelled ones or other targets', async () => {
    const provider = new JsonRpcProvider(CHAIN_URL(), 31337, { staticNetwork: true, cacheTimeout: -1 })
    const owner = new NonceManager(new Wallet(devAccountKey(ME), provider))
    const startBlock = await provider.getBlockNumber()
    const timelock = await new TimelockController__factory(owner).deploy(DELAY, [accounts[ME]], [ZeroAddress], ZeroAddress)
    await timelock.waitForDeployment()
    const [pool1, pool0] = [1, 0].map((i) => deployment().pools.find((p) => p.id === i)!.address)
    const poolAbi = contracts.pool(pool1).interface
    const state = await contracts.pool(pool1, provider).getPoolState()
    const params = {
      inflationPercent: 0n,
      refererBonusPercent: state.refererBonusPercent,
      timeBonusPercent: 0n,
      unHoldFee: 50n * E18,
      holdTimeRefMin: state.holdTimeRefMin,
      holdTimeMax: state.holdTimeMax,
    }
    const schedule = async (target: string, data: string, salt: string) => {
      const tx = await timelock.schedule(target, 0, data, ZeroHash, id(salt), DELAY)
      const receipt = (await tx.wait())!
      return (await provider.getBlock(receipt.blockNumber))!.timestamp + DELAY
    }
    const feeAt = await schedule(pool1, poolAbi.encodeFunctionData('setParameters', [params]), 'fee')
    await schedule(pool1, poolAbi.encodeFunctionData('setStakingPaused', [true]), 'pause')
    await schedule(pool0, poolAbi.encodeFunctionData('setStakingPaused', [true]), 'other pool')
    // The pause is cancelled again: it no longer shows.
    const pauseId = await timelock.hashOperation(
      pool1,
      0,
      poolAbi.encodeFunctionData('setStakingPaused', [true]),
      ZeroHash,
      id('pause'),
    )
    await (await timelock.cancel(pauseId)).wait()

    const wallet = installInjectedWallet(accounts[ME])
    const { store } = makeTestStore({ injected: wallet, record: { timelock: await timelock.getAddress(), startBlock } })
    store.dispatch(connectRequested('browser'))
    await waitFor(store, (s) => s.wallet.address === accounts[ME])
    store.dispatch(scheduledCallsRequested({ target: pool1 }))
    const s = await waitFor(store, (s) => s.token.scheduled.byTarget[pool1.toLowerCase()] !== undefined)
    const calls = selectScheduledCalls(s, pool1)
    expect(calls).toEqual([
      {
        id: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        readyAt: feeAt,
        fn: 'setParameters',
        args: { params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.toString()])) },
      },
    ])
    // What the deposit dialog shows for it, against the pool's figures today (100% fee, 30% bonus, 400% inflation).
    expect(
      describeScheduled(calls, {
        unHoldFee: state.unHoldFee.toString(),
        timeBonusPercent: state.timeBonusPercent.toString(),
        inflationPercent: state.inflationPercent.toString(),
        refererBonusPercent: state.refererBonusPercent.toString(),
        holdTimeRefMin: Number(state.holdTimeRefMin),
        holdTimeMax: Number(state.holdTimeMax),
      }),
    ).toEqual([
      expect.stringMatching(
        /^From \d+ \w{3} \d{4} \d\d:\d\d UTC: inflation 0% a year, length bonus at the longest hold 0%, early-close fee 50%$/,
      ),
    ])
    // The store holds plain JSON only.
    expect(JSON.parse(JSON.stringify(s.token.scheduled))).toEqual(s.token.scheduled)
  })

  it('without a timelock in the deployment record (the local chain) there is nothing scheduled', async () => {
    const wallet = installInjectedWallet(accounts[ME])
    const { store } = makeTestStore({ injected: wallet })
    store.dispatch(connectRequested('browser'))
    await waitFor(store, (s) => s.wallet.address === accounts[ME])
    const pool1 = deployment().pools.find((p) => p.id === 1)!.address
    store.dispatch(scheduledCallsRequested({ target: pool1 }))
    const s = await waitFor(store, (s) => s.token.scheduled.byTarget[pool1.toLowerCase()] !== undefined)
    expect(selectScheduledCalls(s, pool1)).toEqual([])
  })
})
