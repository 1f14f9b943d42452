import { startRpcProxy } from '../../scripts/lib/rpcProxy'
import { FailoverRpcProvider } from '../../src/chain/rpc'
import { CHAIN_URL } from '../support/sagaStore'

/** Nothing listens on port 1 of the loopback: a refused connection. */
const REFUSED = 'http://127.0.0.1:1'

describe('FailoverRpcProvider against a real node', () => {
  it('sends a batch as one request to the first URL in the normal case', async () => {
    const proxy = await startRpcProxy(CHAIN_URL())
    const backup = await startRpcProxy(CHAIN_URL())
    const provider = new FailoverRpcProvider([proxy.url, backup.url], 31337, 2_000)
    try {
      const [block, chainId] = await Promise.all([provider.getBlockNumber(), provider.send('eth_chainId', [])])
      expect(block).toBeGreaterThan(0)
      expect(chainId).toBe('0x7a69')
      expect(proxy.counts.roundTrips).toBe(1)
      expect(proxy.counts.calls).toBe(2)
      expect(backup.counts.roundTrips).toBe(0)
    } finally {
      provider.destroy()
      await Promise.all([proxy.stop(), backup.stop()])
    }
  })

  it('moves to the next URL when one refuses, and stays there', async () => {
    const backup = await startRpcProxy(CHAIN_URL())
    const provider = new FailoverRpcProvider([REFUSED, backup.url], 31337, 2_000)
    try {
      expect(await provider.getBlockNumber()).toBeGreaterThan(0)
      expect(provider.currentIndex).toBe(1)
      await provider.getBlockNumber()
      expect(backup.counts.roundTrips).toBe(2)
    } finally {
      provider.destroy()
      await backup.stop()
    }
  })

  it('gives up on a hanging node after its timeout and answers from the next one', async () => {
    const hanging = await startRpcProxy(CHAIN_URL())
    const backup = await startRpcProxy(CHAIN_URL())
    hanging.setFault('hang')
    const provider = new FailoverRpcProvider([hanging.url, backup.url], 31337, 500)
    try {
      expect(await provider.getBlockNumber()).toBeGreaterThan(0)
      expect(provider.currentIndex).toBe(1)
      expect(backup.counts.roundTrips).toBe(1)
    } finally {
      provider.destroy()
      await Promise.all([hanging.stop(), backup.stop()])
    }
  })

  it('fails with a timeout when every URL hangs, and answers again once one is back', async () => {
    const proxy = await startRpcProxy(CHAIN_URL())
    proxy.setFault('hang')
    const provider = new FailoverRpcProvider([proxy.url], 31337, 500)
    try {
      await expect(provider.getBlockNumber()).rejects.toMatchObject({ code: 'TIMEOUT' })
      proxy.setFault('none')
      expect(await provider.getBlockNumber()).toBeGreaterThan(0)
    } finally {
      provider.destroy()
      await proxy.stop()
    }
  })

  it('passes a JSON-RPC error back as it is, without trying the next URL', async () => {
    const proxy = await startRpcProxy(CHAIN_URL())
    const backup = await startRpcProxy(CHAIN_URL())
    const provider = new FailoverRpcProvider([proxy.url, backup.url], 31337, 2_000)
    try {
      await expect(provider.send('no_such_method', [])).rejects.toBeTruthy()
      expect(proxy.counts.roundTrips).toBe(1)
      expect(backup.counts.roundTrips).toBe(0)
    } finally {
      provider.destroy()
      await Promise.all([proxy.stop(), backup.stop()])
    }
  })
})
