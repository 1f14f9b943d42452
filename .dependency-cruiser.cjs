/**
 * The layers of docs/architecture.md §4, checked by `npm run lint` (dependency-cruiser): what may import what, and no
 * import circles except through a type-only import (erased when compiled), and none at all through the chain layer.
 */
const APP = '^src/'
/** Pure code shared by the app, the API, scripts and tests. */
const DOMAIN = '^src/domain/'
/** The browser (cookies, storage, URL), logging and the app's timers: below everything else in src/. */
const PLATFORM = '^src/platform/'
/** Build configuration, the networks table and the chain catalogue. */
const CONFIG = '^src/config/'
/** Providers, wallets, contracts and transactions. */
const CHAIN = '^src/chain/'
const FORMAT = '^src/format/'
/** What features share with the app: saga and hook helpers, the dialog registry, lazy chunks. */
const KIT = '^src/kit/'
const UPPER_APP = '^src/(app|features|pages|ui|hosting|App|index)'

/**
 * What each feature may import of the others (docs/architecture.md §4): wallet none, token the wallet, stake and vesting
 * the wallet and the token. So no two features import each other, not even a type; a state or action two features
 * need lives in the lower one (the token figures and allowances in token, the harvest terms in vesting).
 */
const FEATURES_BELOW = { wallet: [], token: ['wallet'], stake: ['wallet', 'token'], vesting: ['wallet', 'token'] }
const featureOrder = Object.entries(FEATURES_BELOW).map(([feature, below]) => ({
  name: `feature-order-${feature}`,
  comment: `src/features/${feature} imports ${below.length ? `only ${below.join(' and ')} of the other features` : 'no other feature'}.`,
  severity: 'error',
  from: { path: `^src/features/${feature}/`, pathNot: '\\.test\\.tsx?$' },
  to: { path: '^src/features/', pathNot: [`^src/features/${feature}/`, ...below.map((b) => `^src/features/${b}/`)] },
}))

const only = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  // Tests may reach across layers to set up what they test.
  from: { path: from, pathNot: '\\.test\\.tsx?$' },
  to: { path: '^(src|server|scripts|test)/', pathNot: [from, ...allowed] },
})

module.exports = {
  forbidden: [
    {
      name: 'no-circle',
      comment: 'No circle of imports anywhere, not even through a type-only import: the house reads top to bottom.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'app-is-the-root',
      comment:
        'src/app is the composition root (store, root saga, shell, dialog outlet, providers): only the entry points import it; what features share lives in src/kit.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/app/', '^src/(index|App|firstView)\\.tsx$', '\\.test\\.tsx?$'],
      },
      to: { path: '^src/app/' },
    },
    only(
      'kit-is-a-leaf',
      KIT,
      [DOMAIN, PLATFORM, CONFIG, FORMAT, '^src/ui/'],
      'src/kit (safely, backoff, the dialog registry, lazy chunks, typed hooks) imports no feature, page or app code.',
    ),
    only('domain-is-pure', DOMAIN, [], 'src/domain imports nothing of ours outside itself.'),
    {
      name: 'domain-without-node-or-react',
      comment: 'src/domain runs in the browser and in Node alike: no Node built-ins, no React, no redux.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-without-frameworks',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: 'node_modules/(react|react-dom|react-redux|@reduxjs|redux-saga|styled-components|js-cookie)/' },
    },
    ...featureOrder,
    {
      name: 'ui-is-presentational',
      comment: 'src/ui draws what it is given: no feature, page or store code (the header gets the wallet button as a prop).',
      severity: 'error',
      from: { path: '^src/ui/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/(features|pages|app)/' },
    },
    only('format-below-chain', FORMAT, [DOMAIN], 'src/format: number and date formatting, on domain figures only.'),
    only('platform-at-the-bottom', PLATFORM, [DOMAIN]),
    only('config-below-chain', CONFIG, [DOMAIN, PLATFORM, FORMAT]),
    only(
      'chain-below-the-app',
      CHAIN,
      [DOMAIN, PLATFORM, CONFIG, FORMAT],
      'The chain layer never reads the store, a feature or a component: callers pass what it needs.',
    ),
    {
      name: 'app-not-into-server-scripts-test',
      severity: 'error',
      from: { path: APP, pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(server|scripts|test)/' },
    },
    {
      name: 'server-not-scripts',
      comment: 'The API shares code with scripts only through src/domain.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: ['^scripts/', UPPER_APP, CHAIN, '^test/'] },
    },
    {
      name: 'scripts-not-test',
      comment:
        'Imports between scripts/ and test/ run one way: tests use the stack library (scripts/lib), benchmarks never import a test file.',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^test/' },
    },
    {
      name: 'scripts-not-server',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|artifacts|cache|coverage|dist|src/chain/types)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json', '.d.ts'] },
  },
}
