import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import prettier from 'eslint-config-prettier'
import globals from 'globals'

/** The slices of the store (src/app/store.ts): each one's state is read only through its own selectors.ts. */
const SLICES = ['wallet', 'token', 'stake', 'vesting']

const SELECTOR_RULE = "State is read through a selector of its slice's selectors.ts (docs/architecture.md §5), not inline."

/**
 * docs/architecture.md §5: outside selectors.ts nothing reads the store's state inline: no function taking the
 * RootState (`(s: RootState) => s.stake.pool`), no function written straight into useAppSelector, useSelector or a
 * saga's select. Tests may read what they check.
 */
const inlineStateReads = {
  files: ['src/**/*.{ts,tsx}'],
  ignores: ['**/selectors.ts', '**/*.test.ts', '**/*.test.tsx'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: ':function > .params[typeAnnotation.typeAnnotation.typeName.name=/^(RootState|[A-Z][A-Za-z]*Root)$/]',
        message: SELECTOR_RULE,
      },
      {
        selector: 'CallExpression[callee.name=/^(useAppSelector|useSelector|select)$/] > :function.arguments',
        message: SELECTOR_RULE,
      },
    ],
  },
}

const PURE_RULE =
  'Reducers are pure: a time or a random value comes in the action, from the saga that puts it, or a session replayed from Redux DevTools ends elsewhere (docs/architecture.md §5).'

/** Slices hold the reducers: no clock, no randomness, no crypto (test/sagas/replay.test.ts replays a whole session). */
const pureReducers = {
  files: ['src/features/*/slice.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...inlineStateReads.rules['no-restricted-syntax'].slice(1),
      { selector: "NewExpression[callee.name='Date']", message: PURE_RULE },
      { selector: "CallExpression[callee.name='Date']", message: PURE_RULE },
    ],
    'no-restricted-properties': [
      'error',
      { object: 'Date', property: 'now', message: PURE_RULE },
      { object: 'Math', property: 'random', message: PURE_RULE },
      { object: 'performance', property: 'now', message: PURE_RULE },
      { object: 'globalThis', property: 'crypto', message: PURE_RULE },
      { object: 'window', property: 'crypto', message: PURE_RULE },
    ],
    'no-restricted-globals': ['error', { name: 'crypto', message: PURE_RULE }, { name: 'performance', message: PURE_RULE }],
    'no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'node:crypto', message: PURE_RULE },
          { name: 'crypto', message: PURE_RULE },
        ],
      },
    ],
  },
}

/** A select is type-checked: `yield* select(selector)` from typed-redux-saga infers what it returns; redux-saga's
 * `const x: T = yield select(...)` is only a cast. */
const typedSelects = {
  files: ['src/**/*.{ts,tsx}'],
  ignores: ['src/features/*/slice.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: 'redux-saga/effects',
            importNames: ['select'],
            message: "Use typed-redux-saga's select with yield*: its result is type-checked (docs/architecture.md §5).",
          },
        ],
      },
    ],
  },
}

/** In a feature's selectors.ts, another slice's state comes from that slice's selectors (`s.token.symbol` is token's). */
const otherSlicesRaw = SLICES.map((slice) => ({
  files: [`src/features/${slice}/selectors.ts`],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: `MemberExpression[object.type='Identifier'][object.name=/^(s|state)$/][property.name=/^(${SLICES.filter(
          (other) => other !== slice,
        ).join('|')})$/]`,
        message: `Another slice's state: select it with that slice's selectors (docs/architecture.md §5).`,
      },
    ],
  },
}))

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'artifacts',
      'cache',
      'coverage',
      'dist',
      'src/chain/types',
      'deployments',
      'coverage.json',
      'data',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/contracts/**/*.ts'],
    languageOptions: { globals: { ...globals.mocha } },
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  inlineStateReads,
  typedSelects,
  pureReducers,
  ...otherSlicesRaw,
  prettier,
)
