// Group commit of WAL fsyncs: concurrent flushes share rounds, and a flush that arrives during a
// round is covered by a later round, never by one that started before it.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalSyncer } from './durability';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-wal-'));
  await mkdir(join(dir, 'pg_wal'));
  await writeFile(join(dir, 'pg_wal', '000000010000000000000001'), 'wal');
  await mkdir(join(dir, 'base', '1'), { recursive: true });
  await writeFile(join(dir, 'base', '1', '1259'), 'table');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('WalSyncer', () => {
  it('runs one round for a lone flush', async () => {
    const syncer = new WalSyncer(dir);
    await syncer.flush();
    expect(syncer.rounds).toBe(1);
  });

  it('serves twenty concurrent flushes with at most two rounds', async () => {
    const syncer = new WalSyncer(dir);
    await Promise.all(Array.from({ length: 20 }, () => syncer.flush()));
    expect(syncer.rounds).toBeGreaterThanOrEqual(1);
    expect(syncer.rounds).toBeLessThanOrEqual(2);
  });

  it('gives a flush that arrives mid-round a round of its own', async () => {
    const syncer = new WalSyncer(dir);
    const roundsAtResolve: number[] = [];
    const first = syncer.flush().then(() => roundsAtResolve.push(syncer.rounds));
    const second = syncer.flush().then(() => roundsAtResolve.push(syncer.rounds));
    await Promise.all([first, second]);
    expect(roundsAtResolve).toEqual([1, 2]);
  });

  it('fails loudly when the WAL directory is missing', async () => {
    const syncer = new WalSyncer(join(dir, 'missing'));
    await expect(syncer.flush()).rejects.toThrow(/ENOENT/);
  });

  it('sweeps the whole data dir without error and closes', async () => {
    const syncer = new WalSyncer(dir);
    await syncer.sweep();
    syncer.startBackgroundSweep(10);
    await syncer.close();
  });
});
