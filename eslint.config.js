// Lint rules double as architecture rules: the import restrictions below keep Electron inside
// src/main/electron, Node out of the renderer and shared code, and the simulated world out of the
// service (which must reach it only over real protocols).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
];

// Repeated in each block that sets no-restricted-imports: a later block's setting replaces it.
const electronOutsideItsFolder = {
  name: 'electron',
  message: 'Only src/main/electron and src/preload import electron.',
};

// Only src/service/store talks to the query builder (and test/support, which opens a second
// connection for tests that look below the store on purpose): everything else goes through the
// store owners and their one unit of work, `stores.transaction`.
const kyselyOutsideTheStore = {
  name: 'kysely',
  message:
    'Only src/service/store uses Kysely: call a store owner (stores.<owner>), or stores.transaction for a unit of work.',
};

const mainBoundary = {
  group: ['**/service/**', '**/service', '**/sim/**', '**/sim', '**/renderer/**'],
  message:
    'Main talks to the service over HTTP; shared names live in src/shared, the embedded composition in src/embedded.',
};

const serviceWithoutElectron = { name: 'electron', message: 'The service runs in plain Node.' };
const serviceBoundary = {
  group: ['**/sim/**', '**/main/**', '**/renderer/**'],
  message: 'The service reaches the simulated world only over its protocols.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/electron/**', 'src/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOutsideItsFolder, kyselyOutsideTheStore],
        },
      ],
    },
  },
  {
    // Tests and benches reach the database through the store owners, or through test/support.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['test/support/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [kyselyOutsideTheStore] }],
    },
  },
  {
    files: ['src/shared/**/*.ts', 'src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer and shared code never import electron.' },
            kyselyOutsideTheStore,
          ],
          patterns: [
            { group: nodeBuiltins, message: 'The renderer and shared code run without Node.' },
            {
              group: ['**/main/**', '**/service/**', '**/sim/**', '**/preload/**'],
              message: 'Talk to main through window.quayside.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.tsx', 'src/renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The desktop's main process reaches the service over HTTP, and its embedded service only
    // through src/embedded (the one place that composes the service with the simulated world).
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOutsideItsFolder, kyselyOutsideTheStore],
          patterns: [mainBoundary],
        },
      ],
    },
  },
  {
    // AppCore orchestrates the desktop's parts; the parts (sync, cache, alerts, the service link,
    // the morning watch, the launcher) never reach back up into it.
    files: [
      'src/main/sync/**/*.ts',
      'src/main/cache/**/*.ts',
      'src/main/alerts/**/*.ts',
      'src/main/connection/**/*.ts',
      'src/main/morning/**/*.ts',
      'src/main/service-launcher/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOutsideItsFolder],
          patterns: [
            mainBoundary,
            {
              group: ['**/core/**', '**/core'],
              message: 'AppCore uses these parts; they never import it (main/core).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [kyselyOutsideTheStore],
          patterns: [mainBoundary],
        },
      ],
    },
  },
  {
    // The simulated world stands in for carriers, terminals and AIS: it knows only the wire.
    files: ['src/sim/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The simulated world runs in plain Node.' },
            kyselyOutsideTheStore,
          ],
          patterns: [
            {
              group: ['**/service/**', '**/service', '**/main/**', '**/renderer/**'],
              message: 'The simulated world speaks to the service only over its protocols.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [serviceWithoutElectron, kyselyOutsideTheStore],
          patterns: [serviceBoundary],
        },
      ],
    },
  },
  {
    // The store is where the query builder lives, and the bottom of the service: it answers in
    // its own terms and imports none of the layers that use it.
    files: ['src/service/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [serviceWithoutElectron],
          patterns: [
            serviceBoundary,
            {
              group: [
                '../api/**',
                '../routing/**',
                '../resources/**',
                '../tracking/**',
                '../webhooks/**',
                '../documents/**',
                '../custom-fields/**',
                '../feeds/**',
                '../mcp/**',
                '../parties/**',
                '../charges/**',
              ],
              message: 'The store is below the service layers: they import it, not the reverse.',
            },
          ],
        },
      ],
    },
  },
);
