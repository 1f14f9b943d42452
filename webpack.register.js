// webpack-cli loads webpack.config.ts through Babel (docs/architecture.md §2): no ts-node ESM/CJS friction.
require('@babel/register')({ extensions: ['.ts', '.tsx', '.js'], envName: 'test', cache: false })
