// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The app's boundary: screens, components, the hook layer and the session reach the data layer only through
// data/index.ts, so whatever lies behind it can move without touching a screen.
const APP_OUTSIDE_DATA = ['app/src/{screens,components,hooks,session}/**/*.{ts,tsx}', 'app/src/*.{ts,tsx}'];
const DATA_ONLY_THROUGH_INDEX = {
  regex: '^(\\./|(\\.\\./)+)data/(?!index$)',
  message: 'Import the data layer through data/index.ts (add the export there).',
};
// Tests may also build a device with data/testing.
const DATA_THROUGH_INDEX_OR_TESTING = {
  regex: '^(\\./|(\\.\\./)+)data/(?!index$|testing/)',
  message: 'Import the data layer through data/index.ts, or data/testing in a test.',
};
// Live queries belong to the hook layer (app/src/hooks), which every screen shares.
const LIVE_QUERIES_IN_HOOKS = [
  { name: 'dexie', message: 'Only data/ talks to Dexie.' },
  { name: 'dexie-react-hooks', message: 'Read the device through a hook of app/src/hooks.' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tsbuild/**', 'data/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // The service worker's own script (imported by the generated sw.js).
    files: ['app/public/sw-routes.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['extension/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.webextensions } },
  },
  {
    files: ['app/src/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: APP_OUTSIDE_DATA,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [DATA_ONLY_THROUGH_INDEX], paths: LIVE_QUERIES_IN_HOOKS },
      ],
    },
  },
  {
    files: ['app/src/hooks/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [DATA_ONLY_THROUGH_INDEX], paths: [LIVE_QUERIES_IN_HOOKS[0]] },
      ],
    },
  },
  {
    files: ['app/src/**/*.test.{ts,tsx}', 'app/src/session/test-server.ts'],
    ignores: ['app/src/data/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [DATA_THROUGH_INDEX_OR_TESTING], paths: LIVE_QUERIES_IN_HOOKS },
      ],
    },
  },
  {
    // The server reads rows through db/typed-select.ts, typed and decoded by the schema: a type argument on
    // a raw read (db.all<Row>, db.get<Row>) would be a row type written by hand. Tests may still look at
    // what is stored that way.
    files: ['sync-server/src/**/*.ts'],
    ignores: ['sync-server/src/**/*.test.ts', 'sync-server/src/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(all|get)$/][typeArguments]',
          message:
            'Read rows with select / selectFirst (db/typed-select.ts): their types come from the schema, not a type argument.',
        },
      ],
    },
  },
);
