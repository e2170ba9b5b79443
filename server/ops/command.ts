// What the operator's commands (backup, restore, move-to-postgres, admin) share: the configured
// database opened as the server opens it (the same config loader: DATABASE_URL, else embedded
// PGlite in DATA_DIR with its lock, so they refuse while a server runs on it), and one way to end:
// a refusal prints one readable line and exits with 1.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database } from '@server/db/client';
import { DataDirLockedError } from '@server/db/data-dir-lock';
import { ConfigError, loadConfig, type AppConfig } from '@server/kernel/config';
import { OpsError } from './ops-error';

export function readConfig(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new OpsError(error.message);
    throw error;
  }
}

/** A connection string with its password hidden, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the given DATABASE_URL';
  }
}

/** Embedded PGlite in the configured DATA_DIR, its lock taken; `mustExist` refuses a data dir without a database. */
export async function openDataDir(
  { dataDir, embeddedDbCompiler }: Pick<AppConfig, 'dataDir' | 'embeddedDbCompiler'>,
  doing: string,
  mustExist: boolean,
): Promise<Database> {
  if (mustExist && !existsSync(join(dataDir, 'pgdata', 'PG_VERSION')))
    throw new OpsError(`There is no Taleweaver database in ${dataDir} (DATA_DIR).`);
  try {
    return await openDatabase({
      kind: 'pglite',
      dataDir,
      compiler: embeddedDbCompiler,
      onFailure: (error) => {
        console.error(`Lost the lock on ${dataDir} (${error.message}); stopping.`);
        process.exit(1);
      },
    });
  } catch (error) {
    if (error instanceof DataDirLockedError)
      throw new OpsError(`Cannot ${doing} while the server runs on it: ${error.message}`);
    throw error;
  }
}

export async function openPostgres(url: string): Promise<Database> {
  try {
    return await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  } catch (error) {
    throw new OpsError(`Cannot connect to PostgreSQL at ${describeUrl(url)}: ${(error as Error).message}`);
  }
}

/** The database the configuration names: PostgreSQL with DATABASE_URL, else DATA_DIR's. */
export async function openConfigured(
  config: AppConfig,
  doing: string,
  { mustExist }: { mustExist: boolean },
): Promise<{ database: Database; where: string }> {
  if (config.databaseUrl)
    return { database: await openPostgres(config.databaseUrl), where: `PostgreSQL ${describeUrl(config.databaseUrl)}` };
  return {
    database: await openDataDir(config, doing, mustExist),
    where: `the embedded database in ${config.dataDir}`,
  };
}

/** Runs a command's body: exit 0 when it returns, 1 with one line on a refusal (a stack trace for a bug). */
export function runCommand(usage: string, body: (args: string[]) => Promise<void>): void {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  body(args).then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof OpsError) console.error(error.message);
      else console.error(error);
      process.exit(1);
    },
  );
}
