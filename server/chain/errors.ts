/**
 * Failures that are not the client's fault and pass once the chain node or the signer is back (or the node holds the
 * deployment again): the service answers them with 503, a Retry-After header and a JSON reason instead of a 500.
 */
export type UnavailableReason =
  | 'chain_unreachable'
  | 'chain_error'
  | 'signer_unavailable'
  | 'deployment_missing'
  /** The index's database is still opening (PGlite's first start takes a few seconds) or cannot be reached. */
  | 'index_starting'
  | 'index_unavailable'
  /** This service runs without the index (API_INDEX=off). */
  | 'index_off'

export class ServiceUnavailableError extends Error {
  readonly statusCode = 503
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ETIMEDOUT', 'EPIPE'])
/** ethers' codes for a node that answered badly or not at all (CALL_EXCEPTION: a read the node refused). */
const ETHERS_UNREACHABLE = new Set(['TIMEOUT', 'NETWORK_ERROR'])
const ETHERS_CHAIN = new Set(['SERVER_ERROR', 'UNKNOWN_ERROR', 'BAD_DATA', 'CALL_EXCEPTION'])

/** A 503 for `err` when it comes from the chain node, or null when it is something else. */
export function asChainFailure(err: unknown): ServiceUnavailableError | null {
  if (err instanceof ServiceUnavailableError) return err
  const code = (err as { code?: unknown })?.code
  const causeCode = (err as { cause?: { code?: unknown } })?.cause?.code
  if (
    (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || ETHERS_UNREACHABLE.has(code))) ||
    (typeof causeCode === 'string' && UNREACHABLE_CODES.has(causeCode))
  ) {
    return new ServiceUnavailableError('chain_unreachable', 'The chain node cannot be reached; try again shortly.', {
      cause: err,
    })
  }
  if (typeof code === 'string' && ETHERS_CHAIN.has(code)) {
    return new ServiceUnavailableError('chain_error', 'The chain node did not answer as expected; try again shortly.', {
      cause: err,
    })
  }
  return null
}
