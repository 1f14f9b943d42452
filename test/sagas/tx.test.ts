import { getAddress, type Signer } from 'ethers'
import { runTx, type TxOutcome } from '../../src/chain/tx'
import { contracts } from '../../src/chain/contracts'
import { APPROVE_AMOUNT } from '../../src/chain/math'
import { connectRequested } from '../../src/features/wallet/slice'
import { selectNotices } from '../../src/features/token/selectors'
import type { AppStore } from '../../src/app/store'
import { deployment, installInjectedWallet, makeTestStore, nodeAccounts, rpc, runWithStore, waitFor } from './support'

let accounts: string[]
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
})

async function connected(name: 'dev' | 'browser' = 'dev', injected?: unknown) {
  const t = makeTestStore({ injected })
  t.store.dispatch(connectRequested(name))
  await waitFor(t.store, (s) => s.wallet.address !== null)
  return t
}

const send = (
  store: AppStore,
  deps: object,
  kind: Parameters<typeof runTx>[0],
  fn: (s: Signer) => ReturnType<Parameters<typeof runTx>[1]>,
) => runWithStore<[typeof kind, typeof fn], TxOutcome>(store, deps as never, runTx, kind, fn)

const pool1 = () => deployment().pools.find((p) => p.id === 1)!.address

describe('runTx', () => {
  afterEach(async () => {
    await rpc('evm_setAutomine', [true])
    delete (globalThis as { window?: unknown }).window
  })

  it('tracks a confirmed transaction with its receipt, then drops the notice after 5 s (shortened here)', async () => {
    const { store, chain, env } = await connected()
    const token = deployment().contracts.token
    const outcome = await send(store, { chain, env }, 'approve', (s) =>
      contracts.token(token, s).approve(pool1(), APPROVE_AMOUNT),
    )
    expect(outcome.ok).toBe(true)
    const tx = store.getState().token.transactions.find((t) => t.hash === outcome.hash)!
    expect(tx).toMatchObject({
      kind: 'approve',
      status: 'confirmed',
      chainId: 31337,
      receipt: { status: 'success', blockNumber: outcome.blockNumber },
    })
    expect(selectNotices(store.getState())[0]).toMatchObject({ title: 'Transaction confirmed', what: 'Approve' })
    expect(await contracts.token(token, chain.readProvider(31337)).allowance(accounts[0], pool1())).toBe(APPROVE_AMOUNT)
    await waitFor(store, (s) => s.token.transactions.every((t) => t.hash !== outcome.hash))
  })

  it('marks a mined transaction that reverted as failed, with its receipt', async () => {
    const { store, chain, env } = await connected()
    const pool = pool1()
    const stakes = await contracts.pool(pool, chain.readProvider(31337)).getAllUserStakes(accounts[0])
    const id = stakes.findIndex((s) => s.active)
    expect(id).toBeGreaterThanOrEqual(0)
    // Two closes of the same stake in one block: the first succeeds, the second reverts on chain (StakeNotActive).
    await rpc('evm_setAutomine', [false])
    const close = (s: Signer) => contracts.pool(pool, s).unstake([id], { gasLimit: 400_000 })
    const first = send(store, { chain, env }, 'unstake', close)
    await waitFor(store, (s) => s.token.transactions.filter((t) => t.status === 'pending').length === 1)
    const second = send(store, { chain, env }, 'unstake', close)
    await waitFor(store, (s) => s.token.transactions.filter((t) => t.status === 'pending').length === 2)
    await rpc('evm_mine')
    const [a, b] = await Promise.all([first, second])
    expect(a.ok).toBe(true)
    expect(b.ok).toBe(false)
    const failed = store.getState().token.transactions.find((t) => t.hash === b.hash)!
    expect(failed).toMatchObject({ status: 'failed', message: 'The transaction was reverted.', receipt: { status: 'reverted' } })
    expect(selectNotices(store.getState()).find((n) => n.hash === b.hash)!.title).toBe('Transaction failed')
  })

  it('treats a rejection in the wallet as a short notice, with nothing left pending', async () => {
    const wallet = installInjectedWallet(accounts[1])
    const { store, chain, env } = await connected('browser', wallet)
    wallet.rejectNext('eth_sendTransaction')
    const token = deployment().contracts.token
    const outcome = await send(store, { chain, env }, 'approve', (s) =>
      contracts.token(token, s).approve(pool1(), APPROVE_AMOUNT),
    )
    expect(outcome).toEqual({
      ok: false,
      hash: null,
      blockNumber: null,
      error: 'You rejected the transaction in your wallet.',
      rejected: true,
    })
    expect(store.getState().token.rejection).toBe('You rejected the transaction in your wallet.')
    expect(store.getState().token.transactions).toEqual([])
    await waitFor(store, (s) => s.token.rejection === null)
  })

  it('names a revert caught before sending, and tracks nothing', async () => {
    const { store, chain, env } = await connected()
    const outcome = await send(store, { chain, env }, 'unstake', (s) => contracts.pool(pool1(), s).unstake([999_999]))
    expect(outcome).toMatchObject({ ok: false, hash: null, error: 'This stake does not exist.' })
    expect(store.getState().token.transactions).toEqual([])
  })

  it('follows a transaction the wallet sped up to its replacement', async () => {
    const { store, chain, env } = await connected()
    await rpc('evm_setAutomine', [false])
    const token = deployment().contracts.token
    const pending = send(store, { chain, env }, 'approve', (s) => contracts.token(token, s).approve(pool1(), 1n))
    const s1 = await waitFor(store, (s) => s.token.transactions.some((t) => t.status === 'pending'))
    const original = s1.token.transactions.find((t) => t.status === 'pending')!.hash
    const sent = (await rpc('eth_getTransactionByHash', [original])) as {
      nonce: string
      maxFeePerGas: string
      maxPriorityFeePerGas: string
      input: string
      to: string
    }
    // The wallet's "speed up": same nonce and call, double the fees.
    const bump = (hex: string) => `0x${(BigInt(hex) * 2n).toString(16)}`
    const replacement = (await rpc('eth_sendTransaction', [
      {
        from: accounts[0],
        to: sent.to,
        data: sent.input,
        nonce: sent.nonce,
        maxFeePerGas: bump(sent.maxFeePerGas),
        maxPriorityFeePerGas: bump(sent.maxPriorityFeePerGas),
      },
    ])) as string
    await rpc('evm_mine')
    const outcome = await pending
    expect(outcome).toMatchObject({ ok: true, hash: replacement })
    expect(store.getState().token.transactions.map((t) => [t.hash, t.status])).toEqual([[replacement, 'confirmed']])
    expect(await rpc('eth_getTransactionReceipt', [original])).toBeNull()
  })
})
