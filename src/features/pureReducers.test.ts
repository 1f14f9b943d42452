import { execFileSync } from 'node:child_process'
import path from 'node:path'

const ROOT = path.join(__dirname, '..', '..')

/**
 * ESLint's own API in a child process (its flat config is ES modules, which Jest's CommonJS cannot load): the rule ids
 * reported for each source, linted as if it were the file named beside it.
 */
function lintAll(cases: { source: string; file: string }[]): string[][] {
  const script = `
    const { ESLint } = require('eslint')
    const cases = JSON.parse(process.argv[1])
    const eslint = new ESLint({ cwd: ${JSON.stringify(ROOT)} })
    Promise.all(cases.map((c) => eslint.lintText(c.source, { filePath: c.file }))).then((results) =>
      console.log(JSON.stringify(results.map((r) => r[0].messages.map((m) => m.ruleId)))),
    )`
  return JSON.parse(execFileSync(process.execPath, ['-e', script, JSON.stringify(cases)], { cwd: ROOT, encoding: 'utf8' }))
}

const SLICE = 'src/features/vesting/slice.ts'
const impure = [
  'export const at = () => Date.now()\n',
  'export const at = () => new Date().getTime()\n',
  'export const at = () => Date()\n',
  'export const id = () => Math.random()\n',
  'export const id = () => crypto.randomUUID()\n',
  'export const id = () => globalThis.crypto.randomUUID()\n',
  "import { randomUUID } from 'node:crypto'\nexport const id = () => randomUUID()\n",
  'export const at = () => performance.now()\n',
]
const pureSlice = 'export const at = (action: { payload: { at: number } }) => action.payload.at\n'

describe('reducers are pure (eslint.config.mjs)', () => {
  const results = lintAll([
    ...impure.map((source) => ({ source, file: SLICE })),
    { source: impure[0], file: 'src/features/vesting/sagas.ts' },
    { source: pureSlice, file: SLICE },
  ])

  it.each(impure.map((source, i) => [source, i] as const))('refuses %j in a slice', (_source, i) => {
    expect(results[i].filter((rule) => rule.startsWith('no-restricted-'))).not.toEqual([])
  })

  it('allows the clock in a saga, and a slice that takes the time from its action', () => {
    expect(results[impure.length]).toEqual([])
    expect(results[impure.length + 1]).toEqual([])
  })
})
