import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort, spawnOwned } from './node'

export interface RunningPostgres {
  /** postgres://… of the cluster's `postgres` database. */
  url: string
  port: number
  /** A new empty database on the cluster; its URL. */
  createDatabase(name: string): Promise<string>
  stop(): Promise<void>
}

/** Debian's PostgreSQL server binaries (the `postgresql` package), newest version first. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  for (const v of versions) if (fs.existsSync(path.join(root, v, 'bin', 'postgres'))) return path.join(root, v, 'bin')
  throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run does).')
}

/**
 * A throwaway PostgreSQL cluster in a temporary directory, on a free port of 127.0.0.1, owned by this process and
 * stopped by its PID. PostgreSQL refuses to run as root, so as root it runs as `nobody` (setpriv execs it in place:
 * the PID we hold is the server's).
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = postgresBin()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-test-'))
  const asRoot = process.getuid?.() === 0
  const as = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', cmd, ...args]] : [cmd, args]
  if (asRoot) execFileSync('chown', ['nobody:nogroup', dir])
  const data = path.join(dir, 'data')
  const [initCmd, initArgs] = as(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ])
  execFileSync(initCmd, initArgs, { stdio: 'pipe', cwd: dir })
  const port = await freePort()
  const [cmd, args] = as(path.join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'full_page_writes=off',
  ])
  const server = spawnOwned(cmd, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  server.child.stderr?.on('data', (d) => (output = (output + d).slice(-4000)))
  server.child.stdout?.on('data', (d) => (output = (output + d).slice(-4000)))
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const deadline = Date.now() + 30_000
  for (;;) {
    const client = new pg.Client({ connectionString: url })
    try {
      await client.connect()
      await client.end()
      break
    } catch (err) {
      await client.end().catch(() => {})
      if (server.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`create database "${name.replace(/"/g, '')}"`)
      await client.end()
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    async stop() {
      // SIGTERM: a "smart" shutdown would wait for clients; SIGINT ends their sessions (fast shutdown).
      if (server.child.exitCode === null) {
        const exited = new Promise((r) => server.child.once('exit', r))
        server.child.kill('SIGINT')
        await exited
      }
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
