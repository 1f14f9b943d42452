/**
 * `npm run fuzz`: the pool properties' long run (test/contracts/PoolProperties.test.ts), one process per pool version
 * so the two versions use two cores: a 20,000-sequence run takes half the wall time it took in one mocha process.
 * FUZZ_RUNS (sequences per version, default 1,000), FUZZ_SEED and FUZZ_COMMANDS pass through; FUZZ_VERSIONS
 * (default `1,2`) picks versions. Each line is prefixed with its version; the exit code is the worst of the two.
 */
import { spawn } from 'node:child_process'
import readline from 'node:readline'

const versions = (process.env.FUZZ_VERSIONS ?? '1,2').split(',').map((v) => v.trim())
const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '1000' }
const started = Date.now()

function run(version: string): Promise<number> {
  const child = spawn(
    'npx',
    ['hardhat', 'test', '--no-compile', 'test/contracts/PoolProperties.test.ts', '--grep', `version ${version}:`],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`[v${version}] ${line}`))
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)))
}

void Promise.all(versions.map(run)).then((codes) => {
  const worst = Math.max(...codes)
  console.log(
    `fuzz: versions ${versions.join(', ')}, FUZZ_RUNS=${env.FUZZ_RUNS} each, ${((Date.now() - started) / 1000).toFixed(0)} s wall, exit ${worst}`,
  )
  process.exit(worst)
})
