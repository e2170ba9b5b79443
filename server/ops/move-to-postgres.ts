// `DATABASE_URL=postgres://… npm run db:move-to-postgres`: copies the embedded database (DATA_DIR,
// server stopped: its lock is taken) into the empty PostgreSQL database DATABASE_URL names. The URL
// comes from the environment only, never the command line, where `ps` shows its password to every
// user of the host. It is a backup streamed straight into a restore: the same reader
// (logical-backup.ts) and writer (load-backup.ts), one transaction on the target, which is refused
// if it holds any row. Before COMMIT every table is counted on both sides and printed; a difference
// fails the move and leaves the target as it was. DATA_DIR is left untouched.
import { OpsError } from './ops-error';
import { describeUrl, openDataDir, openPostgres, readConfig, runCommand } from './command';
import { quoteIdent, snapshotLines } from './logical-backup';
import { loadBackup } from './load-backup';

const USAGE = 'Usage: DATABASE_URL=postgres://… npm run db:move-to-postgres   (from DATA_DIR, with the server stopped)';
const URL_ON_COMMAND_LINE =
  'The database URL is read from DATABASE_URL, not from the command line, where other users of this host can see its password: ' +
  USAGE;

runCommand(USAGE, async (args) => {
  if (args.length > 0)
    throw new OpsError(args.some((arg) => /^postgres(ql)?:/.test(arg)) ? URL_ON_COMMAND_LINE : USAGE);
  const config = readConfig();
  const url = config.databaseUrl;
  if (!url) throw new OpsError(`DATABASE_URL is not set. ${USAGE}`);
  const source = await openDataDir(config, 'move the embedded database', true);
  try {
    const target = await openPostgres(url);
    try {
      const from = await source.connect();
      const to = await target.connect();
      try {
        let headed = false;
        const loaded = await loadBackup(to, snapshotLines(from, 'pglite'), {
          replace: false,
          // Counted again on the source, which the lock keeps still, after its snapshot was read.
          expected: async (table) => {
            const { rows } = await from.query<{ n: string }>(`select count(*)::text as n from ${quoteIdent(table)}`);
            return Number(rows[0].n);
          },
          onCount: (table, n, m) => {
            if (!headed) console.log(`${'table'.padEnd(28)} ${'source'.padStart(9)} ${'target'.padStart(9)}`);
            headed = true;
            console.log(
              `${table.padEnd(28)} ${String(n).padStart(9)} ${String(m).padStart(9)}${n === m ? '' : '  DIFFERENT'}`,
            );
          },
          notEmptyAdvice: 'the move needs an empty database.',
          where: 'the embedded database',
        });
        const rows = [...loaded.values()].reduce((sum, n) => sum + n, 0);
        console.log(
          `Moved ${rows} rows in ${loaded.size} tables from ${config.dataDir} to ${describeUrl(url)}. ` +
            'Start the server with DATABASE_URL set to it; DATA_DIR was left as it was.',
        );
      } finally {
        from.release();
        to.release();
      }
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
});
