import fs from 'node:fs'
import path from 'node:path'
import { JsonRpcProvider, Wallet, type HDNodeWallet } from 'ethers'
import { contracts } from '../../src/chain/contracts'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { chainUrl } from '../../scripts/lib/browser'

/** The browser tests' view of the shared stack's chain, straight to the node (not through the app's fault proxy). */
export const E18 = 10n ** 18n

/** The deployment record the stack's build was made with. */
export const record = (): DeploymentRecord =>
  JSON.parse(fs.readFileSync(path.join(process.env.E2E_DEPLOYMENTS_DIR!, '31337.json'), 'utf8'))

export const provider = () => new JsonRpcProvider(chainUrl(), 31337, { staticNetwork: true, cacheTimeout: -1 })
export const rpc = (method: string, params: unknown[] = []) => provider().send(method, params)
/** The network's default pool, as the record lists it. */
export const pool = () => record().pools.find((p) => p.id === record().defaultPoolId)!
export const token = () => contracts.token(record().contracts.token)

/** A transaction from a Hardhat account (the node signs), once mined. */
export async function sendAs(from: string, to: string, data: string) {
  await provider().waitForTransaction(await rpc('eth_sendTransaction', [{ from, to, data }]))
}

/** `me` gets `tokens` PLT from `funder` and, when `allowance` is given, approves the default pool for it itself. */
export async function fund(funder: string, me: string, tokens: bigint, allowance?: bigint) {
  const t = token().interface
  await sendAs(funder, record().contracts.token, t.encodeFunctionData('transfer', [me, tokens * E18]))
  if (allowance !== undefined)
    await sendAs(me, record().contracts.token, t.encodeFunctionData('approve', [pool().address, allowance]))
}

/**
 * An account no other test uses: a new key (the test's wallet signs typed data with it), 10 ETH, and the node sends
 * its transactions (impersonated), so browser tests need not share the node's twenty accounts.
 */
export async function freshAccount(): Promise<HDNodeWallet> {
  const key = Wallet.createRandom()
  await rpc('hardhat_setBalance', [key.address, `0x${(10n * E18).toString(16)}`])
  await rpc('hardhat_impersonateAccount', [key.address])
  return key
}

/** Pool 0 (version 2), as the record lists it. */
export const v2 = () => record().pools.find((p) => p.id === 0)!

/**
 * A fresh account, funded by `funder`, with two stakes of pool 0 matured (#0: 100 PLT, #1: 250 PLT, a day each) and one pending (#2: 300 PLT,
 * 60 days), a day and a minute on. The clock stays on for the rest of this stack's run: winding it back (evm_revert)
 * would undo blocks the API's index has read, and its reorg warnings would sound in a green run; no browser test holds
 * the chain's clock to the wall's.
 */
export async function twoMaturedOnePending(funder: string): Promise<string> {
  const me = (await freshAccount()).address
  const pool = contracts.pool(v2().address, provider())
  await sendAs(funder, record().contracts.token, token().interface.encodeFunctionData('transfer', [me, 1_000n * E18]))
  await sendAs(me, record().contracts.token, token().interface.encodeFunctionData('approve', [v2().address, 1_000n * E18]))
  for (const [amount, days] of [
    [100n, 1n],
    [250n, 1n],
    [300n, 60n],
  ])
    await sendAs(me, v2().address, pool.interface.encodeFunctionData('stake(uint256,uint256)', [amount * E18, days * 86_400n]))
  await rpc('evm_increaseTime', [86_400 + 60])
  await rpc('evm_mine')
  return me
}
