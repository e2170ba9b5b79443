// Migration tests build a previous release's schema: this tree's migrations applied up to and
// including one of them, as that release would have, on an empty test database.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { expect } from 'vitest';
import { migrationsFolder, type Database } from '../db/client';

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/** Applies this tree's migrations up to and including `lastTag`, as that release would have. */
export async function migrateThrough(database: Database, lastTag: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-migrations-'));
  try {
    const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
    const last = journal.entries.findIndex((e) => e.tag === lastTag);
    expect(last).toBeGreaterThanOrEqual(0);
    const entries = journal.entries.slice(0, last + 1);
    await cp(migrationsFolder, dir, { recursive: true });
    await writeFile(join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    for (const later of journal.entries.slice(last + 1)) await rm(join(dir, `${later.tag}.sql`));
    // Both backends are node-postgres underneath (PGlite through its thread).
    await migrate(database.db as unknown as Parameters<typeof migrate>[0], { migrationsFolder: dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
