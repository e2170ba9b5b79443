// PGlite never calls fsync (docs/data-and-security.md), so a committed row sits in the OS page cache
// until the kernel writes it back: an OS crash or power loss could lose it. Two things close that
// gap from the outside. Before a write is acknowledged its WAL is fsynced by the database thread
// (pglite-worker.js, `flush`). And this sweep fsyncs the rest of the data directory (table files
// written by checkpoints) every few seconds, so WAL recycling never outruns it.
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

export class DataDirSweeper {
  private sweepTimer: NodeJS.Timeout | null = null;
  private lastSweepMs = 0;

  constructor(private readonly pgdataDir: string) {}

  start(intervalMs: number): void {
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
    await this.sweep();
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
