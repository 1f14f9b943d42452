import path from 'node:path'
import webpack from 'webpack'
import HtmlWebpackPlugin from 'html-webpack-plugin'
import ReactRefreshWebpackPlugin from '@pmmmwh/react-refresh-webpack-plugin'
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server'

type Env = Record<string, string | boolean | undefined>

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
      path: path.join(__dirname, 'dist'),
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
      new webpack.DefinePlugin({
        'process.env.WALLETCONNECT_PROJECT_ID': JSON.stringify(process.env.WALLETCONNECT_PROJECT_ID ?? ''),
        'process.env.VESTING_API_URL': JSON.stringify(process.env.VESTING_API_URL ?? ''),
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
