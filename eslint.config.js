// Lint rules: typescript-eslint's recommended set, React hooks rules for the client, an import
// boundary that keeps shared/ free of client and server code, and the client's boundaries (one door
// per feature, layers app → features → components | lib → shared).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---- Client boundaries (issue 24) -------------------------------------------------------------
// A feature is reached only through its door, client/features/<x>/index.ts; inside a feature imports
// are free, and its own tests may import its internals (other features' tests may also use its
// testing/ folder). app → features → components | lib → shared: components/ and lib/ never import
// features or app, features never import app. Paths are resolved (aliases @client/ and @shared/
// included), so an alias and a relative path are held to the same rule.
const here = import.meta.dirname;
const clientFeatures = readdirSync(join(here, 'client/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** One zone per feature: everything in client/ outside it may import only its door (and, in tests, testing/). */
function featureDoorZones(except) {
  return clientFeatures.map((feature) => ({
    target: [
      './client/app',
      './client/main.tsx',
      ...clientFeatures.filter((other) => other !== feature).map((other) => `./client/features/${other}`),
    ],
    from: `./client/features/${feature}`,
    except,
    message: `Another feature is reached through its door only: import from '@client/features/${feature}'.`,
  }));
}

const layerZones = [
  {
    target: ['./client/components', './client/lib'],
    from: ['./client/features', './client/app'],
    message: 'components/ and lib/ sit below the features and the app: move the piece down or pass it in.',
  },
  {
    target: './client/features',
    from: './client/app',
    message: 'Features never import the app: the app composes them.',
  },
];

const clientBoundaries = [
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x skips .ts/.tsx dependencies (no-cycle would see no cycle at all).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          alias: { '@client': [join(here, 'client')], '@shared': [join(here, 'shared')] },
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: here, zones: [...featureDoorZones(['./index.ts']), ...layerZones] },
      ],
    },
  },
  {
    files: ['client/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: here, zones: [...featureDoorZones(['./index.ts', './testing']), ...layerZones] },
      ],
    },
  },
];
// ---- end of client boundaries -----------------------------------------------------------------

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'server/db/migrations', 'test-results', 'playwright-report', 'data', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@server/*', '**/server/*'], message: 'The client talks to the server over HTTP only.' },
          ],
        },
      ],
    },
  },
  ...clientBoundaries,
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@server/*', '@client/*', '**/server/*', '**/client/*'],
              message: 'shared/ imports only zod and itself.',
            },
          ],
        },
      ],
    },
  },
);
