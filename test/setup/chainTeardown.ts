export default async function teardown() {
  const nodes = globalThis.__CHAIN_NODES__ ?? []
  globalThis.__CHAIN_NODES__ = []
  await Promise.all(nodes.map((n) => n.stop()))
}
