import fs from 'node:fs'
import path from 'node:path'
import webpack from 'webpack'
import HtmlWebpackPlugin from 'html-webpack-plugin'
import ReactRefreshWebpackPlugin from '@pmmmwh/react-refresh-webpack-plugin'
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server'

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

export default (
  _env: Env,
  argv: { mode?: 'development' | 'production' },
): webpack.Configuration & { devServer?: DevServerConfiguration } => {
  const mode = argv.mode ?? 'development'
  const dev = mode === 'development'
  const serving = process.env.WEBPACK_SERVE === 'true'
  return {
    mode,
    entry: path.join(__dirname, 'src', 'index.tsx'),
    output: {
      path: process.env.APP_OUT_DIR ?? path.join(__dirname, 'dist'),
      filename: dev ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: dev ? '[name].chunk.js' : '[name].[contenthash:8].chunk.js',
      publicPath: '/',
      clean: true,
    },
    devtool: dev ? 'eval-cheap-module-source-map' : 'source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      alias: {
        // web3-react v8 imports ethers v5 pieces; the app uses ethers v6 only (see ARCHITECTURE.md).
        '@ethersproject/providers': false,
        '@ethersproject/address': path.join(__dirname, 'src', 'chain', 'shims', 'ethersproject-address.ts'),
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
      new HtmlWebpackPlugin({ template: path.join(__dirname, 'public', 'index.html') }),
      // Build-time configuration, read by src/chain/buildConfig.ts (see the README's environment table).
      new webpack.DefinePlugin({
        'process.env.APP_DEPLOYMENTS': JSON.stringify(JSON.stringify(readDeployments())),
        'process.env.APP_API_HOSTS': JSON.stringify(process.env.APP_API_HOSTS ?? ''),
        'process.env.LOCAL_RPC_URL': JSON.stringify(process.env.LOCAL_RPC_URL ?? ''),
        'process.env.LOCAL_API_URL': JSON.stringify(process.env.LOCAL_API_URL ?? ''),
        'process.env.LOCAL_EXPLORER_URL': JSON.stringify(process.env.LOCAL_EXPLORER_URL ?? ''),
        'process.env.DEFAULT_CHAIN_ID': JSON.stringify(process.env.DEFAULT_CHAIN_ID ?? ''),
        'process.env.WALLETCONNECT_PROJECT_ID': JSON.stringify(process.env.WALLETCONNECT_PROJECT_ID ?? ''),
        'process.env.RENDER_COUNTS': JSON.stringify(process.env.RENDER_COUNTS ?? ''),
        'process.env.APP_TIMERS': JSON.stringify(process.env.APP_TIMERS ?? ''),
      }),
      ...(serving ? [new ReactRefreshWebpackPlugin()] : []),
    ],
    performance: { hints: false },
    devServer: {
      host: '127.0.0.1',
      port: Number(process.env.APP_PORT ?? 3000),
      historyApiFallback: true,
      hot: true,
      client: { overlay: { warnings: false } },
    },
  }
}
