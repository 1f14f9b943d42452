/**
 * Points a test file at its worker's stack: the global setup starts one stack per Jest worker and lists them in
 * E2E_STACKS; each file, before it runs, gets its worker's URLs and folders as the E2E_* variables the helpers read
 * (scripts/lib/browser.ts, localChain.ts). A worker runs its files one after another, so no two share a stack at once.
 */
import type { E2EStack } from '../../scripts/lib/stack'

export const STACKS_ENV = 'E2E_STACKS'

/** What a file needs to know of a stack, as environment variables. */
export function stackEnv(stack: E2EStack): Record<string, string> {
  return {
    E2E_CHAIN_URL: stack.chainUrl,
    E2E_API_URL: stack.apiUrl,
    E2E_APP_RPC_URL: stack.rpc.url,
    E2E_APP_API_URL: stack.apiProxy.url,
    E2E_APP_URL: stack.appUrl,
    E2E_DEPLOYMENTS_DIR: stack.deploymentsDir,
    E2E_DIST_DIR: stack.distDir,
  }
}

/** Sets this worker's stack's variables (run before each file: test/setup/e2eWorker.ts). */
export function pointAtWorkerStack() {
  const listed = process.env[STACKS_ENV]
  if (!listed) throw new Error(`${STACKS_ENV} is not set: the browser tests start their stacks in test/e2e/globalSetup.ts`)
  const stacks = JSON.parse(listed) as Record<string, string>[]
  // Jest numbers its workers from 1 up to its maxWorkers, for which the setup started as many stacks; in band is 1.
  // A worker without one would share another's chain and fault switches with it, so it stops here instead.
  const worker = Number(process.env.JEST_WORKER_ID ?? '1')
  const stack = stacks[worker - 1]
  if (!stack) throw new Error(`Jest worker ${worker} has no stack of its own (${stacks.length} started)`)
  Object.assign(process.env, stack)
}
