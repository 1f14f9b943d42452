/**
 * A small seeded generator (mulberry32): numbers in [0, 1) that repeat with the seed, for draws a test or a proxy must
 * be able to run again exactly (fast-check's own generator serves its properties).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
