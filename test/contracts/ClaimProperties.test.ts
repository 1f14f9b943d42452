import { expect } from 'chai'
import fc from 'fast-check'
import { ethers, network } from 'hardhat'
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers'
import type { Signer } from 'ethers'
import { deploySystemFixture } from './fixtures'
import { COVERAGE } from './helpers'
import { claimDomain, harvestArgs, signClaim, type Claim } from '../../src/domain/claim'
import { DAY, ONE } from '../../src/domain/math'

/**
 * Model-based property test of RewardHarvest against what an attacker holding every signature the service ever gave
 * out can do: the honest signer signs "vested now - claimed" for the state it sees, on whatever branch the chain is
 * on; the chain is snapshotted and rolled back (as a reorg or a node restart would), time moves, and any signature
 * is sent again at any time: replayed, reordered, past its deadline, from another branch, with a forged amount, or
 * signed by an untrusted key. The model predicts every outcome (paid, or the exact custom error) and after each
 * step the claimed total must be within the allocation and equal to a vested figure the signer signed.
 */

const ALLOCATION = 120_000n * ONE
/** How often each outcome of a submitted claim was met, over all runs. */
const seen = new Map<string, number>()
/**
 * Linear vesting over 30 days: any two moments vest different figures, so branches that ran at other times sign
 * other totals (the contract does not know the schedule; the property holds for any).
 */
const VESTING_SECONDS = 30n * DAY
const vestedAt = (elapsed: number) =>
  (ALLOCATION * (BigInt(elapsed) < VESTING_SECONDS ? BigInt(elapsed) : VESTING_SECONDS)) / VESTING_SECONDS
const SEED = Number(process.env.SEQUENCE_SEED ?? 20261122)

interface Signed {
  claim: Claim
  message: string
  signature: string
  /** Signed by a key the contract does not trust. */
  rogue: boolean
}

interface ChainState {
  claimed: bigint
  lastBlock: bigint
}

interface Model extends ChainState {
  signed: Signed[]
  /** Hardhat snapshot ids with the state they hold, oldest first (a revert consumes the later ones). */
  snapshots: { id: string; state: ChainState }[]
  /** Every total a successful claim can lead to: 0 and claimedBefore + amount of each trusted signature. */
  signedTotals: Set<bigint>
}

async function setup() {
  const sys = await loadFixture(deploySystemFixture)
  const { chainId } = await ethers.provider.getNetwork()
  const domain = claimDomain(chainId, await sys.harvest.getAddress())
  const rewardToken = await sys.token.getAddress()
  const user = sys.users[0]
  const rogue: Signer = sys.users[4]
  const start = await time.latest()
  const balanceBefore = await sys.token.balanceOf(user.address)
  return { ...sys, domain, rewardToken, user, rogue, start, balanceBefore }
}
type Real = Awaited<ReturnType<typeof setup>>

/** What the contract should answer for `s` sent in the next block (number, timestamp), in its order of checks. */
function expectedOutcome(m: ChainState, s: Signed, forged: boolean, block: bigint, timestamp: bigint): string {
  const c = s.claim
  if (c.amount === 0n) return 'ZeroAmount'
  if (timestamp > c.deadline) return 'ClaimExpired'
  if (forged) return 'InvalidMessage'
  if (s.rogue) return 'UntrustedSigner'
  if (c.lastUpdateBlock !== m.lastBlock) return 'StaleClaim'
  if (c.claimedBefore !== m.claimed) return 'ClaimedTotalMismatch'
  if (c.currentBlock <= c.lastUpdateBlock) return 'InvalidCurrentBlock'
  if (c.currentBlock > block) return 'CurrentBlockInFuture'
  return 'paid'
}

/** A held signature counted from the newest (0): attacks mostly use the last few. */
const held = (m: Readonly<Model>, back: number) => m.signed[m.signed.length - 1 - (back % m.signed.length)]
/** Mostly one of the last four, sometimes any. */
const recent = fc.oneof({ arbitrary: fc.nat({ max: 3 }), weight: 3 }, { arbitrary: fc.nat(), weight: 1 })

async function mineTo(block: bigint) {
  const head = BigInt(await ethers.provider.getBlockNumber())
  if (block > head) await network.provider.send('hardhat_mine', [ethers.toQuantity(block - head)])
}

/** Every step ends with the invariants checked against the chain. */
abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(_m: Readonly<Model>) {
    return true
  }
  abstract act(m: Model, r: Real): Promise<void>
  async run(m: Model, r: Real) {
    await this.act(m, r)
    const claimed = await r.harvest.claimed(r.user.address, r.rewardToken)
    expect(claimed, `${this}: the model follows the chain`).to.equal(m.claimed)
    expect(claimed <= ALLOCATION, `claimed ${claimed} over the allocation`).to.equal(true)
    expect(m.signedTotals.has(claimed), `claimed ${claimed} is no vested figure the signer signed`).to.equal(true)
    // What the user received on this branch is exactly what the contract counts.
    expect(await r.token.balanceOf(r.user.address)).to.equal(r.balanceBefore + claimed)
  }
}

/**
 * The service's answer for the state on the current branch, signed with `ttl` seconds to its deadline; with `align`,
 * first mined up to the height of a held signature, so branches meet at the same block numbers (the issue's attack).
 */
class SignCommand extends Step {
  constructor(
    readonly ttl: number,
    readonly rogue: boolean,
    readonly align: number | null,
  ) {
    super()
  }
  async act(m: Model, r: Real) {
    if (this.align !== null && m.signed.length > 0) await mineTo(held(m, this.align).claim.currentBlock)
    const head = (await ethers.provider.getBlock('latest'))!
    const [claimed, lastBlock] = await r.harvest.getClaimState(r.user.address, r.rewardToken)
    expect(claimed, 'the model follows the chain').to.equal(m.claimed)
    const vested = vestedAt(head.timestamp - r.start)
    // The service signs only something to pay, for a block above the last claim.
    if (vested <= claimed || BigInt(head.number) <= lastBlock) return
    const claim: Claim = {
      user: r.user.address,
      amount: vested - claimed,
      lastUpdateBlock: lastBlock,
      currentBlock: BigInt(head.number),
      claimedBefore: claimed,
      deadline: BigInt(head.timestamp + this.ttl),
      rewardToken: r.rewardToken,
    }
    const { message, signature } = await signClaim(this.rogue ? r.rogue : r.signer, r.domain, claim)
    m.signed.push({ claim, message, signature, rogue: this.rogue })
    if (!this.rogue) m.signedTotals.add(claim.claimedBefore + claim.amount)
  }
  override toString = () =>
    `sign(ttl ${this.ttl}${this.rogue ? ', rogue' : ''}${this.align === null ? '' : `, at ${this.align}`})`
}

/** `seconds` pass, then `blocks` blocks are mined (the first at the new time, the others a second apart). */
class MineCommand extends Step {
  constructor(
    readonly blocks: number,
    readonly seconds: number,
  ) {
    super()
  }
  async act() {
    await time.increase(this.seconds)
    if (this.blocks > 1) await network.provider.send('hardhat_mine', [ethers.toQuantity(this.blocks - 1)])
  }
  override toString = () => `mine(+${this.seconds} s, ${this.blocks} blocks)`
}

/** Mines up to the block a held signature was made at, as the attack in issue 13 did on the new branch. */
class MineToCommand extends Step {
  constructor(readonly pick: number) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.signed.length > 0
  }
  async act(m: Model) {
    await mineTo(held(m, this.pick).claim.currentBlock)
  }
  override toString = () => `mineTo(${this.pick})`
}

class SnapshotCommand extends Step {
  override check(m: Readonly<Model>) {
    return m.snapshots.length < 6
  }
  async act(m: Model) {
    const id: string = await network.provider.send('evm_snapshot', [])
    m.snapshots.push({ id, state: { claimed: m.claimed, lastBlock: m.lastBlock } })
  }
  override toString = () => 'snapshot'
}

/**
 * A rollback to an earlier state: every later block (and claim) is gone; signatures made there are still held. The
 * new branch may then run at another time (the issue's attack moved 400 days), so it vests other figures.
 */
class RevertCommand extends Step {
  constructor(
    readonly pick: number,
    readonly travel: number,
  ) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.snapshots.length > 0
  }
  async act(m: Model) {
    const at = this.pick % m.snapshots.length
    const { id, state } = m.snapshots[at]
    expect(await network.provider.send('evm_revert', [id])).to.equal(true)
    m.claimed = state.claimed
    m.lastBlock = state.lastBlock
    // Hardhat drops the snapshot reverted to and all later ones; keep the branch point for further rollbacks.
    m.snapshots.splice(at)
    m.snapshots.push({ id: await network.provider.send('evm_snapshot', []), state })
    if (this.travel > 0) await network.provider.send('evm_increaseTime', [this.travel])
  }
  override toString = () => `revert(${this.pick}, then +${this.travel} s)`
}

/** Sends a held signature, as signed or with a forged amount, in a block `delay` seconds later. */
class SubmitCommand extends Step {
  constructor(
    readonly pick: number,
    readonly delay: number,
    readonly forgeBy: bigint,
    readonly due = false,
  ) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.signed.length > 0
  }
  async act(m: Model, r: Real) {
    const s = held(m, this.pick)
    // Due: the attacker first mines up to the block the signature names ("mine up to step 2's block").
    if (this.due) await mineTo(s.claim.currentBlock)
    const forged = this.forgeBy !== 0n
    const claim = { ...s.claim, amount: s.claim.amount + this.forgeBy }
    const head = (await ethers.provider.getBlock('latest'))!
    const timestamp = BigInt(head.timestamp + 1 + this.delay)
    await time.setNextBlockTimestamp(timestamp)
    const expected = expectedOutcome(m, { ...s, claim }, forged, BigInt(head.number + 1), timestamp)
    let outcome = 'paid'
    try {
      // A fixed gas limit: the transaction is mined (in the block pinned above) even when it reverts.
      await (await r.harvest.connect(r.user).harvest(...harvestArgs(claim, s.message, s.signature), { gasLimit: 400_000 })).wait()
    } catch (err) {
      const data = (err as { data?: string }).data
      outcome = (data && r.harvest.interface.parseError(data)?.name) ?? `unexpected: ${(err as Error).message}`
    }
    expect(outcome, `${this}`).to.equal(expected)
    seen.set(outcome, (seen.get(outcome) ?? 0) + 1)
    if (outcome === 'paid') {
      m.claimed = claim.claimedBefore + claim.amount
      m.lastBlock = claim.currentBlock
    }
  }
  override toString = () =>
    `submit(${this.pick}, +${this.delay} s${this.forgeBy ? `, amount +${this.forgeBy}` : ''}${this.due ? ', due' : ''})`
}

/** What an honest user does: asks for a claim and sends it at once. */
class ClaimCommand extends Step {
  constructor(readonly align: number | null) {
    super()
  }
  async act(m: Model, r: Real) {
    const before = m.signed.length
    await new SignCommand(3600, false, this.align).act(m, r)
    if (m.signed.length > before) await new SubmitCommand(0, 0, 0n).act(m, r)
  }
  override toString = () => `claim(${this.align === null ? '' : `at ${this.align}`})`
}

const sign = fc
  .tuple(fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 3 * 86_400 })), fc.integer({ min: 0, max: 9 }))
  .map(([ttl, one]) => new SignCommand(ttl, one === 0, null))
const signAligned = fc
  .tuple(fc.integer({ min: 600, max: 3 * 86_400 }), recent)
  .map(([ttl, align]) => new SignCommand(ttl, false, align))
const mine = fc
  .tuple(
    fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 12 })),
    fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 2 * 86_400 })),
  )
  .map(([blocks, seconds]) => new MineCommand(blocks, seconds))
const submit = fc
  .tuple(
    recent,
    fc.oneof(
      { arbitrary: fc.constant(0), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 600 }), weight: 2 },
      { arbitrary: fc.integer({ min: 0, max: 4 * 86_400 }), weight: 1 },
    ),
    fc.oneof({ arbitrary: fc.constant(0n), weight: 4 }, { arbitrary: fc.bigInt({ min: 1n, max: ALLOCATION }), weight: 1 }),
    fc.boolean(),
  )
  .map(([pick, delay, forgeBy, due]) => new SubmitCommand(pick, delay, forgeBy, due))
const claim = fc.oneof(fc.constant(null), recent).map((align) => new ClaimCommand(align))
// Listed twice: signing and sending are what the chain's state changes are made of.
const commands = [
  claim,
  claim,
  sign,
  signAligned,
  mine,
  recent.map((p) => new MineToCommand(p)),
  submit,
  submit,
  fc.constant(new SnapshotCommand()),
  fc
    .tuple(fc.nat(), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 * 86_400 }), fc.integer({ min: 1, max: 20 * 86_400 })))
    .map(([p, travel]) => new RevertCommand(p, travel)),
]

/**
 * One step of a fork, with its time on each branch: a reorg's competing branch has the same heights at other times,
 * so both branches claim at the same block numbers but sign other totals (the issue's attack in general form).
 */
const forkStep = fc.oneof(
  { arbitrary: fc.constant({ kind: 'claim' as const, blocks: 0 }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'poll' as const, blocks: 0 }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'rogue' as const, blocks: 0 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((blocks) => ({ kind: 'mine' as const, blocks })), weight: 3 },
)
const forkTime = fc.integer({ min: 1, max: 3 * 86_400 })
type ForkStep = { kind: 'claim' | 'poll' | 'rogue' | 'mine'; blocks: number }
/** The step on one branch; the service is polled after it, so the attacker holds a signature for every state. */
const onBranch = ({ kind, blocks }: ForkStep, seconds: number): Step[] => [
  kind === 'claim' ? new ClaimCommand(null) : kind === 'mine' ? new MineCommand(blocks, seconds) : new MineCommand(1, seconds),
  new SignCommand(4 * 86_400, kind === 'rogue', null),
]
const sendAny = fc
  .tuple(
    fc.nat(),
    fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 2 * 86_400 }), weight: 1 }),
    fc.oneof({ arbitrary: fc.constant(0n), weight: 5 }, { arbitrary: fc.bigInt({ min: 1n, max: ALLOCATION }), weight: 1 }),
    fc.boolean(),
  )
  .map(([pick, delay, forgeBy, due]) => new SubmitCommand(pick, delay, forgeBy, due))

const freshModel = (): Model => ({ claimed: 0n, lastBlock: 0n, signed: [], snapshots: [], signedTotals: new Set([0n]) })

describe(`RewardHarvest claims: model-based properties (fast-check, seed ${SEED})`, function () {
  // Under `hardhat coverage` every opcode is instrumented and the sequences take several times longer.
  this.timeout(900_000)
  it('never pays past the allocation or a signed vested figure over random sequences of claims, rollbacks and replays', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: '+1' }), async (cmds) => {
        const r = await setup()
        await fc.asyncModelRun(() => ({ model: freshModel(), real: r }), cmds)
      }),
      { numRuns: COVERAGE ? 20 : 100, seed: SEED, endOnFailure: true },
    )
  })

  it('never pays past them over forks: two branches from one point, then every held signature sent in any order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(forkStep, forkTime), { maxLength: 3 }),
        fc.array(fc.tuple(forkStep, forkTime, forkTime), { minLength: 1, maxLength: 8 }),
        fc.array(sendAny, { maxLength: 3 }),
        fc.array(sendAny, { minLength: 1, maxLength: 12 }),
        async (common, fork, early, attack) => {
          const r = await setup()
          const m = freshModel()
          const steps = [
            ...common.flatMap(([step, seconds]) => onBranch(step, seconds)),
            new SnapshotCommand(),
            ...fork.flatMap(([step, seconds]) => onBranch(step, seconds)),
            new RevertCommand(0, 0),
            // Right after the rollback the other branch's signatures mostly name blocks not mined yet.
            ...early,
            ...fork.flatMap(([step, , seconds]) => onBranch(step, seconds)),
            ...attack,
          ]
          for (const step of steps) if (step.check(m)) await step.run(m, r)
        },
      ),
      { numRuns: COVERAGE ? 30 : 150, seed: SEED, endOnFailure: true },
    )
  })

  after(() => {
    // Both properties together reached every answer: paid claims and each refusal a held signature can meet.
    for (const outcome of [
      'paid',
      'ClaimExpired',
      'InvalidMessage',
      'UntrustedSigner',
      'StaleClaim',
      'ClaimedTotalMismatch',
      'CurrentBlockInFuture',
    ]) {
      expect(seen.get(outcome) ?? 0, `${outcome} in ${JSON.stringify(Object.fromEntries(seen))}`).to.be.greaterThan(2)
    }
  })
})
