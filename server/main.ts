// Entry point: read config, open and migrate the database, listen, and shut down gracefully on
// SIGTERM/SIGINT: first the drain (kernel/drain.ts: readiness 503, no new paid work, replies and
// pictures in flight finish within SHUTDOWN_DRAIN_MS, all while still listening), then stop
// accepting, finish in-flight requests, close the database and its lock, and exit 0.
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp, LOG_REDACT } from './app';
import { ConfigError, loadConfig } from './kernel/config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { createRepositories } from './db/repositories';
import { createDrain } from './kernel/drain';
import { serverLogOptions } from './kernel/log-output';
import { RedisUnavailableError } from './kernel/redis';
import { PGLITE_VACUUM_SQL, startHousekeeping } from './jobs/housekeeping';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logOptions = serverLogOptions({ level: config.logLevel, redact: LOG_REDACT, format: config.logFormat });
  const logger = logOptions.stream ? pino(logOptions, logOptions.stream) : pino(logOptions);

  let database;
  try {
    database = config.databaseUrl
      ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize })
      : await openDatabase({
          kind: 'pglite',
          dataDir: config.dataDir,
          compiler: config.embeddedDbCompiler,
          onFailure: (error) => {
            logger.fatal(
              { err: error },
              'lost the lock on DATA_DIR or the database thread; stopping to protect the data',
            );
            process.exit(1);
          },
        });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await database.migrate();
  const repos = createRepositories(database.db);
  await repos.users.syncAdmins(config.adminUsernames);
  // The embedded database has one process (DATA_DIR lock), so a generation lease left by a killed
  // process is stale: free it now. On PostgreSQL other instances may be mid-turn; leases expire.
  // Likewise an import it was writing will never finish: its hidden story goes.
  if (database.kind === 'pglite') {
    await repos.stories.releaseAllLeases();
    await repos.storyFiles.deleteAbandonedImports();
    await repos.shares.deleteAbandoned();
  }
  const vacuum = database.kind === 'pglite' ? () => database.executeSql(PGLITE_VACUUM_SQL) : undefined;
  const stopHousekeeping = startHousekeeping(repos, () => new Date(), logger, vacuum);

  const drain = createDrain();
  let app;
  try {
    app = await buildApp(config, { database, logger: logOptions, drain });
  } catch (error) {
    if (!(error instanceof RedisUnavailableError)) throw error;
    console.error(error.message);
    stopHousekeeping();
    await database.close();
    process.exit(1);
  }
  // The grace outlasts the drain, so closing (requests still open, the database) has its own 10 s.
  closeWithGrace({ delay: config.shutdownDrainMs + 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else {
      app.log.info(
        { signal, replies: drain.inFlight, drainMs: config.shutdownDrainMs },
        'draining: not ready, no new turns; replies and pictures in flight may finish',
      );
      const finished = await drain.drain(config.shutdownDrainMs);
      if (finished) app.log.info('drained: nothing left in flight');
      else app.log.warn({ replies: drain.inFlight }, 'drain time is up; closing with work still in flight');
    }
    stopHousekeeping();
    await app.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  app.log.info(`Taleweaver is ready on http://localhost:${port} (database: ${where})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
