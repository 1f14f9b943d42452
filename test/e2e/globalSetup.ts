import { startE2EStack, type E2EStack } from './stack'

declare global {
  var __E2E_STACK__: E2EStack | undefined
}

export default async function setup() {
  const stack = await startE2EStack()
  globalThis.__E2E_STACK__ = stack
  process.env.E2E_CHAIN_URL = stack.chainUrl
  process.env.E2E_API_URL = stack.apiUrl
  process.env.E2E_APP_URL = stack.appUrl
  process.env.E2E_DEPLOYMENTS_DIR = stack.deploymentsDir
  process.env.E2E_DIST_DIR = stack.distDir
}
