/**
 * One Babel config for webpack (envName = webpack mode, so production builds get the production JSX runtime) and
 * for Jest (envName "test", targeting the running Node). Browser targets come from package.json "browserslist":
 * bigint-capable browsers only, so `**` on bigint stays native instead of becoming Math.pow (which throws on bigint).
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
