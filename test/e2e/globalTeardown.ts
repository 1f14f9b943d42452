export default async function teardown() {
  await globalThis.__E2E_BROWSER__?.close()
  await globalThis.__E2E_STACK__?.stop()
}
