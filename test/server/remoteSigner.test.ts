import { RewardHarvest__factory } from '../../src/chain/types'
import { verifyTypedData } from 'ethers'
import { CLAIM_TYPES, claimDomain } from '../../src/domain/claim'
import { devAccountKey, LOCAL_VESTING_SIGNER_INDEX } from '../../src/domain/devAccounts'
import { account, claimArgs, getJson, provider, record, startTestApi } from '../support/api'
import { startRemoteSigner } from './remoteSigner'

describe('claims signed by a remote signer (eth_signTypedData_v4)', () => {
  const p = provider()
  const rec = record()
  const user = account(2, p)
  let signer: Awaited<ReturnType<typeof startRemoteSigner>>
  let api: Awaited<ReturnType<typeof startTestApi>>
  beforeAll(async () => {
    // The key lives in the signer process only; the service knows its URL and address.
    signer = await startRemoteSigner(devAccountKey(LOCAL_VESTING_SIGNER_INDEX))
    api = await startTestApi({
      signerKey: undefined,
      signerUrl: signer.url,
      signerAddress: signer.address,
      rpcTimeoutMs: 1_000,
    })
  })
  afterAll(async () => {
    await api.app.close()
    await signer.stop()
    p.destroy()
  })
  beforeEach(() => {
    signer.state.mode = 'ok'
  })
  const status = () => getJson(`${api.url}/vesting/address/${user.address}`)

  it('serves a claim the remote signer signed, once per block however many ask, and the contract pays it', async () => {
    await p.send('evm_mine', [])
    signer.state.calls = 0
    const answers = await Promise.all(Array.from({ length: 20 }, status))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(new Set(answers.map((a) => a.body.signature)).size).toBe(1)
    expect(signer.state.calls).toBe(1)
    const s = answers[0].body
    const claim = {
      user: user.address,
      amount: BigInt(s.unlocked),
      lastUpdateBlock: BigInt(s.lastUpdateBlock),
      currentBlock: BigInt(s.currentBlock),
      claimedBefore: BigInt(s.claimed),
      deadline: BigInt(s.deadline),
      rewardToken: s.rewardToken,
    }
    expect(verifyTypedData(claimDomain(31337, rec.contracts.harvest), CLAIM_TYPES, claim, s.signature)).toBe(signer.address)
    const harvest = RewardHarvest__factory.connect(rec.contracts.harvest, user)
    await (await harvest.harvest(...claimArgs(s))).wait()
    expect((await status()).body).toMatchObject({ claimed: s.unlocked, unlocked: '0', signature: null })
    expect(api.logs.join('')).toMatch(/"signerKind":"remote"/)
  })

  it.each([
    ['signs with another key', 'wrong-key'],
    ['refuses to sign', 'rpc-error'],
    ['does not answer', 'silent'],
  ] as const)('hands out no claim when the signer %s: 503 with Retry-After and a JSON reason', async (_what, mode) => {
    // A fresh block: the service must sign anew for #3 (who has something unlocked), and asks the signer.
    signer.state.mode = mode
    await p.send('evm_mine', [])
    const res = await getJson(`${api.url}/vesting/address/${account(3, p).address}`)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(res.body).toMatchObject({ statusCode: 503, reason: 'signer_unavailable' })
    expect(JSON.stringify(res.body)).not.toMatch(/0x[0-9a-f]{130}/)
  })

  it('answers again once the signer is back', async () => {
    await p.send('evm_mine', [])
    const res = await getJson(`${api.url}/vesting/address/${account(3, p).address}`)
    expect(res.status).toBe(200)
    expect(res.body.signature).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('answers 503 while the signer is down', async () => {
    const gone = await startRemoteSigner(devAccountKey(LOCAL_VESTING_SIGNER_INDEX))
    const down = await startTestApi({ signerKey: undefined, signerUrl: gone.url, signerAddress: gone.address })
    await gone.stop()
    try {
      await p.send('evm_mine', [])
      const res = await getJson(`${down.url}/vesting/address/${account(3, p).address}`)
      expect(res.status).toBe(503)
      expect(res.body.reason).toBe('signer_unavailable')
      expect(down.logs.join('')).toMatch(/service unavailable/)
    } finally {
      await down.app.close()
    }
  })
})
