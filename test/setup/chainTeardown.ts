export default async function teardown() {
  await globalThis.__CHAIN_NODE__?.stop()
}
