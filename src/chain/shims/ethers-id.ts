// ethers' own exports: the one module replaced is hash/id.js, and nothing calls id() while ethers' modules load.
import { keccak256, toUtf8Bytes } from 'ethers'

/**
 * Stands in for ethers' `id` (keccak256 of a UTF-8 text) in the web build (webpack.config.ts), remembering its
 * answers. ethers computes a function's selector and an event's topic with it on every use and keeps neither: each
 * contract call hashes its signature again, and finding a log's or an error's fragment hashes every signature of the
 * ABI. On a 4x throttled CPU that was 16 ms of keccak inside one task of the staking page's first read. The answer of a
 * text never changes, so a remembered one is the same; the memory is bounded (signatures are few; anything else
 * clears it when full).
 */
const known = new Map<string, string>()
const MAX_KNOWN = 2_000

export function id(value: string): string {
  const remembered = known.get(value)
  if (remembered !== undefined) return remembered
  const hash = keccak256(toUtf8Bytes(value))
  if (known.size >= MAX_KNOWN) known.clear()
  known.set(value, hash)
  return hash
}
