// Vitest projects, in the tiers package.json names (docs/development.md, "Tests"):
// - fast (`npm run test:fast`): pure tests of shared, server and scripts in node, and the client's
//   components in jsdom. No network, no database, no child process: fast-tier-guard.ts throws on
//   any of them.
// - api (`npm run test:api`): the API and data-layer suites in process (`*.api.test.ts`), on embedded
//   PGlite always and on PostgreSQL too when TEST_DATABASE_URL is set (a suite about PostgreSQL
//   alone, `*.postgres.test.ts`, in the PostgreSQL project only); and the adapters against local
//   fake servers, Redis on loopback (`*.loopback.test.ts`), run once.
// - process (`npm run test:process`): what starts child processes, worker threads or whole servers
//   (`*.process.test.ts`): the built entry points, the operator's commands, two instances.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = {
  '@client': here('./client'),
  '@server': here('./server'),
  '@shared': here('./shared'),
};
const FAST_GUARD = 'server/test/fast-tier-guard.ts';
const NOT_FAST = ['**/*.api.test.ts', '**/*.postgres.test.ts', '**/*.loopback.test.ts', '**/*.process.test.ts'];

/** The client's component tests: jsdom, the DOM matchers and the clean slate between tests. */
const clientTest = {
  environment: 'jsdom' as const,
  setupFiles: [FAST_GUARD, 'client/test/setup.ts'],
  // user-event drives whole forms; on a busy 2-core machine a form test can pass 5 s.
  testTimeout: 20_000,
};
const MOCKING_CLIENT_FILES = ['client/features/admin/components/admin-dashboard.test.tsx'];

const databaseProjects = [
  { name: 'api-pglite', env: { TEST_DB_KIND: 'pglite' }, only: [] },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'api-postgres', env: { TEST_DB_KIND: 'postgres' }, only: ['server/**/*.postgres.test.ts'] }]
    : []),
].map(({ name, env, only }) => ({
  resolve: { alias },
  test: {
    name,
    env,
    environment: 'node' as const,
    include: ['server/**/*.api.test.ts', ...only],
    // A worker imports the server once and keeps its embedded databases for file after file
    // (server/test/embedded-databases.ts); every file still builds its own app on an emptied database.
    isolate: false,
    globalSetup: ['server/test/global-setup.ts'],
    setupFiles: ['server/test/api-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}));

export default defineConfig({
  test: {
    // Vitest's default leaves one core idle (cores - 1); on the 2-core CI machines that ran every
    // file in one worker with the CPU 40 % idle, since the database suites spend much of their time waiting.
    maxWorkers: 2,
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache), shared by the
    // projects of one run and by later runs: the five projects transform the same server modules.
    // Measured on the 2-core machine, fast and api projects in one run from an empty cache: 341-354
    // CPU seconds against 371-394 without it. A reinstall (npm ci) starts it afresh.
    experimental: { fsModuleCache: true },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'fast',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: NOT_FAST,
          setupFiles: [FAST_GUARD],
          // Pure tests share nothing that needs a fresh module graph per file; importing the server's
          // modules once per worker rather than once per file was a quarter of the suite's time.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'fast-client',
          ...clientTest,
          include: ['client/**/*.test.{ts,tsx}'],
          exclude: MOCKING_CLIENT_FILES,
          // One module graph per worker, file after file (client/test/setup.ts empties the page,
          // storage, toasts, stubbed globals, timers, the story and the narrator after each test):
          // 99 s and 177 CPU seconds isolated, 24 s and 30 CPU seconds so, on the 2-core CI machine.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        // A file that replaces a module (vi.mock) needs a module graph of its own: in a shared one an
        // earlier file may have loaded the real module already.
        test: { name: 'fast-client-mocking', ...clientTest, include: MOCKING_CLIENT_FILES },
      },
      ...databaseProjects,
      {
        resolve: { alias },
        test: {
          name: 'api-loopback',
          environment: 'node',
          include: ['server/**/*.loopback.test.ts'],
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'process',
          environment: 'node',
          include: ['server/**/*.process.test.ts', 'scripts/**/*.process.test.ts'],
          // Their work is in the processes and threads they start; the modules they import (the
          // server's, to build an app in process beside them) are imported once per worker.
          isolate: false,
          // The embedded database the suites open is the API projects' PGlite template. The servers
          // and commands they start live seconds: their embedded databases start on V8's baseline
          // compiler (EMBEDDED_DB_COMPILER): the tier took 210 CPU seconds so against 338.
          env: { TEST_DB_KIND: 'pglite', EMBEDDED_DB_COMPILER: 'baseline' },
          globalSetup: ['server/test/global-setup.ts'],
          setupFiles: ['server/test/api-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
