// How the embedded database is started, tuned for memory (docs/benchmarks.md, "Memory on the
// embedded database"). PGlite is PostgreSQL compiled to WebAssembly: everything it allocates lives
// in one WebAssembly memory that can grow but never shrink, so its settings decide the process's
// resident size for good: the buffer pool is touched as it fills, and one large sort or index
// build keeps its peak resident afterwards.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's own start parameters plus memory settings. PGlite defaults to a 160 MB buffer pool,
 * which it touches at start and fills as pages are read (~110 MB of the 940 MB an idle server had).
 * 8 MB holds what a turn touches; past it PGlite reads through the OS page cache, +10-25 µs a
 * primary-key lookup once the working set outgrows the pool (measured at 16 MB; 8 MB kept 200
 * players streaming at the same turns per second and saved the server another ~15 MB idle).
 * maintenance_work_mem bounds what a VACUUM, an ANALYZE or a migration's CREATE INDEX can leave
 * resident (64 MB by default). wal_init_zero=off: PostgreSQL writes 16 MB of zeros into each new
 * WAL segment, and here that held the one session 7-73 ms every 16 MB of writes (the statement that
 * happened to cross into a new segment; 3 ms without). The zeros only reserve the disk space
 * ahead; a full disk then fails the write that needs it rather than the segment's creation.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=8MB',
  '-c',
  'maintenance_work_mem=16MB',
  '-c',
  'wal_init_zero=off',
];

/**
 * Creates a new data directory (initdb) in a short-lived child process. Done in this process,
 * initdb runs a second PostgreSQL instance and copies the result through tarballs; the C heap keeps
 * that peak (about 160 MB) resident for the process's whole life, so a first start would idle at
 * twice the size of every later one.
 */
export async function initDataDirInChild(pgdata: string): Promise<void> {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return;
  const script = [
    "const { PGlite } = await import('@electric-sql/pglite');",
    'const db = await PGlite.create({ dataDir: process.argv[1], startParams: JSON.parse(process.argv[2]) });',
    'await db.close();',
  ].join('\n');
  // Run from this folder, so the package resolves from our node_modules wherever the server was started.
  // --liftoff-only: V8's baseline compiler alone. A process that lives for one initdb never earns back
  // the optimizing recompiles, which were a third of its CPU (docs/benchmarks.md).
  const child = spawn(
    process.execPath,
    ['--liftoff-only', '--input-type=module', '-e', script, resolve(pgdata), JSON.stringify(PGLITE_START_PARAMS)],
    {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
  const code = await new Promise<number | null>((done, fail) => {
    child.once('error', fail);
    child.once('exit', done);
  });
  if (code !== 0)
    throw new Error(`Could not create the database in ${pgdata} (initdb exited with ${code}): ${errors.trim()}`);
}
