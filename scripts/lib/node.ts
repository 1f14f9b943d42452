import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'

export const ROOT = path.join(__dirname, '..', '..')
const HARDHAT_BIN = path.join(ROOT, 'node_modules', '.bin', 'hardhat')

/** True when nothing listens on host:port. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, host, () => srv.close(() => resolve(true)))
  })
}

/** A free port chosen by the OS. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

/** Spawns a child we own, with a `stop()` that ends it with SIGTERM and waits for its exit. */
export function spawnOwned(
  command: string,
  args: string[],
  options: SpawnOptions,
): { child: ChildProcess; stop: () => Promise<void> } {
  const child = spawn(command, args, options)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
  }
  return { child, stop }
}

/** How long one try of waitForHttp may take: a server that accepts and never answers is tried again. */
const TRY_MS = 2_000

/**
 * Waits until `url` answers 2xx to `init`'s request (a GET unless told), trying every 250 ms while the child runs.
 * Each try times out, so the wait ends by `timeoutMs` whatever the server does. When the child exits first or the
 * time runs out, it stops the child and throws, naming `what` and adding `output()`.
 */
export async function waitForHttp(
  url: string,
  { child, stop }: ReturnType<typeof spawnOwned>,
  opts: { what: string; timeoutMs: number; init?: RequestInit; output?: () => string },
): Promise<void> {
  const { what, timeoutMs, init, output = () => '' } = opts
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it answered on ${url}${output()}`)
    try {
      const signal = AbortSignal.timeout(Math.max(1, Math.min(TRY_MS, deadline - Date.now())))
      if ((await fetch(url, { ...init, signal })).ok) return
    } catch {
      // not listening yet, or no answer in time
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  await stop()
  throw new Error(`${what} did not answer on ${url} within ${timeoutMs} ms${output()}`)
}

export interface RunningNode {
  url: string
  port: number
  child: ChildProcess
  stop: () => Promise<void>
}

/** Starts `hardhat node` on 127.0.0.1:`port` and resolves once it answers JSON-RPC. */
export async function startHardhatNode(port: number, env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<RunningNode> {
  const url = `http://127.0.0.1:${port}`
  const { child, stop } = spawnOwned(HARDHAT_BIN, ['node', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (d) => (output = (output + d).slice(-4000)))
  child.stderr?.on('data', (d) => (output = (output + d).slice(-4000)))
  await waitForHttp(
    url,
    { child, stop },
    {
      what: 'hardhat node',
      timeoutMs,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      },
      output: () => `:\n${output}`,
    },
  )
  return { url, port, child, stop }
}

/**
 * Runs a Hardhat script against the node at `url` (as network "localhost") and resolves when it succeeds. `quiet`
 * (the tests) keeps its output and shows it only in the error when it fails, so a green run prints nothing of it.
 */
export function runHardhatScript(
  script: string,
  url: string,
  env: NodeJS.ProcessEnv = {},
  { quiet = false }: { quiet?: boolean } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(HARDHAT_BIN, ['run', script, '--network', 'localhost'], {
      cwd: ROOT,
      env: { ...process.env, RPC_URL_LOCAL: url, ...env },
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    })
    const output: Buffer[] = []
    child.stdout?.on('data', (d: Buffer) => output.push(d))
    child.stderr?.on('data', (d: Buffer) => output.push(d))
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${script} exited with ${code}${quiet ? `:\n${Buffer.concat(output).toString()}` : ''}`)),
    )
  })
}
