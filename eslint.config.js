// Lint rules: typescript-eslint's recommended set, React hooks rules for the client, and the
// boundaries docs/ARCHITECTURE.md draws: shared/ imports only itself, the server's layers point one
// way (http → domains → ai | jobs | db → kernel), no HTTP status below http/, and client features
// meet only through their index.ts doors. Import cycles are counted by scripts/lint/import-cycles.mjs,
// the next step of `npm run lint`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const here = import.meta.dirname;

/**
 * How import-x finds a module: the tsconfig aliases (@server, @client, @shared) and .ts files, as
 * the build does, so that no-restricted-paths knows where an import lands.
 */
const importSettings = {
  'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
  'import-x/resolver-next': [
    createNodeResolver({
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.d.ts', '.json'],
      extensionAlias: { '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'] },
      alias: {
        '@server': [join(here, 'server')],
        '@client': [join(here, 'client')],
        '@shared': [join(here, 'shared')],
      },
    }),
  ],
};

/** Server layers, top to bottom: a layer may import the ones below it, never those above. */
const SERVER_ENTRY = ['./server/main.ts', './server/app.ts', './server/compose.ts', './server/ops'];
const serverZones = [
  {
    target: './server/http',
    from: SERVER_ENTRY,
    message: 'http/ is assembled by app.ts; it never imports the entry points.',
  },
  {
    target: './server/domains',
    from: [...SERVER_ENTRY, './server/http'],
    message: 'domains/ hold behaviour: they never import HTTP (plugins, routes, presenters) or the entry points.',
  },
  ...['ai', 'jobs', 'db'].map((layer) => ({
    target: `./server/${layer}`,
    from: [...SERVER_ENTRY, './server/http', './server/domains'],
    message: `${layer}/ sits below the domains: it never imports domains, http or the entry points.`,
  })),
  {
    target: './server/ai',
    from: ['./server/db', './server/jobs'],
    message: 'ai/ talks to providers only, never to the database or the job queue.',
  },
  { target: './server/db', from: ['./server/ai', './server/jobs'], message: 'db/ never imports ai/ or jobs/.' },
  {
    target: './server/kernel',
    from: [...SERVER_ENTRY, './server/http', './server/domains', './server/ai', './server/jobs', './server/db'],
    message: 'kernel/ is the bottom layer: it imports only itself, shared/ and packages.',
  },
];

// Client boundaries.
// A feature is reached only through its door, client/features/<x>/index.ts; inside a feature imports
// are free, and its own tests may import its internals (other features' tests may also use its
// testing/ folder). app → features → components | lib → shared: components/ and lib/ never import
// features or app, features never import app. Paths are resolved (aliases @client/ and @shared/
// included), so an alias and a relative path are held to the same rule.
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

export default tseslint.config(
  {
    ignores: ['dist', 'node_modules', 'server/db/migrations', 'test-results', 'playwright-report', 'data', '.tmp'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['server/**/*.{ts,js,mjs}'],
    ignores: ['server/**/*.test.ts', 'server/test/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: here, zones: serverZones }] },
  },
  {
    // Domains and the kernel throw a DomainError of a kind (kernel/errors.ts); http/error-status.ts
    // alone turns a kind into a status and Retry-After. Fastify's handler would answer any error's
    // `statusCode`, so none is set or read below http/ (tests, which read replies, are exempt).
    files: ['server/domains/**/*.ts', 'server/kernel/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Identifier[name='statusCode']",
          message: 'No HTTP status below http/: throw a DomainError of the right kind (http/error-status.ts maps it).',
        },
        {
          selector: "Property[key.name='status'][value.type='Literal'][value.raw=/^[1-5][0-9][0-9]$/]",
          message: 'No HTTP status below http/: throw a DomainError of the right kind (http/error-status.ts maps it).',
        },
        {
          selector: 'Literal[value=/^retry-after$/i]',
          message: "Retry-After is http/'s header: give the DomainError its retryAfterSeconds.",
        },
      ],
    },
  },
  {
    // A use case in its own module, its dependencies passed in: no factory of the domains or the
    // repositories grows back into a closure of ten use cases (docs/ARCHITECTURE.md).
    files: ['server/domains/**/*.ts', 'server/db/repositories/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
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
