// `npm run restore -- <file> [--force]`: loads a backup (logical-backup.ts) into the configured
// database, with every server on it stopped. The whole file is checked first (header, checksum,
// end line) before anything is written; then one transaction migrates, loads and checks it
// (load-backup.ts), so a refusal or a failure leaves the target as it was. A target holding rows
// is refused unless --force, which replaces its data. Queued picture jobs are not in a backup: the
// restored server queues its pending pictures again.
import { resolve } from 'node:path';
import { OpsError } from './ops-error';
import { openConfigured, readConfig, runCommand } from './command';
import { backupFileLines, verifyLines } from './logical-backup';
import { loadBackup } from './load-backup';

const USAGE =
  'Usage: npm run restore -- <file> [--force]   (--force replaces a database that holds data; stop the servers first)';

runCommand(USAGE, async (args) => {
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  if (files.length !== 1 || files[0].startsWith('-')) throw new OpsError(USAGE);
  const path = resolve(files[0]);
  const verified = await verifyLines(backupFileLines(path), path);
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
