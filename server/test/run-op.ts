// Test helpers for the operator's commands (server/ops): run one as the operator does, a process of
// its own from the compiled bundle (`npm run backup` runs dist/server/backup.js; the process tier's
// global setup built it), and read a database's every table as text, to tell that a backup, restore
// or move kept everything.
import { spawn } from 'node:child_process';
import type { Database } from '../db/client';

export interface OpResult {
  code: number | null;
  output: string;
}

/** Runs `dist/server/<name>.js` with `args`; the environment names no database unless `env` does. */
export function runOp(name: string, args: string[], env: Record<string, string>): Promise<OpResult> {
  const child = spawn(process.execPath, [`dist/server/${name}.js`, ...args], {
    env: { ...process.env, DATABASE_URL: '', LLM_PROVIDER: 'builtin', ADMIN_USERNAMES: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** Every table of `public` with its rows as PostgreSQL's text (UTC), sorted: equal dumps, equal data. */
export async function dumpTables(database: Database): Promise<Record<string, string[]>> {
  const client = await database.connect();
  try {
    await client.query("SET TimeZone = 'UTC'");
    const { rows: tables } = await client.query<{ name: string }>(
      `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`,
    );
    const dump: Record<string, string[]> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`select t::text as row from "${name}" t order by 1`);
      dump[name] = rows.map((r) => r.row);
    }
    return dump;
  } finally {
    await client.query('RESET TimeZone').catch(() => {});
    client.release();
  }
}
