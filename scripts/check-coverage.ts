/**
 * After `hardhat coverage`: prints line, statement, branch and function coverage of contracts/ from coverage.json
 * and fails below the project's floor for lines (95%).
 */
import fs from 'node:fs'

const LINE_FLOOR = 95
type FileCoverage = {
  l: Record<string, number>
  s: Record<string, number>
  b: Record<string, number[]>
  f: Record<string, number>
}

const data = JSON.parse(fs.readFileSync('coverage.json', 'utf8')) as Record<string, FileCoverage>
const totals = { lines: [0, 0], statements: [0, 0], branches: [0, 0], functions: [0, 0] }
const add = (key: keyof typeof totals, hits: number[]) => {
  totals[key][0] += hits.filter((h) => h > 0).length
  totals[key][1] += hits.length
}
for (const [file, c] of Object.entries(data)) {
  if (!file.startsWith('contracts/')) continue
  add('lines', Object.values(c.l))
  add('statements', Object.values(c.s))
  add('branches', Object.values(c.b).flat())
  add('functions', Object.values(c.f))
}
const pct = ([hit, all]: number[]) => (all === 0 ? 100 : (100 * hit) / all)
for (const [k, v] of Object.entries(totals)) console.log(`contracts/ ${k.padEnd(10)} ${pct(v).toFixed(2)}% (${v[0]}/${v[1]})`)
if (pct(totals.lines) < LINE_FLOOR) {
  console.error(`Line coverage ${pct(totals.lines).toFixed(2)}% is below ${LINE_FLOOR}%.`)
  process.exit(1)
}
