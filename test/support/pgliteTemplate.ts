import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgliteDir } from '../../server/db/database'

/**
 * PGlite's first start in an empty directory runs initdb: 4-8 CPU-s here, where opening a copy of a directory it made
 * before takes 0.7. The index's tests start a dozen fresh databases, so each begins as a copy of one empty cluster made
 * once per test run (in the run's temp dir, or this process's own). Only initdb is skipped: the service still runs its
 * migrations on every copy. A first start in a really empty directory stays covered by the browser tests' stack.
 */
let making: Promise<string> | null = null

function templateDir(): Promise<string> {
  const root = process.env.TEST_DEPLOYMENTS_DIR ?? path.join(os.tmpdir(), `pglite-template-${process.pid}`)
  const dir = path.join(root, 'pglite-template')
  // A marker written after the cluster closed cleanly: a half-made template is never copied.
  const ready = `${dir}.ready`
  if (fs.existsSync(ready)) return Promise.resolve(dir)
  making ??= (async () => {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(root, { recursive: true })
    const db = await PGlite.create(dir)
    await db.close()
    fs.writeFileSync(ready, '')
    return dir
  })()
  return making
}

/** Puts a copy of the empty cluster where the service opens PGlite in `dataDir`, unless one is already there. */
export async function seedPgliteDir(dataDir: string): Promise<void> {
  const target = pgliteDir(dataDir)
  if (fs.existsSync(target)) return
  fs.cpSync(await templateDir(), target, { recursive: true })
}
