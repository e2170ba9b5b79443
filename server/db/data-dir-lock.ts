// An exclusive lock on DATA_DIR. Two processes opening one PGlite data dir silently lose committed
// rows (stack notes), so the second one must refuse to start. proper-lockfile keeps the lock fresh
// by touching it; a lock left by a crashed process goes stale and is taken over after STALE_MS.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

const STALE_MS = 15_000;

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `Another Taleweaver process is using the data directory ${dataDir}. ` +
        'Stop it first, point DATA_DIR at another directory, or use DATABASE_URL for a shared PostgreSQL. ' +
        `If that process crashed, its lock expires within ${STALE_MS / 1000} seconds.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Takes the lock or throws DataDirLockedError; resolves to the release function. */
export async function lockDataDir(dataDir: string, onLost: (error: Error) => void): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, 'taleweaver.lock'),
      stale: STALE_MS,
      update: STALE_MS / 3,
      realpath: false,
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw error;
  }
}
