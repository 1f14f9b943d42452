import { getAddress } from 'ethers'
import { MESSAGES, runTx, type TxOutcome, type TxRequest } from '../../src/chain/tx'
import { contracts } from '../../src/chain/contracts'
import { APPROVE_AMOUNT } from '../../src/domain/math'
import { JOURNAL_KEY } from '../../src/chain/txJournal'
import { setTimers, timers } from '../../src/config/timers'
import { createMemoryEnv } from '../../src/platform/browserEnv'
import { connectRequested } from '../../src/features/wallet/slice'
import { selectNotices } from '../../src/features/token/selectors'
import type { AppStore } from '../../src/app/store'
import {
  deployment,
  expectLogged,
  installInjectedWallet,
  makeTestStore,
  nodeAccounts,
  rpc,
  runWithStore,
  waitFor,
} from '../support/sagaStore'

let accounts: string[]
beforeAll(async () => {
  accounts = (await nodeAccounts()).map((a) => getAddress(a))
})

/** A store connected as `name`; `storage` stands for the browser's localStorage (pass one again: a reload). */
async function connected(name: 'dev' | 'browser' = 'dev', injected?: unknown, storage?: Map<string, string>) {
  const t = makeTestStore({ env: createMemoryEnv({ injected, storage }) })
  t.store.dispatch(connectRequested(name))
  await waitFor(t.store, (s) => s.wallet.address !== null)
  return t
}

const send = (store: AppStore, deps: object, kind: Parameters<typeof runTx>[0], request: TxRequest) =>
  runWithStore<[typeof kind, TxRequest, number | null], TxOutcome>(
    store,
    deps as never,
    runTx,
    kind,
    request,
    store.getState().wallet.networkId,
  )

const pool1 = () => deployment().pools.find((p) => p.id === 1)!.address
const tokenAddress = () => deployment().contracts.token
const approve = (amount: bigint): TxRequest => ({
  to: tokenAddress(),
  data: contracts.token(tokenAddress()).interface.encodeFunctionData('approve', [pool1(), amount]),
})
const unstake = (id: number): TxRequest => ({
  to: pool1(),
  data: contracts.pool(pool1()).interface.encodeFunctionData('unstake', [[id]]),
})

type SentTx = { hash: string; nonce: string; maxFeePerGas: string; maxPriorityFeePerGas: string; input: string; to: string }
const bump = (hex: string) => `0x${(BigInt(hex) * 2n).toString(16)}`

describe('runTx', () => {
  afterEach(async () => {
    await rpc('evm_setAutomine', [true])
    delete (globalThis as { window?: unknown }).window
  })

  it('tracks a confirmed transaction with its receipt, then drops the notice after 5 s (shortened here)', async () => {
    const { store, chain, env } = await connected()
    const token = deployment().contracts.token
    const outcome = await send(store, { chain, env }, 'approve', approve(APPROVE_AMOUNT))
    expect(outcome.ok).toBe(true)
    // Followed to its end, it is no longer kept in the browser.
    expect(env.storage.get(JOURNAL_KEY)).toBeNull()
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

  it('marks a mined transaction that reverted as failed, with its receipt (it passed the simulation)', async () => {
    // Account #12 stakes its whole balance; before the block is mined, #0 (which #12 let spend its tokens) takes them
    // with a higher fee, so the stake, simulated against the pending state, reverts on chain.
    const me = accounts[12]
    const token = contracts.token(tokenAddress())
    const tx = async (from: string, to: string, data: string) => rpc('eth_sendTransaction', [{ from, to, data }])
    await tx(accounts[0], tokenAddress(), token.interface.encodeFunctionData('transfer', [me, 10n ** 19n]))
    await tx(me, tokenAddress(), token.interface.encodeFunctionData('approve', [pool1(), APPROVE_AMOUNT]))
    await tx(me, tokenAddress(), token.interface.encodeFunctionData('approve', [accounts[0], APPROVE_AMOUNT]))
    const wallet = installInjectedWallet(me)
    const { store, chain, env } = await connected('browser', wallet)
    await rpc('evm_setAutomine', [false])
    const staking = send(store, { chain, env }, 'stake', {
      to: pool1(),
      data: contracts.pool(pool1()).interface.encodeFunctionData('stake(uint256,uint256)', [10n ** 19n, 86_400n]),
    })
    const s1 = await waitFor(store, (s) => s.token.transactions.some((t) => t.status === 'pending'))
    const sent = (await rpc('eth_getTransactionByHash', [s1.token.transactions[0].hash])) as SentTx
    await rpc('eth_sendTransaction', [
      {
        from: accounts[0],
        to: tokenAddress(),
        data: token.interface.encodeFunctionData('transferFrom', [me, accounts[0], 10n ** 19n]),
        maxFeePerGas: bump(sent.maxFeePerGas),
        maxPriorityFeePerGas: bump(sent.maxPriorityFeePerGas),
      },
    ])
    await rpc('evm_mine')
    const outcome = await staking
    expect(outcome).toMatchObject({ ok: false, error: 'The transaction was reverted.' })
    const failed = store.getState().token.transactions.find((t) => t.hash === outcome.hash)!
    expect(failed).toMatchObject({ status: 'failed', message: 'The transaction was reverted.', receipt: { status: 'reverted' } })
    expect(selectNotices(store.getState()).find((n) => n.hash === outcome.hash)!.title).toBe('Transaction failed')
  })

  it('treats a rejection in the wallet as a short notice, with nothing left pending', async () => {
    const wallet = installInjectedWallet(accounts[1])
    const { store, chain, env } = await connected('browser', wallet)
    wallet.rejectNext('eth_sendTransaction')
    const outcome = await send(store, { chain, env }, 'approve', approve(APPROVE_AMOUNT))
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

  it('simulates first: a revert is named before the wallet is asked, and nothing is sent or tracked', async () => {
    const wallet = installInjectedWallet(accounts[1])
    const { store, chain, env } = await connected('browser', wallet)
    const outcome = await send(store, { chain, env }, 'unstake', unstake(999_999))
    expect(outcome).toMatchObject({ ok: false, hash: null, error: 'This stake does not exist.' })
    expectLogged('[tx] unstake was not sent')
    expect(wallet.requests.map((r) => r.method)).not.toContain('eth_sendTransaction')
    expect(store.getState().token.transactions).toEqual([])
    expect(env.storage.get(JOURNAL_KEY)).toBeNull()
  })

  it('follows a transaction the wallet sped up to its replacement', async () => {
    const { store, chain, env } = await connected()
    await rpc('evm_setAutomine', [false])
    const pending = send(store, { chain, env }, 'approve', approve(1n))
    const s1 = await waitFor(store, (s) => s.token.transactions.some((t) => t.status === 'pending'))
    const original = s1.token.transactions.find((t) => t.status === 'pending')!.hash
    const sent = (await rpc('eth_getTransactionByHash', [original])) as SentTx
    // The wallet's "speed up": same nonce and call, double the fees.
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

  it('keeps a pending transaction across a reload: the next page shows it again and follows it to its receipt', async () => {
    const first = await connected()
    await rpc('evm_setAutomine', [false])
    const sending = send(first.store, { chain: first.chain, env: first.env }, 'approve', approve(3n))
    const s1 = await waitFor(first.store, (s) => s.token.transactions.some((t) => t.status === 'pending'))
    const hash = s1.token.transactions[0].hash
    expect(JSON.parse(first.env.storage.get(JOURNAL_KEY)!)).toEqual([
      expect.objectContaining({ hash, kind: 'approve', chainId: 31337, from: accounts[0].toLowerCase() }),
    ])
    // The page goes away (its sagas stop) and loads again in the same browser.
    first.store.close()
    void sending
    const again = await connected('dev', undefined, first.env.stored)
    const s2 = await waitFor(again.store, (s) => s.token.transactions.length === 1)
    expect(s2.token.transactions[0]).toMatchObject({ hash, kind: 'approve', status: 'pending', restored: true })
    expect(selectNotices(s2)[0]).toMatchObject({ title: 'Transaction in progress', what: 'Approve', restored: true })
    await rpc('evm_mine')
    const s3 = await waitFor(again.store, (s) => s.token.transactions[0]?.status === 'confirmed')
    expect(s3.token.transactions[0].receipt?.status).toBe('success')
    expect(again.env.storage.get(JOURNAL_KEY)).toBeNull()
  })

  it('does not show another wallet or chain its transactions after a reload', async () => {
    const first = await connected()
    await rpc('evm_setAutomine', [false])
    void send(first.store, { chain: first.chain, env: first.env }, 'approve', approve(4n))
    await waitFor(first.store, (s) => s.token.transactions.length === 1)
    first.store.close()
    const wallet = installInjectedWallet(accounts[2])
    const other = await connected('browser', wallet, first.env.stored)
    // The restore has run on connect (the same action); nothing of account #0's is shown to #2.
    await new Promise((r) => setTimeout(r, timers.RECEIPT_POLL_MS * 3))
    expect(other.store.getState().token.transactions).toEqual([])
    await rpc('evm_mine')
  })

  it('says a transaction the node dropped was dropped, once it has been gone a while with its nonce still free', async () => {
    const was = timers.TX_FORGOTTEN_MS
    setTimers({ TX_FORGOTTEN_MS: 300 })
    try {
      const { store, chain, env } = await connected()
      await rpc('evm_setAutomine', [false])
      const pending = send(store, { chain, env }, 'approve', approve(5n))
      const s1 = await waitFor(store, (s) => s.token.transactions.some((t) => t.status === 'pending'))
      await rpc('hardhat_dropTransaction', [s1.token.transactions[0].hash])
      expect(await pending).toMatchObject({ ok: false, error: MESSAGES.forgotten })
      expect(store.getState().token.transactions[0]).toMatchObject({ status: 'dropped', message: MESSAGES.forgotten })
      expect(selectNotices(store.getState())[0].title).toBe('Transaction dropped')
      expect(env.storage.get(JOURNAL_KEY)).toBeNull()
    } finally {
      setTimers({ TX_FORGOTTEN_MS: was })
    }
  })

  it('says a transaction whose nonce a different one took (a cancel) was replaced, and stops following it', async () => {
    const { store, chain, env } = await connected()
    await rpc('evm_setAutomine', [false])
    const pending = send(store, { chain, env }, 'approve', approve(6n))
    const s1 = await waitFor(store, (s) => s.token.transactions.some((t) => t.status === 'pending'))
    const sent = (await rpc('eth_getTransactionByHash', [s1.token.transactions[0].hash])) as SentTx
    // The wallet's "cancel": the same nonce, nothing sent to itself, higher fees.
    await rpc('eth_sendTransaction', [
      {
        from: accounts[0],
        to: accounts[0],
        value: '0x0',
        nonce: sent.nonce,
        maxFeePerGas: bump(sent.maxFeePerGas),
        maxPriorityFeePerGas: bump(sent.maxPriorityFeePerGas),
      },
    ])
    await rpc('evm_mine')
    expect(await pending).toMatchObject({ ok: false, error: MESSAGES.replaced })
    expect(store.getState().token.transactions[0]).toMatchObject({ status: 'replaced', hash: sent.hash })
    expect(selectNotices(store.getState())[0].title).toBe('Transaction replaced')
    expect(env.storage.get(JOURNAL_KEY)).toBeNull()
  })
})
