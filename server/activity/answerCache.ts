import { LRUCache } from 'lru-cache'

/** An answer and the index tip it was read at. */
export interface TipAnswer<T> {
  tip: { number: number; hash: string }
  answer: T
}

const keyOf = (tip: { number: number; hash: string }, key: string) => `${tip.number}:${tip.hash}|${key}`

/**
 * Answers read from the index, kept per index tip: what the index holds cannot change until its tip moves (a new range
 * or a rollback writes a new tip), so an answer read at one tip is served again at that tip. `make` reads the answer
 * between two equal reads of the tip, and the answer is kept under the tip it was read at, never the one the request expected
 * (a range written in between would otherwise be kept under the tip before it, and served again after a rollback to
 * that tip). Concurrent requests expecting the same tip share one read.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, TipAnswer<object>>
  private readonly inFlight = new Map<string, Promise<TipAnswer<object>>>()

  constructor(maxEntries: number) {
    this.answers = new LRUCache({ max: maxEntries })
  }

  async get<T extends object>(
    expected: { number: number; hash: string },
    key: string,
    make: () => Promise<TipAnswer<T>>,
  ): Promise<TipAnswer<T>> {
    const k = keyOf(expected, key)
    const hit = this.answers.get(k) ?? this.inFlight.get(k)
    if (hit) return (await hit) as TipAnswer<T>
    const p = make()
    this.inFlight.set(k, p)
    try {
      const made = await p
      this.answers.set(keyOf(made.tip, key), made)
      return made
    } finally {
      this.inFlight.delete(k)
    }
  }
}
