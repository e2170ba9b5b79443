// Vitest global setup for the database suites: migrate once, then let every test file clone that.
// PGlite: one in-memory initdb for the whole run, dumped to two tarballs a file loads into memory:
// as initdb left it (the suites that build an older schema by hand) and migrated (every other
// suite); the process tier also gets a migrated data dir on disk for the servers it starts.
// PostgreSQL: a migrated template database each file copies with CREATE DATABASE ... TEMPLATE, and
// everything made by this run is dropped at the end.
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
    /** The same embedded database before any migration: no tables at all. */
    pgliteEmptyTemplatePath: string;
    postgresTemplate: string;
    postgresUrl: string;
    /** The process tier's migrated embedded data dir (its pgdata), copied into a test's DATA_DIR (spawn-server.ts). */
    pgliteDataDirTemplate: string;
  }
}

/** Connections that drop the run's PostgreSQL databases at its end. */
const DROPPING_CONNECTIONS = 4;

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
  const database = await openDatabase({ kind: 'pglite', dataDir, compiler: 'baseline' });
  await database.migrate();
  await database.close();
  return join(dataDir, 'pgdata');
}

interface EmbeddedTemplates {
  empty: string;
  migrated: string;
}

/**
 * The embedded templates, made once per run however many projects ask: an initdb in WebAssembly
 * costs about 5 s of CPU, a load of its dump 1-2. Vitest loads this module once per project, in
 * one process, so the promise is kept on the process's global object. Both are made on V8's baseline
 * compiler: this process makes them and runs no other embedded database.
 */
function embeddedTemplates(dir: string): Promise<EmbeddedTemplates> {
  const shared = globalThis as { taleweaverPgliteTemplates?: Promise<EmbeddedTemplates> };
  shared.taleweaverPgliteTemplates ??= (async () => {
    const database = await openDatabase({ kind: 'pglite-memory', compiler: 'baseline' });
    const empty = join(dir, `pglite-empty-template-${process.pid}.tar`);
    await writeFile(empty, await database.dumpDataDir!());
    await database.migrate();
    const migrated = join(dir, `pglite-template-${process.pid}.tar`);
    await writeFile(migrated, await database.dumpDataDir!());
    await database.close();
    return { empty, migrated };
  })();
  return shared.taleweaverPgliteTemplates;
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
    const dir = resolve('.tmp');
    await mkdir(dir, { recursive: true });
    const templates = await embeddedTemplates(dir);
    project.provide('pgliteTemplatePath', templates.migrated);
    project.provide('pgliteEmptyTemplatePath', templates.empty);
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
  project.provide('pgliteEmptyTemplatePath', '');
  project.provide('pgliteDataDirTemplate', '');
  project.provide('postgresTemplate', template);
  project.provide('postgresUrl', baseUrl);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${runId}%`,
    ]);
    await admin.end();
    // Side by side: one at a time, the run's 90 databases took 18 s after the last test (a DROP
    // waits on its files' removal more than on CPU).
    const droppers = new pg.Pool({ connectionString: baseUrl, max: DROPPING_CONNECTIONS });
    try {
      await Promise.all(rows.map((row) => droppers.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`)));
    } finally {
      await droppers.end();
    }
  };
}
