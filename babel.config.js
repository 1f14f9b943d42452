/**
 * One Babel config for webpack (envName = webpack mode, so production builds get the production JSX runtime) and
 * for Jest (envName "test", targeting the running Node).
 */
module.exports = (api) => {
  const env = api.env()
  const isTest = env === 'test'
  return {
    presets: [
      ['@babel/preset-env', isTest ? { targets: { node: 'current' } } : { bugfixes: true, modules: false }],
      ['@babel/preset-react', { runtime: 'automatic', development: env === 'development' }],
      ['@babel/preset-typescript', { allowDeclareFields: true }],
    ],
    plugins: [['babel-plugin-styled-components', { displayName: env !== 'production', pure: true }]],
  }
}
