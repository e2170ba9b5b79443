// `npm run build:server`: the server compiled to JavaScript, dist/server/main.js (and the database
// thread's pglite-worker.js), which `npm start` and `npm run serve` run with plain node. Run through
// tsx, the server kept a loader thread, esbuild's transformed sources and their source maps, and
// took 1.3-1.7 s to import its modules (docs/benchmarks.md, "Memory on the embedded database").
// Packages stay in node_modules (imported, not bundled); the migrations sit beside the bundle, where
// the code looks for them (`new URL('./migrations', import.meta.url)`), as does the worker's file.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const out = 'dist/server';
await rm(out, { recursive: true, force: true });
await build({
  entryPoints: { main: 'server/main.ts', 'pglite-worker': 'server/db/pglite-worker.js' },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  sourcemap: 'linked',
  logLevel: 'warning',
});
await cp('server/db/migrations', `${out}/migrations`, { recursive: true });
