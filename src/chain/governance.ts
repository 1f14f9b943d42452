import { Result, type Interface, type Provider } from 'ethers'
import TimelockArtifact from '../../artifacts/@openzeppelin/contracts/governance/TimelockController.sol/TimelockController.json'
import type { ScheduledCall } from '../domain/governance'
import { bind } from './contracts'
import { logsInRanges } from './logs'
import type { TimelockController } from './types'

/** From the artifact's ABI, as contracts.ts binds the app's own: TypeChain's factory would ship the bytecode too. */
const timelock = bind<TimelockController>(TimelockArtifact.abi)

/** A decoded argument as plain JSON: bigints become decimal strings, a struct an object, a list an array. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Result) {
    if (value.length === 0) return []
    try {
      return Object.fromEntries(Object.entries(value.toObject()).map(([k, v]) => [k, plain(v)]))
    } catch {
      // Entries without names: a list.
      return Array.from(value, plain)
    }
  }
  return value
}

/**
 * The calls the timelock at `timelockAddress` has scheduled for `target` and not yet executed or cancelled, read from
 * `fromBlock` to `toBlock` (in ranges, logs.ts), soonest first; `abi` decodes their calldata.
 */
export async function scheduledCalls(
  provider: Provider,
  timelockAddress: string,
  target: string,
  abi: Interface,
  fromBlock: number,
  toBlock: number,
): Promise<ScheduledCall[]> {
  const tl = timelock(timelockAddress, provider)
  const topic = tl.interface.getEvent('CallScheduled').topicHash
  const calls = new Map<string, { id: string; data: string }>()
  for (const log of await logsInRanges(provider, { address: timelockAddress, topics: [topic] }, fromBlock, toBlock)) {
    const ev = tl.interface.parseLog(log)
    if (!ev || String(ev.args.target).toLowerCase() !== target.toLowerCase()) continue
    calls.set(`${ev.args.id}:${ev.args.index}`, { id: String(ev.args.id), data: String(ev.args.data) })
  }
  const ids = [...new Set([...calls.values()].map((c) => c.id))]
  // getTimestamp: 0 when unknown or cancelled, 1 once executed, else when it becomes ready.
  const stamps = new Map(await Promise.all(ids.map(async (id) => [id, await tl.getTimestamp(id)] as const)))
  const pending: ScheduledCall[] = []
  for (const { id, data } of calls.values()) {
    const at = stamps.get(id) ?? 0n
    if (at <= 1n) continue
    const parsed = abi.parseTransaction({ data })
    pending.push({
      id,
      readyAt: Number(at),
      fn: parsed?.name ?? null,
      args: parsed
        ? (Object.fromEntries(parsed.fragment.inputs.map((p, i) => [p.name || String(i), plain(parsed.args[i])])) as Record<
            string,
            unknown
          >)
        : {},
    })
  }
  return pending.sort((a, b) => a.readyAt - b.readyAt)
}
