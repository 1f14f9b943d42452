const HOLDERS_TIMEOUT_MS = 10_000

/**
 * POST {parser base}/contract-parser/api/contract/token-holders: how many addresses hold the pool's shares.
 * Anything but `{status, data: {count}}` with a whole count is a failure.
 */
export async function fetchHolders(
  base: string,
  pool: string,
  chainId: number,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), HOLDERS_TIMEOUT_MS)
  try {
    const res = await fetchImpl(`${base}/contract-parser/api/contract/token-holders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: pool, network: chainId }),
      signal: controller.signal,
    })
    if (!res.ok) throw new Error(`token-holders answered ${res.status}`)
    const count = ((await res.json()) as { data?: { count?: unknown } })?.data?.count
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw new Error('token-holders: bad count')
    return count
  } finally {
    clearTimeout(timer)
  }
}
