/**
 * `npm run bench:bundle`: a production build, then the gzip size of the JavaScript the first page view loads
 * (the entry chunks) and of each lazy chunk group the app fetches on demand: the pages, the dialogs, the wallet
 * connectors, the chain sagas with ethers' providers, WalletConnect, the chain catalogue (docs/architecture.md §10).
 * Budget: first view at most 200 KB gzip. `npm run bench:lighthouse` measures what a page load transfers and costs.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'

const ROOT = path.join(__dirname, '..', '..')
const BUDGET_KB = 200

interface Stats {
  entrypoints: Record<string, { assets: { name: string }[] }>
  namedChunkGroups: Record<string, { assets: { name: string }[] }>
}

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-bench-'))
const statsFile = path.join(out, 'stats.json')
console.log('Building for production...')
execFileSync(
  process.execPath,
  [
    '-r',
    './webpack.register.js',
    './node_modules/webpack-cli/bin/cli.js',
    '--disable-interpret',
    '--mode',
    'production',
    '--json',
    statsFile,
  ],
  { cwd: ROOT, env: { ...process.env, APP_OUT_DIR: path.join(out, 'dist') }, stdio: ['ignore', 'ignore', 'inherit'] },
)
const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as Stats

const gzipKb = (files: string[]) =>
  files
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(out, 'dist', f)), { level: 9 }).length, 0) / 1024

const entry = stats.entrypoints.main.assets.map((a) => a.name)
const rows: [string, number, number][] = [
  ['first view (entry chunks)', entry.filter((f) => f.endsWith('.js')).length, gzipKb(entry)],
]
for (const [name, group] of Object.entries(stats.namedChunkGroups)) {
  if (name === 'main') continue
  // What choosing it downloads beyond the first view.
  const files = group.assets.map((a) => a.name).filter((f) => !entry.includes(f))
  rows.push([`lazy: ${name}`, files.filter((f) => f.endsWith('.js')).length, gzipKb(files)])
}

console.log('\n| what | JS files | gzip KB |\n|---|---:|---:|')
for (const [what, n, kb] of rows) console.log(`| ${what} | ${n} | ${kb.toFixed(1)} |`)
const first = rows[0][2]
console.log(
  `\nFirst view: ${first.toFixed(1)} KB gzip, budget ${BUDGET_KB} KB: ${first <= BUDGET_KB ? 'within' : 'OVER'} budget.`,
)
fs.rmSync(out, { recursive: true, force: true })
