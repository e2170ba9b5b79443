// Vitest projects: pure unit tests (shared, server, the benchmarks' helpers in scripts, client in
// jsdom) and the API/data-layer suites, which run on embedded PGlite always and on PostgreSQL too
// when TEST_DATABASE_URL is set. A suite about PostgreSQL alone (*.postgres.test.ts) runs in the
// PostgreSQL project only.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = {
  '@client': here('./client'),
  '@server': here('./server'),
  '@shared': here('./shared'),
};

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
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['server/**/*.api.test.ts', 'server/**/*.postgres.test.ts'],
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
          setupFiles: ['client/test/setup.ts'],
          // user-event drives whole forms; on a busy 2-core machine a form test can pass 5 s.
          testTimeout: 20_000,
        },
      },
      ...databaseProjects,
    ],
  },
});
