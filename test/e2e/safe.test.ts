import { Interface } from 'ethers'
import type { BrowserContext } from 'playwright-core'
import { appUrl, browserSession, chainUrl, PHONE, short, shot } from '../../scripts/lib/browser'
import { createSafe, deploySafeContracts, safeNonce, type SafeDeployment } from '../../scripts/lib/safe'
import { openSafeHost } from '../../scripts/lib/safeHost'
import { contracts } from '../../src/chain/contracts'
import { E18, freshAccount, fund, pool, provider, record } from './localChain'

const session = browserSession()

/** A real Safe 1.5 (singleton, proxy factory, MultiSendCallOnly) on the test node: two owners, both must confirm. */
async function twoOwnerSafe(dep: SafeDeployment) {
  const [alice, bob, executor] = [await freshAccount(), await freshAccount(), await freshAccount()]
  const deployer = executor.connect(provider())
  const address = await createSafe(dep, deployer, [alice.address, bob.address], 2)
  return { address, owners: [alice, bob], executor }
}

let dep: SafeDeployment
beforeAll(async () => {
  dep = await deploySafeContracts((await freshAccount()).connect(provider()))
})

const selector = (iface: Interface, name: string) => iface.getFunction(name)!.selector

/** Safe{Wallet} (a stand-in page answering the Apps SDK) with the app open at `route` for `safe`. */
const openInSafe = (context: BrowserContext, safe: Awaited<ReturnType<typeof twoOwnerSafe>>, route: string) =>
  openSafeHost(context, {
    appUrl: appUrl(route),
    chainUrl: chainUrl(),
    chainId: 31337,
    safe: safe.address,
    owners: safe.owners,
    threshold: 2,
    executor: safe.executor,
    multiSendCallOnly: dep.multiSendCallOnly,
  })

describe('the app as a Safe App inside Safe{Wallet}, with a real two-owner Safe on the local chain', () => {
  it('deposits in one Safe transaction (approve and stake batched), waits for the owners, then follows it to its receipt', async () => {
    const safe = await twoOwnerSafe(dep)
    await fund(session.accounts()[0], safe.address, 100n)
    const context = await session.context()
    const host = await openInSafe(context, safe, '/staking')
    const app = host.app()
    // Opened in Safe{Wallet}, the app is connected to the Safe at once: no Choose Wallet.
    await app.getByRole('button', { name: new RegExp(short(safe.address)) }).waitFor()

    await app.getByRole('button', { name: 'Create 1st deposit' }).waitFor()
    // Safe{Wallet} lists the Safe's tokens itself: no "Add token to wallet".
    expect(await app.getByText('Add token to wallet').count()).toBe(0)
    await app.getByRole('button', { name: 'Create 1st deposit' }).click()
    const modal = app.getByRole('dialog', { name: 'Create deposit' })
    await modal.getByLabel('Amount (PLT)').fill('40')
    await modal.getByLabel('Days').fill('30')
    // A Safe cannot sign a permit, and needs no Approve step: one batch its owners confirm.
    await modal.getByTestId('safe-note').waitFor()
    expect(await modal.getByTestId('safe-note').textContent()).toBe(
      'Approve and stake go to your Safe as one transaction: exactly this amount is approved, then staked. ' +
        'This Safe needs 2 of its 2 owners to confirm. You propose it here; another owner must confirm it in the Safe before it runs.',
    )
    expect(await modal.getByTestId('fee-line').textContent()).toBe(
      'Network fee: paid in ETH by the owner who executes it in the Safe.',
    )
    expect(await modal.getByRole('radio').count()).toBe(0)
    expect(await modal.getByRole('button', { name: 'Approve' }).count()).toBe(0)
    await modal.getByTestId('safe-note').scrollIntoViewIfNeeded()
    await shot(host.page, 'desktop-safe-deposit', { viewport: true })
    await modal.getByRole('button', { name: 'Confirm' }).click()

    // Proposed: the dialog closes, and the notice waits for the owners, never dropped.
    const proposal = await host.waitForProposal(1)
    await modal.waitFor({ state: 'detached' })
    const token = contracts.token(record().contracts.token, provider())
    const poolAddress = pool().address
    expect(proposal.txs.map((t) => [t.to.toLowerCase(), t.data.slice(0, 10)])).toEqual([
      [record().contracts.token.toLowerCase(), selector(token.interface, 'approve')],
      [poolAddress.toLowerCase(), expect.stringMatching(/^0x[0-9a-f]{8}$/)],
    ])
    // Exactly the deposit is approved, so nothing is left standing once it is staked.
    expect(token.interface.decodeFunctionData('approve', proposal.txs[0].data)[1]).toBe(40n * E18)
    const waiting = app.locator('[data-status="pending"]')
    await waiting.filter({ hasText: "Waiting for the Safe's owners" }).filter({ hasText: '1 of 2 confirmations' }).waitFor()
    expect(await waiting.textContent()).toContain('Safe transaction: ' + proposal.safeTxHash.slice(0, 10))
    await shot(host.page, 'desktop-safe-waiting', { viewport: true })

    await host.confirm(proposal.safeTxHash, safe.owners[1])
    await waiting.filter({ hasText: '2 of 2 confirmations: ready for an owner to execute' }).waitFor()
    const nonceBefore = await safeNonce(provider(), safe.address)
    const executed = await host.execute(proposal.safeTxHash)

    // Executed: the chain transaction is followed to its receipt, and the page shows the new stake.
    await app.locator('[data-status="confirmed"]').filter({ hasText: 'Stake' }).waitFor()
    expect(await safeNonce(provider(), safe.address)).toBe(nonceBefore + 1n)
    const receipt = await provider().getTransactionReceipt(executed)
    expect(receipt?.status).toBe(1)
    const stake = await contracts.pool(poolAddress, provider()).getStake(safe.address, 0)
    expect(stake.stakeAmount).toBe(40n * E18)
    expect(await token.allowance(safe.address, poolAddress)).toBe(0n)
    await app.getByRole('button', { name: 'Create 1st deposit' }).waitFor({ state: 'detached' })
    await shot(host.page, 'desktop-safe-staked', { viewport: true })
    expect(host.errors()).toEqual([])
  })

  it("says on the claim page and on a phone that the Safe's other owners must confirm", async () => {
    const safe = await twoOwnerSafe(dep)
    const context = await session.context(PHONE)
    const host = await openInSafe(context, safe, '/')
    const app = host.app()
    await app.getByRole('button', { name: new RegExp(short(safe.address)) }).waitFor()
    await app.getByTestId('safe-note').waitFor()
    expect(await app.getByTestId('safe-note').textContent()).toBe(
      'This Safe needs 2 of its 2 owners to confirm. You propose it here; another owner must confirm it in the Safe before it runs.',
    )
    await app.getByTestId('safe-note').scrollIntoViewIfNeeded()
    await shot(host.page, 'phone-safe-claim', { viewport: true })
    // Choose Wallet names the Safe it is open in, first, as the wallet in use.
    await app.getByRole('button', { name: new RegExp(short(safe.address)) }).click()
    const dialog = app.getByRole('dialog', { name: 'Choose Wallet' })
    const first = dialog.locator('label').first()
    await first.waitFor()
    expect(await first.textContent()).toContain(
      `Safe{Wallet} (connected)The Safe this app is open in (${safe.address.slice(0, 6)}…${safe.address.slice(-4)})`,
    )
    await shot(host.page, 'phone-safe-choose-wallet', { viewport: true })
    expect(host.errors()).toEqual([])
  })
})
