import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import webpack from 'webpack'
import HtmlWebpackPlugin from 'html-webpack-plugin'
import ReactRefreshWebpackPlugin from '@pmmmwh/react-refresh-webpack-plugin'
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server'
import { readBuildConfig, type BuildEnv } from './src/config/buildConfig'
import { contentSecurityPolicy } from './src/hosting/csp'
import { formatHeadersFile, HASHED_DIR, headerRules, HEADERS_FILE, securityHeaders } from './src/hosting/headers'

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

/**
 * Writes the build's response headers (src/hosting/headers.ts) next to index.html, with a CSP made for this build: it
 * hashes index.html's inline <style> blocks and fails the build on an inline <script> or style attribute, which the
 * policy would block in the browser.
 */
class HeadersFilePlugin {
  constructor(private readonly policy: (inlineStyleHashes: string[]) => string) {}

  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('HeadersFilePlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // After HtmlWebpackPlugin has written index.html (PROCESS_ASSETS_STAGE_OPTIMIZE_INLINE).
        { name: 'HeadersFilePlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        () => {
          const html = compilation.getAsset('index.html')?.source.source().toString() ?? ''
          const fail = (message: string) => compilation.errors.push(new webpack.WebpackError(`index.html: ${message}`))
          if (/<script(?![^>]*\ssrc=)[^>]*>/i.test(html)) fail('an inline <script>; the Content-Security-Policy allows none')
          if (/<[a-z][^>]*\sstyle=/i.test(html)) fail('a style attribute; the Content-Security-Policy blocks it, use <style>')
          const hashes = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map(
            (m) => `sha256-${createHash('sha256').update(m[1]).digest('base64')}`,
          )
          const text = formatHeadersFile(headerRules(this.policy(hashes)))
          compilation.emitAsset(HEADERS_FILE, new webpack.sources.RawSource(text))
        },
      )
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
    APP_TIMERS: process.env.APP_TIMERS ?? '',
  }
  const buildConfig = readBuildConfig(appEnv)
  // Hashed names live in static/ so one rule gives them a year's cache (HASHED_DIR); development keeps plain names.
  const hashed = (name: string) => (dev ? name : `${HASHED_DIR}/${name}`)
  return {
    mode,
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
    devtool: dev ? 'eval-cheap-module-source-map' : false,
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      alias: {
        // web3-react v8 imports ethers v5 pieces; the app uses ethers v6 only (docs/architecture.md §2).
        '@ethersproject/providers': false,
        '@ethersproject/address': path.join(__dirname, 'src', 'chain', 'shims', 'ethersproject-address.ts'),
        // ethers' ENS name normaliser (about 11 KB gzip) serves only ENS names, which the app never resolves: a shim
        // that refuses any name keeps it out of the bundle (src/chain/shims/ens-normalize.ts).
        '@adraffy/ens-normalize$': path.join(__dirname, 'src', 'chain', 'shims', 'ens-normalize.ts'),
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
      // The favicon is the header's mark; a page without one asks for /favicon.ico on every load and gets a 404.
      new HtmlWebpackPlugin({
        template: path.join(__dirname, 'public', 'index.html'),
        favicon: path.join(__dirname, 'public', 'favicon.svg'),
      }),
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
      ...(serving ? [new ReactRefreshWebpackPlugin()] : []),
      ...(dev ? [] : [new HeadersFilePlugin((inlineStyleHashes) => contentSecurityPolicy(buildConfig, { inlineStyleHashes }))]),
    ],
    performance: { hints: false },
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
