// `npm run backup -- <file>`: writes a logical backup (logical-backup.ts) of the configured
// database to <file>. On PostgreSQL it runs while servers run (one read-only REPEATABLE READ
// snapshot); on the embedded database it takes DATA_DIR's lock, so it refuses while a server runs.
import { resolve } from 'node:path';
import { OpsError } from './ops-error';
import { openConfigured, readConfig, runCommand } from './command';
import { snapshotLines, writeBackupFile } from './logical-backup';

const USAGE = 'Usage: npm run backup -- <file>   (a gzip file; DATABASE_URL or DATA_DIR names the database)';

runCommand(USAGE, async (args) => {
  const [file, ...rest] = args;
  if (!file || rest.length > 0 || file.startsWith('-')) throw new OpsError(USAGE);
  const path = resolve(file);
  const config = readConfig();
  const { database, where } = await openConfigured(config, 'back up the embedded database', { mustExist: true });
  try {
    const client = await database.connect();
    try {
      const counts = new Map<string, number>();
      await writeBackupFile(
        path,
        snapshotLines(client, database.kind, (table, rows) => counts.set(table, rows)),
      ).catch((error: NodeJS.ErrnoException) => {
        // A folder that is not there or not writable, a full disk: no partial file is left.
        throw error.code && error.syscall ? new OpsError(`Cannot write ${path}: ${error.message}`) : error;
      });
      const rows = [...counts.values()].reduce((sum, n) => sum + n, 0);
      console.log(`Backed up ${rows} rows in ${counts.size} tables from ${where} to ${path}.`);
    } finally {
      client.release();
    }
  } finally {
    await database.close();
  }
});
