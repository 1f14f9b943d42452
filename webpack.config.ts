import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import webpack from 'webpack'
import CompressionPlugin from 'compression-webpack-plugin'
import HtmlWebpackPlugin from 'html-webpack-plugin'
import ReactRefreshWebpackPlugin from '@pmmmwh/react-refresh-webpack-plugin'
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server'
import { readBuildConfig, type BuildConfig, type BuildEnv } from './src/config/buildConfig'
import { contentSecurityPolicy } from './src/hosting/csp'
import {
  DOCUMENTS,
  FIRST_RENDER_CHUNKS,
  IDLE_PREFETCH_CHUNKS,
  inlineBlocks,
  loaderScript,
  pathOf,
  withFirstView,
} from './src/hosting/documents'
import {
  COMPRESSED_EXTENSIONS,
  formatHeadersFile,
  HASHED_DIR,
  headerRules,
  HEADERS_FILE,
  securityHeaders,
} from './src/hosting/headers'
import { SAFE_ICON_FILE, SAFE_MANIFEST_FILE, safeAppManifest } from './src/hosting/safeManifest'

type Env = Record<string, string | boolean | undefined>

/**
 * Every deployments/<chainId>.json the build can see (DEPLOYMENTS_DIR overrides the folder, as for the deploy
 * script): a chain counts as supported in the app exactly when its record is compiled in.
 */
function readDeployments(): Record<string, unknown> {
  const dir = process.env.DEPLOYMENTS_DIR ?? path.join(__dirname, 'deployments')
  if (!fs.existsSync(dir)) return {}
  const records: Record<string, unknown> = {}
  for (const file of fs.readdirSync(dir)) {
    const m = /^(\d+)\.json$/.exec(file)
    if (m) records[m[1]] = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
  }
  return records
}

/** The CSP source of an inline block: the base64 sha256 of its text. */
const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`

/**
 * Writes the build's response headers (src/hosting/headers.ts) next to index.html, with a CSP made for this build: it
 * hashes the inline <style> and <script> blocks of every document (src/hosting/documents.ts) and fails the build on a
 * style attribute, which the policy would block in the browser.
 */
class HeadersFilePlugin {
  constructor(private readonly policy: (hashes: { styles: string[]; scripts: string[] }) => string) {}

  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('HeadersFilePlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // After HtmlWebpackPlugin has written the documents (OPTIMIZE_INLINE) and webpack has put the real content hashes
        // into the file names they name (OPTIMIZE_HASH): the loader's text holds the entry's name, so its hash must be
        // taken from the final text.
        { name: 'HeadersFilePlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        () => {
          const styles = new Set<string>()
          const scripts = new Set<string>()
          for (const { file } of DOCUMENTS) {
            const html = compilation.getAsset(file)?.source.source().toString()
            if (html === undefined) continue
            if (/<[a-z][^>]*\sstyle=/i.test(html))
              compilation.errors.push(
                new webpack.WebpackError(`${file}: a style attribute; the Content-Security-Policy blocks it, use <style>`),
              )
            inlineBlocks(html, 'style').forEach((css) => styles.add(sha256(css)))
            inlineBlocks(html, 'script').forEach((js) => scripts.add(sha256(js)))
          }
          const text = formatHeadersFile(headerRules(this.policy({ styles: [...styles], scripts: [...scripts] })))
          compilation.emitAsset(HEADERS_FILE, new webpack.sources.RawSource(text))
          // The Safe App manifest and its icon (src/hosting/safeManifest.ts), for Safe{Wallet}.
          compilation.emitAsset(SAFE_MANIFEST_FILE, new webpack.sources.RawSource(safeAppManifest()))
          compilation.emitAsset(SAFE_ICON_FILE, new webpack.sources.RawSource(fs.readFileSync(FAVICON)))
        },
      )
    })
  }
}

/** The site's icon: the header's mark, the Safe App's icon. */
const FAVICON = path.join(__dirname, 'public', 'favicon.svg')
/** The icon as a data URI for the documents (the Content-Security-Policy's img-src allows data:). */
const FAVICON_DATA_URI = `data:image/svg+xml,${encodeURIComponent(fs.readFileSync(FAVICON, 'utf8').replace(/\s*\n\s*/g, ''))}`

/**
 * Puts each document's first view in it (src/firstView.tsx renders the app's markup and CSS at the document's route;
 * src/hosting/documents.ts adds them and the returning-wallet check), so the page paints before its script arrives.
 */
class FirstViewPlugin {
  /** The build's own configuration: the first view shows its default network's page (the public view). */
  constructor(private readonly config: BuildConfig) {}
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('FirstViewPlugin', (compilation) => {
      const hooks = HtmlWebpackPlugin.getHooks(compilation)
      // The entry scripts are fetched and run by loaderScript once the first view has painted; the document names
      // none of them in its head.
      hooks.alterAssetTagGroups.tap('FirstViewPlugin', (data) => {
        const isEntry = (t: HtmlWebpackPlugin.HtmlTagObject) => t.tagName === 'script' && typeof t.attributes.src === 'string'
        const srcs = data.headTags.filter(isEntry).map((t) => String(t.attributes.src))
        // The chunks every first render waits for, fetched beside the entry rather than after it runs: both pages'
        // (the entry loads them before its first render), the chain sagas' (every visit reads the chain now, the
        // public view too) and the connectors'. Without these, each was one more round trip after the entry had run.
        const base = String(compilation.outputOptions.publicPath ?? '/')
        const filesOf = (names: string[]) =>
          names
            .flatMap((name) => [...(compilation.namedChunkGroups.get(name)?.getFiles() ?? [])])
            .filter((file) => file.endsWith('.js'))
            .map((file) => `${base}${file}`)
        // Each file once, and none the loader asks for already.
        const beyond = (names: string[], ...asked: string[][]) =>
          [...new Set(filesOf(names))].filter((href) => !asked.some((list) => list.includes(href)))
        const preloads = beyond(FIRST_RENDER_CHUNKS, srcs)
        const later = beyond(IDLE_PREFETCH_CHUNKS, srcs, preloads)
        const loader = HtmlWebpackPlugin.createHtmlTagObject('script', {}, loaderScript(srcs, preloads, later))
        // The icon goes in the document itself: as a file it was one more request beside the scripts, whose download
        // every returning wallet's figures wait for (its headers outweigh its 312 bytes).
        const icon = (t: HtmlWebpackPlugin.HtmlTagObject) =>
          t.tagName === 'link' && t.attributes.rel === 'icon'
            ? { ...t, attributes: { ...t.attributes, href: FAVICON_DATA_URI } }
            : t
        return { ...data, headTags: [...data.headTags.filter((t) => !isEntry(t)).map(icon), loader] }
      })
      hooks.beforeEmit.tapPromise('FirstViewPlugin', async (data) => {
        // Loaded only here: a development build never renders on the server.
        const { renderFirstView } = await import('./src/firstView')
        return { ...data, html: withFirstView(data.html, await renderFirstView(pathOf(data.outputName), this.config)) }
      })
    })
  }
}

export default (
  _env: Env,
  argv: { mode?: 'development' | 'production' },
): webpack.Configuration & { devServer?: DevServerConfiguration } => {
  const mode = argv.mode ?? 'development'
  const dev = mode === 'development'
  const serving = process.env.WEBPACK_SERVE === 'true'
  const port = Number(process.env.APP_PORT ?? 3000)
  // Build-time configuration, read by src/config/buildConfig.ts (see the README's environment table).
  const appEnv: Required<BuildEnv> = {
    APP_DEPLOYMENTS: JSON.stringify(readDeployments()),
    APP_API_HOSTS: process.env.APP_API_HOSTS ?? '',
    LOCAL_RPC_URL: process.env.LOCAL_RPC_URL ?? '',
    LOCAL_API_URL: process.env.LOCAL_API_URL ?? '',
    LOCAL_EXPLORER_URL: process.env.LOCAL_EXPLORER_URL ?? '',
    DEFAULT_CHAIN_ID: process.env.DEFAULT_CHAIN_ID ?? '',
    WALLETCONNECT_PROJECT_ID: process.env.WALLETCONNECT_PROJECT_ID ?? '',
    SAFE_APP_ORIGINS: process.env.SAFE_APP_ORIGINS ?? '',
    APP_TIMERS: process.env.APP_TIMERS ?? '',
  }
  const buildConfig = readBuildConfig(appEnv)
  // Hashed names live in static/ so one rule gives them a year's cache (HASHED_DIR); development keeps plain names.
  const hashed = (name: string) => (dev ? name : `${HASHED_DIR}/${name}`)
  return {
    mode,
    // APP_BUILD_CACHE=<folder>: webpack's persistent cache there, so a second build that differs only in its settings
    // redoes only the chunks they reach (the browser tests' second stack, docs/architecture.md §10). A build for
    // hosting keeps none.
    cache: process.env.APP_BUILD_CACHE
      ? { type: 'filesystem', cacheDirectory: process.env.APP_BUILD_CACHE, buildDependencies: { config: [__filename] } }
      : undefined,
    entry: path.join(__dirname, 'src', 'index.tsx'),
    output: {
      path: process.env.APP_OUT_DIR ?? path.join(__dirname, 'dist'),
      filename: dev ? '[name].js' : hashed('[name].[contenthash:8].js'),
      chunkFilename: dev ? '[name].chunk.js' : hashed('[name].[contenthash:8].chunk.js'),
      assetModuleFilename: hashed('[contenthash:8][ext]'),
      publicPath: '/',
      clean: true,
    },
    // No source maps in a production build: dist/ is published as it is, and maps would publish the source.
    // APP_SOURCE_MAPS=1 writes them, to read a profile of a production build by our file names; never to publish.
    devtool: dev ? 'eval-cheap-module-source-map' : process.env.APP_SOURCE_MAPS === '1' ? 'source-map' : false,
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      alias: {
        // web3-react v8 imports ethers v5 pieces; the app uses ethers v6 only (docs/architecture.md §2).
        '@ethersproject/providers': false,
        '@ethersproject/address': path.join(__dirname, 'src', 'chain', 'shims', 'ethersproject-address.ts'),
        // ethers' ENS name normaliser (about 11 KB gzip) serves only ENS names, which the app never resolves: a shim
        // that refuses any name keeps it out of the bundle (src/chain/shims/ens-normalize.ts).
        '@adraffy/ens-normalize$': path.join(__dirname, 'src', 'chain', 'shims', 'ens-normalize.ts'),
        // Safe's EIP-1193 provider is CommonJS and requires the Apps SDK, whose CommonJS build requires all of viem
        // (about 150 KB gzip); its ES build imports only the viem functions it uses, which webpack can shake.
        '@safe-global/safe-apps-sdk$': path.join(
          __dirname,
          'node_modules',
          '@safe-global',
          'safe-apps-sdk',
          'dist',
          'esm',
          'index.js',
        ),
        // react-router 7's package exports point every bundler at its development build (warnings, dev checks); a
        // production build takes its production one (docs/architecture.md §10).
        ...(dev
          ? {}
          : { 'react-router$': path.join(__dirname, 'node_modules', 'react-router', 'dist', 'production', 'index.mjs') }),
      },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'babel-loader',
            // envName = mode, or production builds would get the development JSX runtime.
            options: { envName: mode, plugins: serving ? ['react-refresh/babel'] : [] },
          },
        },
        { test: /\.(png|svg|jpe?g|gif|webp)$/i, type: 'asset' },
      ],
    },
    plugins: [
      // One document per screen in a production build, the development server's one index.html otherwise. The favicon is
      // the header's mark; a page without one asks for /favicon.ico on every load and gets a 404.
      ...(dev ? [DOCUMENTS[0]] : DOCUMENTS).map(
        ({ file }) =>
          new HtmlWebpackPlugin({
            filename: file,
            template: path.join(__dirname, 'public', 'index.html'),
            favicon: FAVICON,
          }),
      ),
      ...(dev ? [] : [new FirstViewPlugin(buildConfig)]),
      new webpack.DefinePlugin({
        ...Object.fromEntries(Object.entries(appEnv).map(([k, v]) => [`process.env.${k}`, JSON.stringify(v)])),
        'process.env.RENDER_COUNTS': JSON.stringify(process.env.RENDER_COUNTS ?? ''),
      }),
      // ethers' secp256k1 (signing and key recovery, about 9 KB gzip): the app never signs or recovers keys itself, so
      // ethers' own import of it gets a shim that refuses any use (src/chain/shims/noble-secp256k1.ts). Only ethers':
      // WalletConnect's chunk needs the real curve.
      new webpack.NormalModuleReplacementPlugin(
        /^@noble\/curves\/secp256k1$/,
        (resource: { context: string; request: string }) => {
          if (/[\\/]node_modules[\\/]ethers[\\/]/.test(resource.context))
            resource.request = path.join(__dirname, 'src', 'chain', 'shims', 'noble-secp256k1.ts')
        },
      ),
      // ethers' `id` (a selector's or a topic's keccak) remembers its answers: ethers hashes the same signatures on
      // every call (src/chain/shims/ethers-id.ts).
      new webpack.NormalModuleReplacementPlugin(/^\.\/id\.js$/, (resource: { context: string; request: string }) => {
        if (/[\\/]node_modules[\\/]ethers[\\/]lib\.esm[\\/]hash$/.test(resource.context))
          resource.request = path.join(__dirname, 'src', 'chain', 'shims', 'ethers-id.ts')
      }),
      ...(serving ? [new ReactRefreshWebpackPlugin()] : []),
      ...(dev
        ? []
        : [
            new HeadersFilePlugin(({ styles, scripts }) =>
              contentSecurityPolicy(buildConfig, { inlineStyleHashes: styles, inlineScriptHashes: scripts }),
            ),
            // A brotli copy (`<file>.br`, quality 11) of each text file over 1 KB, beside it, for a host to send to a
            // browser that accepts br (every current one does): 14-16% fewer bytes than gzip -9 on the scripts a
            // visit waits for, the download a phone on slow 4G spends most of its first seconds on
            // (docs/operations.md §3, docs/architecture.md §10).
            new CompressionPlugin<zlib.BrotliOptions>({
              filename: '[path][base].br',
              algorithm: 'brotliCompress',
              test: new RegExp(`\\.(${COMPRESSED_EXTENSIONS.map((ext) => ext.slice(1)).join('|')})$`),
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
              threshold: 1024,
              minRatio: 0.9,
            }),
          ]),
    ],
    performance: { hints: false },
    // What every visit's first render and first reads wait for (FIRST_RENDER_CHUNKS) is one file beside the entry, not the
    // eight webpack would split it into: each request and each tag the documents' loader inserts cost time on a phone,
    // and in Lighthouse's model of slow 4G every file shares the line and ramps its own TCP window up again as others
    // finish. Four files (pages, chain, two of connectors) put a returning wallet's figures on / at 2.98-3.13 s there;
    // one puts them at 2.65-2.83 s (docs/architecture.md §10).
    optimization: dev
      ? undefined
      : {
          splitChunks: {
            cacheGroups: {
              first: {
                name: 'first',
                chunks: (chunk) => FIRST_RENDER_CHUNKS.includes(chunk.name ?? ''),
                enforce: true,
                priority: 30,
              },
            },
          },
        },
    devServer: {
      host: '127.0.0.1',
      port,
      historyApiFallback: true,
      // The same headers with a policy loosened only for what the dev server needs (contentSecurityPolicy's `dev`).
      headers: securityHeaders(
        contentSecurityPolicy(buildConfig, { dev: { socketOrigins: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] } }),
      ),
      hot: true,
      client: { overlay: { warnings: false } },
    },
  }
}
