// The data dir sweep fsyncs what changed since the last one, runs in the background, and a final
// sweep at close covers the rest. (The WAL's own fsync before a write is acknowledged is the
// database thread's: pglite-thread.process.test.ts.)
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirSweeper } from './durability';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-wal-'));
  await mkdir(join(dir, 'pg_wal'));
  await writeFile(join(dir, 'pg_wal', '000000010000000000000001'), 'wal');
  await mkdir(join(dir, 'base', '1'), { recursive: true });
  await writeFile(join(dir, 'base', '1', '1259'), 'table');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('DataDirSweeper', () => {
  it('sweeps the whole data dir without error, in the background too, and closes', async () => {
    const sweeper = new DataDirSweeper(dir);
    await sweeper.sweep();
    sweeper.start(10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await sweeper.close();
  });

  it('fails loudly when the data dir is missing', async () => {
    await expect(new DataDirSweeper(join(dir, 'missing')).sweep()).rejects.toThrow(/ENOENT/);
  });
});
