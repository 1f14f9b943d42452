/**
 * `npm run bench:bundle`: a production build, then the gzip size of the JavaScript the first page view loads
 * (the entry chunks) and of each lazy chunk group the app fetches on demand: the pages, the dialogs, the wallet
 * connectors, the chain sagas with ethers' providers, WalletConnect, the chain catalogue (docs/architecture.md §10).
 * Since the public view (every visit shows a page), the entry also loads both page chunks before its first render
 * (src/index.tsx, loadPages), and every visit reads the chain with the chain sagas' chunk and reconnects or discovers
 * wallets with the connectors'; the first paint is the document's markup and needs none. Those four chunks are one file
 * the documents' loader fetches beside the entry (FIRST_RENDER_CHUNKS, src/hosting/documents.ts), so it prints the
 * load too: the entry and that file. Budgets: the first view (entry) at most 135 KB gzip (issue #23), the load at most
 * 250 KB (the entry, pages, chain and connectors' files came to 263 KB as four). Beside gzip it prints the brotli size
 * a browser is sent (the build's `.br` copies, webpack.config.ts; budgets stay in gzip). `npm run bench:lighthouse` measures what a page load transfers and costs.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { FIRST_RENDER_CHUNKS } from '../../src/hosting/documents'

const ROOT = path.join(__dirname, '..', '..')
const FIRST_VIEW_BUDGET_KB = 135
const LOAD_BUDGET_KB = 250

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

/** What the build's brotli copies weigh; a file too small to have one (under 1 KB) counts as it is. */
const brotliKb = (files: string[]) =>
  files
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => {
      const file = path.join(out, 'dist', f)
      return sum + fs.statSync(fs.existsSync(`${file}.br`) ? `${file}.br` : file).size
    }, 0) / 1024

const entry = stats.entrypoints.main.assets.map((a) => a.name)
const rows: [string, number, number, number][] = [
  ['first view (entry chunks)', entry.filter((f) => f.endsWith('.js')).length, gzipKb(entry), brotliKb(entry)],
]
for (const [name, group] of Object.entries(stats.namedChunkGroups)) {
  if (name === 'main') continue
  // What choosing it downloads beyond the first view.
  const files = group.assets.map((a) => a.name).filter((f) => !entry.includes(f))
  rows.push([`lazy: ${name}`, files.filter((f) => f.endsWith('.js')).length, gzipKb(files), brotliKb(files)])
}

console.log('\n| what | JS files | gzip KB | brotli KB |\n|---|---:|---:|---:|')
for (const [what, n, kb, br] of rows) console.log(`| ${what} | ${n} | ${kb.toFixed(1)} | ${br.toFixed(1)} |`)
const first = rows[0][2]
// The chunks every load fetches beside the entry, beyond what the entry already holds (shared code counted once).
const loadFiles = [
  ...new Set(FIRST_RENDER_CHUNKS.flatMap((g) => stats.namedChunkGroups[g]?.assets.map((a) => a.name) ?? [])),
].filter((f) => !entry.includes(f))
const load = first + gzipKb(loadFiles)
const verdict = (kb: number, budget: number) =>
  `${kb.toFixed(1)} KB gzip, budget ${budget} KB: ${kb <= budget ? 'within' : 'OVER'} budget`
console.log(`\nFirst view (entry): ${verdict(first, FIRST_VIEW_BUDGET_KB)}.`)
console.log(
  `Load (entry + ${loadFiles.filter((f) => f.endsWith('.js')).length} file(s) of pages, chain reads and connectors): ` +
    `${verdict(load, LOAD_BUDGET_KB)}, ${(rows[0][3] + brotliKb(loadFiles)).toFixed(1)} KB brotli.`,
)
fs.rmSync(out, { recursive: true, force: true })
