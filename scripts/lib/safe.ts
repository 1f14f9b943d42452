import fs from 'node:fs'
import path from 'node:path'
import {
  Contract,
  ContractFactory,
  Interface,
  TypedDataEncoder,
  ZeroAddress,
  concat,
  dataLength,
  getAddress,
  randomBytes,
  solidityPacked,
  toBigInt,
  type ContractRunner,
  type InterfaceAbi,
  type Provider,
  type Signer,
  type TransactionReceipt,
} from 'ethers'

/**
 * Real Safe{Wallet} contracts (safe-smart-account 1.5.0, the npm package's precompiled artifacts) on a JSON-RPC node,
 * for tests that run the app as a Safe App: deploy the singleton and its helpers, create a Safe, build, hash, sign and
 * execute Safe transactions as Safe{Wallet} does. ethers v6 only; no Hardhat runtime.
 */

const ARTIFACTS = path.join(
  path.dirname(require.resolve('@safe-global/safe-smart-account/package.json')),
  'build',
  'artifacts',
  'contracts',
)

interface Artifact {
  abi: InterfaceAbi
  bytecode: string
}

const artifacts = new Map<string, Artifact>()
function artifact(file: string): Artifact {
  let a = artifacts.get(file)
  if (!a) {
    const json = JSON.parse(fs.readFileSync(path.join(ARTIFACTS, file), 'utf8')) as Artifact
    a = { abi: json.abi, bytecode: json.bytecode }
    artifacts.set(file, a)
  }
  return a
}

const SAFE_L2 = 'SafeL2.sol/SafeL2.json'
const PROXY_FACTORY = 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json'
const MULTI_SEND_CALL_ONLY = 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json'
const FALLBACK_HANDLER = 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json'

/** The Safe's ABI (SafeL2 1.5.0: the Safe's plus the L2 events). */
export const safeInterface = () => new Interface(artifact(SAFE_L2).abi)
const factoryInterface = () => new Interface(artifact(PROXY_FACTORY).abi)
const multiSendInterface = () => new Interface(artifact(MULTI_SEND_CALL_ONLY).abi)

/** A Safe at `address` (a proxy to the SafeL2 singleton). */
export const safeContract = (address: string, runner?: ContractRunner | null) => new Contract(address, safeInterface(), runner)

export interface SafeDeployment {
  /** The SafeL2 singleton every proxy delegates to. */
  safeSingleton: string
  proxyFactory: string
  multiSendCallOnly: string
  fallbackHandler: string
}

/** Operation of a Safe transaction (Enum.Operation). */
export const CALL = 0
export const DELEGATECALL = 1

export interface SafeCall {
  to: string
  value?: bigint
  data: string
}

/** A Safe transaction as the contract hashes it (the SafeTx struct of Safe 1.5.0). */
export interface SafeTx {
  to: string
  value: bigint
  data: string
  operation: number
  safeTxGas: bigint
  baseGas: bigint
  gasPrice: bigint
  gasToken: string
  refundReceiver: string
  nonce: bigint
}

/** An owner's signature of a Safe transaction. */
export interface SafeSignature {
  owner: string
  signature: string
}

/** EIP712Domain(uint256 chainId,address verifyingContract) with SafeTx(...) of Safe 1.5.0 (Safe.sol SAFE_TX_TYPEHASH). */
export const SAFE_TX_TYPES = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
}

export const safeDomain = (chainId: number | bigint, safe: string) => ({ chainId, verifyingContract: getAddress(safe) })

async function deploy(file: string, deployer: Signer): Promise<string> {
  const { abi, bytecode } = artifact(file)
  const contract = await new ContractFactory(abi, bytecode, deployer).deploy()
  await contract.waitForDeployment()
  return getAddress(await contract.getAddress())
}

/** Deploys the SafeL2 singleton, the proxy factory, MultiSendCallOnly and the CompatibilityFallbackHandler, in turn. */
export async function deploySafeContracts(deployer: Signer): Promise<SafeDeployment> {
  const safeSingleton = await deploy(SAFE_L2, deployer)
  const proxyFactory = await deploy(PROXY_FACTORY, deployer)
  const multiSendCallOnly = await deploy(MULTI_SEND_CALL_ONLY, deployer)
  const fallbackHandler = await deploy(FALLBACK_HANDLER, deployer)
  return { safeSingleton, proxyFactory, multiSendCallOnly, fallbackHandler }
}

/**
 * Creates a Safe of `owners` with `threshold` through the factory's createProxyWithNonce (setup with the fallback
 * handler, no modules, no payment) and returns its address, read from the ProxyCreation event. `saltNonce` is random
 * unless given, so the same owners may have several Safes.
 */
export async function createSafe(
  dep: SafeDeployment,
  deployer: Signer,
  owners: string[],
  threshold: number,
  saltNonce: bigint = toBigInt(randomBytes(32)),
): Promise<string> {
  const initializer = safeInterface().encodeFunctionData('setup', [
    owners.map((o) => getAddress(o)),
    threshold,
    ZeroAddress,
    '0x',
    dep.fallbackHandler,
    ZeroAddress,
    0,
    ZeroAddress,
  ])
  const factory = new Contract(dep.proxyFactory, factoryInterface(), deployer)
  const tx = await factory.createProxyWithNonce(dep.safeSingleton, initializer, saltNonce)
  const receipt = (await tx.wait()) as TransactionReceipt
  const iface = factoryInterface()
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== getAddress(dep.proxyFactory)) continue
    const parsed = iface.parseLog(log)
    if (parsed?.name === 'ProxyCreation') return getAddress(parsed.args.proxy as string)
  }
  throw new Error(`createProxyWithNonce (${receipt.hash}) emitted no ProxyCreation`)
}

/** The packed transactions MultiSend(CallOnly) takes: operation (1 byte), to (20), value (32), data length (32), data. */
export function encodeMultiSendTransactions(calls: SafeCall[]): string {
  return concat(
    calls.map((c) =>
      solidityPacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [CALL, getAddress(c.to), c.value ?? 0n, dataLength(c.data), c.data],
      ),
    ),
  )
}

/**
 * The Safe transaction for `calls`, as Safe{Wallet} builds it: one call is a CALL to it; several are a DELEGATECALL to
 * MultiSendCallOnly's multiSend(bytes) (value 0: the calls spend the Safe's own balance). No refund: the gas fields are
 * 0 and gasToken / refundReceiver the zero address, so a failing call reverts the whole execTransaction.
 */
export function safeTxFor(
  dep: Pick<SafeDeployment, 'multiSendCallOnly'>,
  safe: string,
  calls: SafeCall[],
  nonce: bigint,
): SafeTx {
  if (!calls.length) throw new Error(`no calls for a transaction of the Safe ${safe}`)
  const gas = { safeTxGas: 0n, baseGas: 0n, gasPrice: 0n, gasToken: ZeroAddress, refundReceiver: ZeroAddress, nonce }
  if (calls.length === 1) {
    const [c] = calls
    return { to: getAddress(c.to), value: c.value ?? 0n, data: c.data, operation: CALL, ...gas }
  }
  return {
    to: getAddress(dep.multiSendCallOnly),
    value: 0n,
    data: multiSendInterface().encodeFunctionData('multiSend', [encodeMultiSendTransactions(calls)]),
    operation: DELEGATECALL,
    ...gas,
  }
}

/** The safeTxHash (EIP-712 hash of the SafeTx for the Safe at `safe` on `chainId`): what owners sign. */
export function safeTxHash(chainId: number | bigint, safe: string, tx: SafeTx): string {
  return TypedDataEncoder.hash(safeDomain(chainId, safe), SAFE_TX_TYPES, tx)
}

/**
 * `owner`'s EIP-712 signature of `tx` (65 bytes r, s, v with v 27/28), as Safe{Wallet} asks a wallet for it. Any signer
 * that signs typed data: a Wallet or HDNodeWallet, or the node's own account.
 */
export function signSafeTx(owner: Signer, chainId: number | bigint, safe: string, tx: SafeTx): Promise<string> {
  return owner.signTypedData(safeDomain(chainId, safe), SAFE_TX_TYPES, tx)
}

/** The signatures in the order the Safe checks them (owner addresses ascending), concatenated. */
export function packSignatures(signatures: SafeSignature[]): string {
  const sorted = [...signatures].sort((a, b) => {
    const x = toBigInt(getAddress(a.owner))
    const y = toBigInt(getAddress(b.owner))
    return x < y ? -1 : x > y ? 1 : 0
  })
  return concat(sorted.map((s) => s.signature))
}

/**
 * `executor` sends execTransaction of `tx` on the Safe with the owners' signatures and waits for it to be mined.
 * Throws when it reverts, or when the Safe reports ExecutionFailure (possible only with a non-zero safeTxGas/gasPrice).
 */
export async function executeSafeTx(
  executor: Signer,
  safe: string,
  tx: SafeTx,
  signatures: SafeSignature[],
): Promise<{ hash: string; receipt: TransactionReceipt }> {
  const contract = safeContract(safe, executor)
  const sent = await contract.execTransaction(
    tx.to,
    tx.value,
    tx.data,
    tx.operation,
    tx.safeTxGas,
    tx.baseGas,
    tx.gasPrice,
    tx.gasToken,
    tx.refundReceiver,
    packSignatures(signatures),
  )
  const receipt = (await sent.wait()) as TransactionReceipt
  const iface = safeInterface()
  const failed = receipt.logs.some(
    (l) => getAddress(l.address) === getAddress(safe) && iface.parseLog(l)?.name === 'ExecutionFailure',
  )
  if (failed) throw new Error(`the Safe ${safe} reported ExecutionFailure for ${receipt.hash}`)
  return { hash: receipt.hash, receipt }
}

export async function safeNonce(provider: Provider, safe: string): Promise<bigint> {
  return (await safeContract(safe, provider).nonce()) as bigint
}

export async function safeThreshold(provider: Provider, safe: string): Promise<number> {
  return Number(await safeContract(safe, provider).getThreshold())
}

export async function safeOwners(provider: Provider, safe: string): Promise<string[]> {
  return ((await safeContract(safe, provider).getOwners()) as string[]).map((o) => getAddress(o))
}

// Storage slots of Safe 1.5.0 (SafeProxy.sol: the singleton at slot 0; FallbackManager.sol; GuardManager.sol).
const FALLBACK_HANDLER_SLOT = '0x6c9a6c4a39284e37ed1cf53d337577d14212a4870fb976a4366c693b939918d5'
const GUARD_SLOT = '0x4a204f620c8c5ccdca3fd54d003badd85ba500436a431f0cbda4f558c93c34c8'
const SENTINEL = '0x0000000000000000000000000000000000000001'

const slotAddress = async (provider: Provider, safe: string, slot: string | number) =>
  getAddress('0x' + (await provider.getStorage(safe, slot)).slice(-40))

/** What Safe{Wallet}'s getSafeInfo reports of a Safe, read from the chain. */
export interface SafeState {
  address: string
  nonce: bigint
  threshold: number
  owners: string[]
  /** The singleton the proxy delegates to. */
  implementation: string
  fallbackHandler: string | null
  guard: string | null
  modules: string[]
  version: string
}

export async function safeState(provider: Provider, safe: string): Promise<SafeState> {
  const contract = safeContract(safe, provider)
  const [nonce, threshold, owners, implementation, fallbackHandler, guard, modules, version] = await Promise.all([
    safeNonce(provider, safe),
    safeThreshold(provider, safe),
    safeOwners(provider, safe),
    slotAddress(provider, safe, 0),
    slotAddress(provider, safe, FALLBACK_HANDLER_SLOT),
    slotAddress(provider, safe, GUARD_SLOT),
    contract.getModulesPaginated(SENTINEL, 50) as Promise<[string[], string]>,
    contract.VERSION() as Promise<string>,
  ])
  return {
    address: getAddress(safe),
    nonce,
    threshold,
    owners,
    implementation,
    fallbackHandler: fallbackHandler === ZeroAddress ? null : fallbackHandler,
    guard: guard === ZeroAddress ? null : guard,
    modules: [...modules[0]].map((m) => getAddress(m)),
    version,
  }
}
