import type { FastifyBaseLogger } from 'fastify'
import type { ServiceUnavailableError, UnavailableReason } from './errors'

/** What an outage is of: each has its own start and end. */
export type Dependency = 'chain' | 'signer' | 'deployment' | 'index'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a route's answer needs: a 2xx answer of it ends an outage of each (OutageLog). */
    dependsOn?: Dependency[]
  }
}

const DEPENDENCY_OF: Record<UnavailableReason, Dependency> = {
  chain_unreachable: 'chain',
  chain_error: 'chain',
  signer_unavailable: 'signer',
  deployment_missing: 'deployment',
  index_starting: 'index',
  index_unavailable: 'index',
  index_off: 'index',
}

interface Outage {
  reason: UnavailableReason
  since: number
  lastFailure: number
  /** First answer after the last failure (0: none yet). */
  recoveredAt: number
  failedRequests: number
  timer: NodeJS.Timeout | null
}

/**
 * The log of outages of the chain node, the claim signer or the deployment: one line when one starts (the first
 * request that failed because of it, with its error) and one when it ends, with how long it lasted and how many
 * requests failed. The requests in between are answered 503 without a line of their own, so an outage under load
 * writes two lines, not one per request. It ends once a request that needed the dependency was answered and none has
 * failed for `quietMs` (answers that come and go in a partial outage do not end it each time); the end line is written
 * then, even if no request comes after.
 */
export class OutageLog {
  private readonly open = new Map<Dependency, Outage>()

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A request failed with `failure` (its 503); `requestLog` names the request that started the outage. */
  failed(failure: ServiceUnavailableError, requestLog: FastifyBaseLogger = this.log) {
    const dependency = DEPENDENCY_OF[failure.reason]
    const outage = this.open.get(dependency)
    const now = this.now()
    if (outage) {
      outage.failedRequests++
      outage.lastFailure = now
      outage.recoveredAt = 0
      return
    }
    this.open.set(dependency, {
      reason: failure.reason,
      since: now,
      lastFailure: now,
      recoveredAt: 0,
      failedRequests: 1,
      timer: null,
    })
    requestLog.error(
      { err: failure.cause ?? failure, reason: failure.reason, dependency },
      'request failed: service unavailable; outage started (further failures are counted, not logged, until it ends)',
    )
  }

  /** A request that needed `dependency` was answered. */
  succeeded(dependency: Dependency) {
    const outage = this.open.get(dependency)
    if (!outage) return
    outage.recoveredAt ||= this.now()
    this.settle(dependency, outage)
  }

  /** Whether an outage of `dependency` is open (for tests). */
  isOpen(dependency: Dependency): boolean {
    return this.open.has(dependency)
  }

  /** Stops the timers (the service is closing); open outages stay unlogged. */
  close() {
    for (const outage of this.open.values()) if (outage.timer) clearTimeout(outage.timer)
    this.open.clear()
  }

  /** Ends the outage if it has recovered and been quiet long enough, or looks again when it will have been. */
  private settle(dependency: Dependency, outage: Outage) {
    if (outage.timer || !outage.recoveredAt) return
    const quietFor = this.now() - outage.lastFailure
    if (quietFor < this.quietMs) {
      outage.timer = setTimeout(() => {
        outage.timer = null
        this.settle(dependency, outage)
      }, this.quietMs - quietFor)
      outage.timer.unref()
      return
    }
    this.open.delete(dependency)
    this.log.warn(
      {
        dependency,
        reason: outage.reason,
        failedRequests: outage.failedRequests,
        durationMs: outage.recoveredAt - outage.since,
      },
      'service available again: outage ended',
    )
  }
}
