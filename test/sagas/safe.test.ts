import fs from 'node:fs'
import path from 'node:path'
import { getAddress, JsonRpcProvider, Wallet } from 'ethers'
import { setTimers, timers } from '../../src/config/timers'
import { contracts } from '../../src/chain/contracts'
import { statusOf, type SafeApp } from '../../src/chain/safeApp'
import type { SafeCall } from '../../src/chain/safe'
import { approveRequested, poolSelected, stakingPageOpened } from '../../src/features/stake/slice'
import { claimPageOpened, claimRequested } from '../../src/features/vesting/slice'
import { connectRequested } from '../../src/features/wallet/slice'
import { selectNotices } from '../../src/features/token/selectors'
import { createMemoryEnv } from '../../src/platform/browserEnv'
import type { RootState } from '../../src/app/store'
import {
  createSafe,
  deploySafeContracts,
  executeSafeTx,
  safeTxFor,
  signSafeTx,
  type SafeDeployment,
} from '../../scripts/lib/safe'
import { SafeHostBackend } from '../../scripts/lib/safeHost'
import { TestWallet } from '../../scripts/lib/testWallet'
import { allocationsFile, startTestApi, QUICK_CLOSE_MS } from '../support/api'
import { CHAIN_URL, deployment, makeTestStore, nodeAccounts, rpc, waitFor } from '../support/sagaStore'

const E18 = 10n ** 18n
const provider = () => new JsonRpcProvider(CHAIN_URL(), 31337, { staticNetwork: true, cacheTimeout: -1 })

let accounts: string[]
let dep: SafeDeployment
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
  dep = await deploySafeContracts(await provider().getSigner(accounts[19]))
})
afterEach(() => {
  delete (globalThis as { window?: unknown }).window
})

/** A key with 10 ETH that no other test uses. */
async function freshKey(): Promise<Wallet> {
  const key = Wallet.createRandom()
  await rpc('hardhat_setBalance', [key.address, `0x${(10n * E18).toString(16)}`])
  return new Wallet(key.privateKey, provider())
}

/** A real Safe 1.5 with two owners and threshold 2, and Safe{Wallet}'s side of it (proposals, confirmations). */
async function twoOwnerSafe() {
  const [alice, bob, executor] = [await freshKey(), await freshKey(), await freshKey()]
  const address = await createSafe(dep, executor, [alice.address, bob.address], 2)
  const backend = new SafeHostBackend({
    appUrl: 'http://127.0.0.1:1/',
    chainUrl: CHAIN_URL(),
    chainId: 31337,
    safe: address,
    owners: [alice, bob],
    threshold: 2,
    executor,
    multiSendCallOnly: dep.multiSendCallOnly,
  })
  const ask = async <T>(method: string, params: unknown): Promise<T> => {
    const answer = await backend.handle({ id: method, method, params, env: { sdkVersion: '9.1.0' } } as never)
    if (!answer.success) throw new Error(String(answer.error))
    return answer.data as T
  }
  return { address, owners: [alice, bob], executor, backend, ask }
}
type TestSafe = Awaited<ReturnType<typeof twoOwnerSafe>>

/** PLT from the seeded holder #0 to `to`. */
async function fund(to: string, tokens: bigint) {
  const token = contracts.token(deployment().contracts.token)
  await rpc('eth_sendTransaction', [
    {
      from: accounts[0],
      to: deployment().contracts.token,
      data: token.interface.encodeFunctionData('transfer', [to, tokens * E18]),
    },
  ])
}

/**
 * The Safe over WalletConnect, as the app meets it: an EIP-1193 wallet whose account is the Safe, and whose
 * eth_sendTransaction proposes a Safe transaction and answers with its safeTxHash (not a chain transaction).
 */
class SafeOverWalletConnect extends TestWallet {
  constructor(private readonly safe: TestSafe) {
    super(CHAIN_URL(), { account: safe.address })
  }

  async request(req: { method: string; params?: unknown }): Promise<unknown> {
    if (req.method !== 'eth_sendTransaction') return super.request(req)
    this.requests.push(req)
    const [tx] = req.params as [{ to: string; data: string }]
    return (await this.safe.ask<{ safeTxHash: string }>('sendTransactions', { txs: [{ to: tx.to, value: '0', data: tx.data }] }))
      .safeTxHash
  }
}

/** Safe{Wallet} around the app as the Safe App SDK would reach it: the provider the connector uses, the channel. */
function safeAppOf(safe: TestSafe): SafeApp {
  const account = { address: safe.address, threshold: 2, owners: 2 }
  return {
    provider: {
      request: async ({ method }: { method: string }) => {
        if (method === 'eth_accounts') return [safe.address]
        if (method === 'eth_chainId') return '0x7a69'
        throw new Error(`${method} is not expected here`)
      },
      on: () => undefined,
      removeListener: () => undefined,
    } as never,
    channel: {
      account,
      chainId: 31337,
      propose: async (calls: SafeCall[]) =>
        (
          await safe.ask<{ safeTxHash: string }>('sendTransactions', {
            txs: calls.map((c) => ({ to: c.to, value: '0', data: c.data })),
          })
        ).safeTxHash.toLowerCase(),
      status: async (safeTxHash: string) => statusOf(await safe.ask('getTxBySafeTxHash', { safeTxHash }), 2),
    },
  }
}

const pending = (s: RootState) => selectNotices(s).find((n) => n.status === 'pending')

describe('a Safe multisig as the wallet, against a real Safe 1.5 on the node', () => {
  const saved = { ...timers }
  afterEach(() => setTimers(saved))

  it('over WalletConnect: a proposal waits for its owners past the drop time, survives a reload, then runs', async () => {
    // A plain send unknown to the node this long counts as dropped: a Safe transaction waiting for owners must not.
    setTimers({ TX_FORGOTTEN_MS: 100, SAFE_POLL_MS: 50 })
    const safe = await twoOwnerSafe()
    const wallet = new SafeOverWalletConnect(safe)
    // The injected connector finds it where a wallet's provider sits.
    Object.assign(globalThis, { window: { ethereum: wallet, addEventListener() {}, removeEventListener() {} } })
    const pool = deployment().pools.find((p) => p.id === deployment().defaultPoolId)!
    const first = makeTestStore({ injected: wallet })
    first.store.dispatch(connectRequested('browser'))
    await waitFor(first.store, (s) => s.wallet.safe !== null)
    expect(first.store.getState().wallet.safe).toEqual({ address: safe.address, threshold: 2, owners: 2 })
    first.store.dispatch(poolSelected(pool.id))
    first.store.dispatch(stakingPageOpened())
    await waitFor(first.store, (s) => s.stake.status === 'succeeded')

    first.store.dispatch(approveRequested({ amount: (25n * E18).toString() }))
    // Proposed: the approval settles at once (nothing to wait for here), and the notice waits for the owners.
    await waitFor(first.store, (s) => !s.stake.approving && pending(s)?.title === "Waiting for the Safe's owners")
    const [proposal] = safe.backend.proposals()
    await waitFor(first.store, (s) => pending(s)?.detail === 'it needs 2 owner confirmations in the Safe before it runs')
    await new Promise((r) => setTimeout(r, 400))
    expect(pending(first.store.getState())).toMatchObject({ hash: proposal.safeTxHash, explorerName: 'Safe transaction' })
    first.store.close()

    // A reload: the same browser's journal finds it, and follows it again.
    const env = createMemoryEnv({ injected: wallet, storage: first.env.stored })
    const second = makeTestStore({ env })
    second.store.dispatch(connectRequested('browser'))
    await waitFor(second.store, (s) => pending(s)?.hash === proposal.safeTxHash && pending(s)?.restored === true)
    await safe.backend.confirm(proposal.safeTxHash, safe.owners[1])
    const executed = await safe.backend.execute(proposal.safeTxHash)
    const done = await waitFor(second.store, (s) => s.token.transactions.some((t) => t.status === 'confirmed'))
    expect(done.token.transactions).toEqual([
      expect.objectContaining({ hash: executed.toLowerCase(), kind: 'approve', status: 'confirmed', restored: true }),
    ])
    expect(env.stored.get('sentTransactions')).toBeUndefined()
    const token = contracts.token(deployment().contracts.token, provider())
    expect(await token.allowance(safe.address, pool.address)).toBe(25n * E18)
  })

  it("in Safe{Wallet}: a claim for a Safe's own allocation is proposed, counts its owners, and pays the Safe", async () => {
    setTimers({ SAFE_POLL_MS: 50 })
    const safe = await twoOwnerSafe()
    // The Safe holds an allocation of its own, as a seed round's multisig would.
    const dir = process.env.TEST_DEPLOYMENTS_DIR!
    const allocations = JSON.parse(fs.readFileSync(path.join(dir, 'allocations.31337.json'), 'utf8'))
    allocations.allocations[safe.address] = { round: 'Public', amount: (1_000n * E18).toString() }
    const api = await startTestApi({ allocationsFile: allocationsFile(allocations), idleTimeoutMs: QUICK_CLOSE_MS })
    try {
      const env = createMemoryEnv({ framed: true })
      const t = makeTestStore({ env, apiUrl: api.url, findSafeApp: async () => safeAppOf(safe) })
      t.store.dispatch(claimPageOpened())
      // Opened in Safe{Wallet}: connected to the Safe without asking.
      await waitFor(t.store, (s) => s.wallet.address === safe.address && s.wallet.wallet.name === 'safe')
      const loaded = await waitFor(t.store, (s) => s.vesting.status === 'succeeded' && BigInt(s.vesting.info.unlocked) > 0n)
      const unlocked = BigInt(loaded.vesting.info.unlocked)
      const token = contracts.token(deployment().contracts.token, provider())
      const before = await token.balanceOf(safe.address)

      t.store.dispatch(claimRequested())
      await waitFor(t.store, (s) => pending(s)?.detail === '1 of 2 confirmations')
      const [proposal] = safe.backend.proposals()
      expect(proposal.txs.map((x) => x.to)).toEqual([getAddress(deployment().contracts.harvest)])
      await safe.backend.confirm(proposal.safeTxHash, safe.owners[1])
      await waitFor(t.store, (s) => pending(s)?.detail === '2 of 2 confirmations: ready for an owner to execute')
      await safe.backend.execute(proposal.safeTxHash)
      await waitFor(t.store, (s) => s.token.transactions.some((x) => x.kind === 'claim' && x.status === 'confirmed'))
      expect((await token.balanceOf(safe.address)) - before).toBe(unlocked)
      // Its reads stop before the service does, which would otherwise wait for them.
      t.store.close()
    } finally {
      await api.app.close()
    }
  })

  it('ends a Safe transaction that Safe{Wallet} cancelled (its nonce used by another) as replaced, not dropped', async () => {
    setTimers({ SAFE_POLL_MS: 50 })
    const safe = await twoOwnerSafe()
    await fund(safe.address, 10n)
    const pool = deployment().pools.find((p) => p.id === deployment().defaultPoolId)!
    const t = makeTestStore({ env: createMemoryEnv({ framed: true }), findSafeApp: async () => safeAppOf(safe) })
    await waitFor(t.store, (s) => s.wallet.wallet.name === 'safe')
    t.store.dispatch(poolSelected(pool.id))
    t.store.dispatch(stakingPageOpened())
    await waitFor(t.store, (s) => s.stake.status === 'succeeded')
    t.store.dispatch(approveRequested({ amount: (10n * E18).toString() }))
    await waitFor(t.store, (s) => pending(s)?.detail === '1 of 2 confirmations')
    const [first] = safe.backend.proposals()
    // The owners reject it the Safe way: another transaction with the same Safe nonce (a call to itself) runs instead.
    const rejection = safeTxFor(dep, safe.address, [{ to: safe.address, data: '0x' }], first.tx.nonce)
    const signatures = await Promise.all(
      safe.owners.map(async (o) => ({ owner: o.address, signature: await signSafeTx(o, 31337, safe.address, rejection) })),
    )
    await executeSafeTx(safe.executor, safe.address, rejection, signatures)
    const ended = await waitFor(t.store, (s) => s.token.transactions.some((x) => x.status === 'replaced'))
    expect(ended.token.transactions).toEqual([
      expect.objectContaining({
        hash: first.safeTxHash.toLowerCase(),
        status: 'replaced',
        message: "The Safe's owners replaced it with another transaction (a rejection), so it did not run.",
      }),
    ])
    const token = contracts.token(deployment().contracts.token, provider())
    expect(await token.allowance(safe.address, pool.address)).toBe(0n)
  })
})
