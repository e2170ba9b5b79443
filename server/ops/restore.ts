// `npm run restore -- <file> [--force]`: loads a backup (logical-backup.ts) into the configured
// database, with every server on it stopped. The whole file is checked first (header, checksum,
// end line) before anything is written; then one transaction migrates, loads and checks it
// (load-backup.ts), so a refusal or a failure leaves the target as it was. A target holding rows
// is refused unless --force, which replaces its data. Queued picture jobs are not in a backup: the
// restored server queues its pending pictures again.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OpsError } from './ops-error';
import { openConfigured, readConfig, runCommand } from './command';
import { backupFileLines, verifyLines } from './logical-backup';
import { loadBackup } from './load-backup';

const USAGE =
  'Usage: npm run restore -- <file> [--force]   (--force replaces a database that holds data; stop the servers first)';

/** A backup others on the host can read gives away every account: said, though the restore goes on. */
async function warnIfOthersCanRead(path: string): Promise<void> {
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) !== 0)
    console.warn(
      `Warning: other users of this host can read ${path} (mode ${mode.toString(8).padStart(4, '0')}); it holds password hashes, emails and sessions: chmod 600 it.`,
    );
}

runCommand(USAGE, async (args) => {
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  if (files.length !== 1 || files[0].startsWith('-')) throw new OpsError(USAGE);
  const path = resolve(files[0]);
  const verified = await verifyLines(backupFileLines(path), path);
  await warnIfOthersCanRead(path);
  const config = readConfig();
  const { database, where } = await openConfigured(config, 'restore into the embedded database', {
    mustExist: false,
  });
  try {
    const client = await database.connect();
    try {
      const loaded = await loadBackup(client, backupFileLines(path), {
        replace: force,
        expected: (table) => verified.counts.get(table) ?? 0,
        notEmptyAdvice: 'pass --force to replace its data with the backup.',
        where: path,
      });
      const rows = [...loaded.values()].reduce((sum, n) => sum + n, 0);
      console.log(
        `Restored ${rows} rows in ${loaded.size} tables (backup of ${verified.header.createdAt}, migration ` +
          `${verified.header.migration}) into ${where}.`,
      );
    } finally {
      client.release();
    }
    await database.flush();
  } finally {
    await database.close();
  }
});
