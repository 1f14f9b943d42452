import { LRUCache } from 'lru-cache'

/**
 * Answers read from the index, shared and kept per index tip: what the index holds cannot change until its tip moves
 * (a new range or a rollback writes a new tip hash), so an answer made at one tip is served again at that tip, and
 * concurrent requests for the same answer share one query. A new tip is a new key; old ones age out of the LRU.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, object>
  private readonly inFlight = new Map<string, Promise<object>>()

  constructor(maxEntries: number) {
    this.answers = new LRUCache({ max: maxEntries })
  }

  async get<T extends object>(tip: string, key: string, make: () => Promise<T>): Promise<T> {
    const k = `${tip}|${key}`
    const hit = this.answers.get(k) ?? this.inFlight.get(k)
    if (hit) return (await hit) as T
    const p = make()
    this.inFlight.set(k, p)
    try {
      const answer = await p
      this.answers.set(k, answer)
      return answer
    } finally {
      this.inFlight.delete(k)
    }
  }
}
