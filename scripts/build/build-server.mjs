// `npm run build:server`: the server compiled to JavaScript, dist/server/main.js (and the database
// thread's pglite-worker.js, the import worker's import-worker.js), which `npm start` and `npm run serve` run with plain node. Run through
// tsx, the server kept a loader thread, esbuild's transformed sources and their source maps, and
// took 1.3-1.7 s to import its modules (docs/benchmarks.md, "Memory on the embedded database").
// Packages stay in node_modules (imported, not bundled); the migrations sit beside the bundle, where
// the code looks for them (`new URL('./migrations', import.meta.url)`), as does the worker's file,
// and so do the tokenizer's ranks as JSON (server/ai/llm/tokenizer.ts says why).
import { cp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** gpt-tokenizer's o200k ranks as JSON; refuses an array with holes, which JSON would turn into nulls. */
export async function ranksJson() {
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  for (let rank = 0; rank < ranks.length; rank += 1) {
    if (!(rank in ranks)) throw new Error(`gpt-tokenizer's o200k ranks have a hole at ${rank}: JSON cannot carry it`);
  }
  return JSON.stringify(ranks);
}

async function buildServer() {
  const out = 'dist/server';
  await rm(out, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: 'server/main.ts',
      'pglite-worker': 'server/db/pglite-worker.js',
      'import-worker': 'server/domains/story/files/import-worker.ts',
      // The operator's commands (server/ops), beside main.js so the migrations and the database
      // thread's worker resolve as they do for the server: `npm run backup` runs dist/server/backup.js.
      backup: 'server/ops/backup.ts',
      restore: 'server/ops/restore.ts',
      'move-to-postgres': 'server/ops/move-to-postgres.ts',
      admin: 'server/ops/admin.ts',
    },
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
  await writeFile(`${out}/o200k_base.json`, await ranksJson());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
