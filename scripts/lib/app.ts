import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { ROOT, spawnOwned } from './node'

export interface RunningApp {
  url: string
  stop: () => Promise<void>
}

async function waitForHttp(url: string, isAlive: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`${what} exited before it answered on ${url}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error(`${what} did not answer on ${url} within ${timeoutMs} ms`)
}

/** The webpack dev server (React Fast Refresh, history fallback) on 127.0.0.1:`port`, built against `env`. */
export async function startDevServer(port: number, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<RunningApp> {
  const url = `http://127.0.0.1:${port}`
  const { child, stop } = spawnOwned(
    process.execPath,
    [
      '-r',
      './webpack.register.js',
      './node_modules/webpack-cli/bin/cli.js',
      'serve',
      '--disable-interpret',
      '--mode',
      'development',
    ],
    { cwd: ROOT, env: { ...process.env, ...env, APP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  try {
    await waitForHttp(url, () => child.exitCode === null, timeoutMs, 'The dev server')
  } catch (err) {
    await stop()
    throw err
  }
  return { url, stop }
}

/** A production build of the app into `outDir`, configured by `env` (deployments, RPC and API URLs). */
export function buildApp(outDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const { child } = spawnOwned(
      process.execPath,
      ['-r', './webpack.register.js', './node_modules/webpack-cli/bin/cli.js', '--disable-interpret', '--mode', 'production'],
      { cwd: ROOT, env: { ...process.env, ...env, APP_OUT_DIR: outDir }, stdio: ['ignore', 'ignore', 'inherit'] },
    )
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`webpack build exited with ${code}`))))
  })
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
}

/** Serves a built app from `dir` on 127.0.0.1:`port`, answering unknown paths with index.html (history routing). */
export function serveStatic(dir: string, port: number): Promise<RunningApp> {
  const root = path.resolve(dir)
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    let file = path.resolve(root, `.${urlPath}`)
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(root, 'index.html')
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
    fs.createReadStream(file).pipe(res)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () => new Promise<void>((r) => server.close(() => r())),
      }),
    )
  })
}
