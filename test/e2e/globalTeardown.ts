import fs from 'node:fs'

export default async function teardown() {
  await globalThis.__E2E_BROWSER__?.close()
  await Promise.all((globalThis.__E2E_STACKS__ ?? []).map((s) => s.stop()))
  if (globalThis.__E2E_BUILD_CACHE__) fs.rmSync(globalThis.__E2E_BUILD_CACHE__, { recursive: true, force: true })
}
