// Vitest global setup for the database suites: migrate once, then let every test file clone that.
// PGlite: a migrated data dir is dumped to a tarball each file loads into memory (initdb once, not
// per file). PostgreSQL: a migrated template database each file copies with CREATE DATABASE ...
// TEMPLATE, and everything made by this run is dropped at the end.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    dbKind: 'pglite' | 'postgres';
    pgliteTemplatePath: string;
    postgresTemplate: string;
    postgresUrl: string;
    /** The process tier's migrated embedded data dir (its pgdata), copied into a test's DATA_DIR (spawn-server.ts). */
    pgliteDataDirTemplate: string;
  }
}

export function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A DATA_DIR made and migrated as a server's first start makes it, once per run: the servers the
 * process tier starts copy it rather than each running PostgreSQL's initdb (about 12 s of CPU).
 */
async function migratedDataDir(dir: string): Promise<string> {
  const dataDir = join(dir, `pglite-data-dir-${process.pid}`);
  await rm(dataDir, { recursive: true, force: true });
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  await database.close();
  return join(dataDir, 'pgdata');
}

/** The newest modification time of a file under `dir`. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/server unless it is newer than every source it is made from. `npm test` builds it
 * first and runs the browser journeys from it meanwhile: rebuilding here would delete the bundle
 * under their servers.
 */
function ensureServerBuild(): void {
  const bundle = statSync('dist/server/main.js', { throwIfNoEntry: false });
  const sources = Math.max(newestUnder('server'), newestUnder('shared'), statSync('package.json').mtimeMs);
  if (bundle && bundle.mtimeMs > sources) return;
  execFileSync(process.execPath, ['scripts/build/build-server.mjs'], { stdio: 'inherit' });
}

export default async function setup(project: TestProject) {
  const kind = (project.config.env?.TEST_DB_KIND ?? 'pglite') as 'pglite' | 'postgres';
  project.provide('dbKind', kind);
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite-memory' });
    await database.migrate();
    const tarball = await database.dumpDataDir!();
    await database.close();
    const dir = resolve('.tmp');
    await mkdir(dir, { recursive: true });
    const path = join(dir, `pglite-template-${process.pid}.tar`);
    await writeFile(path, tarball);
    project.provide('pgliteTemplatePath', path);
    project.provide('postgresTemplate', '');
    project.provide('postgresUrl', '');
    if (project.name === 'process') {
      // Once, before any file: files that each built it raced, one deleting the bundle another ran.
      ensureServerBuild();
      project.provide('pgliteDataDirTemplate', await migratedDataDir(dir));
    } else project.provide('pgliteDataDirTemplate', '');
    return;
  }

  const baseUrl = process.env.TEST_DATABASE_URL as string;
  const runId = `tw_${process.pid}_${Date.now().toString(36)}`;
  const template = `${runId}_template`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrlFor(baseUrl, template), poolSize: 1 });
  await database.migrate();
  await database.close();
  project.provide('pgliteTemplatePath', '');
  project.provide('pgliteDataDirTemplate', '');
  project.provide('postgresTemplate', template);
  project.provide('postgresUrl', baseUrl);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${runId}%`,
    ]);
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    await admin.end();
  };
}
