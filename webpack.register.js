// webpack-cli loads webpack.config.ts through Babel (see ARCHITECTURE.md): no ts-node ESM/CJS friction.
require('@babel/register')({ extensions: ['.ts', '.tsx', '.js'], envName: 'test', cache: false })
