export default async function teardown() {
  await globalThis.__E2E_STOP__?.()
}
