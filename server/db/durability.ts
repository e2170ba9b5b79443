// PGlite never calls fsync (see docs/operations.md), so a committed row sits in the OS page cache
// until the kernel writes it back: an OS crash or power loss could lose it. This module closes that
// gap from the outside. `flush()` fsyncs the write-ahead log; callers await it before acknowledging
// a write, and concurrent callers share one fsync (group commit). A background sweep fsyncs the rest
// of the data directory (table files written by checkpoints) so WAL recycling never outruns it.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class WalSyncer {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private lastSweepMs = 0;
  /** Counts real fsync rounds; tests and benchmarks read it. */
  rounds = 0;

  constructor(private readonly pgdataDir: string) {}

  /** Resolves once everything committed before the call is on stable storage. */
  flush(): Promise<void> {
    if (!this.running) {
      this.running = this.syncWal().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    // A round is in progress and may have started before the caller's commit: queue exactly one more.
    if (!this.queued) {
      this.queued = this.running.then(() => {
        this.queued = null;
        return this.flush();
      });
    }
    return this.queued;
  }

  startBackgroundSweep(intervalMs: number): void {
    this.sweepTimer = setInterval(() => {
      this.sweep().catch(() => {
        // A failed sweep is retried on the next tick; the WAL flush still guards committed rows.
      });
    }, intervalMs);
    this.sweepTimer.unref();
  }

  /** Stops the background sweep and fsyncs every file changed since the last sweep. */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.running;
    await this.sweep();
  }

  private async syncWal(): Promise<void> {
    this.rounds += 1;
    const walDir = join(this.pgdataDir, 'pg_wal');
    const names = await readdir(walDir, { withFileTypes: true });
    await Promise.all(names.filter((e) => e.isFile()).map((e) => fsyncPath(join(walDir, e.name))));
    await fsyncPath(walDir);
  }

  /** fsyncs every file and directory modified since the previous sweep. */
  async sweep(): Promise<void> {
    const since = this.lastSweepMs;
    this.lastSweepMs = Date.now();
    const visit = async (dir: string): Promise<boolean> => {
      let changed = false;
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (await visit(path)) changed = true;
        } else if (entry.isFile() && (await stat(path)).mtimeMs >= since) {
          await fsyncPath(path);
          changed = true;
        }
      }
      if (changed || (await stat(dir)).mtimeMs >= since) await fsyncPath(dir);
      return changed;
    };
    await visit(this.pgdataDir);
  }
}
