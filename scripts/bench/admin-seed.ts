// Seeding for `npm run bench:admin`: users, stories and usage-ledger rows written with set-based SQL
// (INSERT ... SELECT FROM generate_series), so the rollup triggers of migration 0006 fire row by row
// as they do in production. Usernames are 'player000123' (emails alike, one in ten blank) so searches
// hit realistic counts; usage is skewed (rank = N * random()^3: a few heavy users, a long tail),
// scattered over user ids by a multiplier prime to N, and spread over the last 120 days with kinds
// turn/summary/title/image/style/speech on four provider/model pairs. Ledger rows go in batches of
// USAGE_BATCH, one transaction each, as a live ledger grows: one statement updating the same rollup
// rows thousands of times walks its own ever longer version chains (50,000-row batches seeded 2-3
// times slower than 1,000-2,000-row ones on PostgreSQL, 20,000-row ones 6 times slower on PGlite).
import type { Database } from '../../server/db/client';

export interface SeedSize {
  users: number;
  stories: number;
  rows: number;
}

export interface SeedTimes {
  users: number;
  stories: number;
  usage: number;
  total: number;
}

const USAGE_BATCH = 2_000;

/** A multiplier prime to n, so `(rank * m) % n` visits every user once. */
function scatter(n: number): number {
  for (const prime of [7919, 7927, 7933, 7937]) if (n % prime !== 0) return prime;
  return 1;
}

/** A user id drawn with the given skew (power 1: uniform; 3: heavy head, long tail), scattered over 1..n. */
const skewedUser = (n: number, power: number) =>
  `1 + (floor(${n} * power(random(), ${power}))::bigint * ${scatter(n)}) % ${n}`;

const usersSql = (n: number) => {
  const width = Math.max(6, String(n).length);
  const name = `'player' || lpad(i::text, ${width}, '0')`;
  return `INSERT INTO users (username, email, password_hash, created_at, last_active)
SELECT ${name},
  CASE WHEN i % 10 = 0 THEN NULL ELSE ${name} || '@' || (ARRAY['example.com', 'mail.test', 'inbox.test', 'post.test'])[1 + i % 4] END,
  'bench-dummy-hash', c,
  CASE WHEN random() < 0.1 THEN NULL ELSE c + random() * (now() - c) END
FROM (SELECT i, now() - random() * interval '400 days' AS c FROM generate_series(1, ${n}) i) s`;
};

const storiesSql = (
  n: number,
  stories: number,
) => `INSERT INTO stories (user_id, title, premise, created_at, updated_at)
SELECT u, 'Story ' || i, 'A harbour town where the bells ring on their own (bench story ' || i || ')', t, t
FROM (SELECT i, ${skewedUser(n, 2)} AS u, now() - random() * interval '120 days' AS t FROM generate_series(1, ${stories}) i) s`;

// Kinds: turn 70 %, summary 8 %, title 5 %, image 7 %, style 3 %, speech 7 %; text calls on two
// provider/model pairs (60/40), pictures and speech on one each.
const usageSql = (
  n: number,
  rows: number,
) => `INSERT INTO usage_events (user_id, kind, provider, model, input_tokens, output_tokens, image_tokens, characters, created_at)
SELECT u, kind,
  CASE WHEN kind IN ('image', 'speech') OR p < 0.6 THEN 'openai' ELSE 'anthropic' END,
  CASE WHEN kind = 'image' THEN 'gpt-image-1' WHEN kind = 'speech' THEN 'gpt-4o-mini-tts' WHEN p < 0.6 THEN 'gpt-4o-mini' ELSE 'claude-haiku-4-5' END,
  CASE kind WHEN 'turn' THEN 800 + a * 2400 WHEN 'summary' THEN 1500 + a * 1500 WHEN 'title' THEN 200 + a * 200 WHEN 'style' THEN 400 + a * 400 ELSE 0 END,
  CASE kind WHEN 'turn' THEN 80 + b * 320 WHEN 'summary' THEN 150 + b * 150 WHEN 'title' THEN 5 + b * 10 WHEN 'style' THEN 200 + b * 200 ELSE 0 END,
  CASE WHEN kind = 'image' THEN 1000 + a * 3000 ELSE 0 END,
  CASE WHEN kind = 'speech' THEN 40 + a * 260 ELSE 0 END,
  t
FROM (
  SELECT u, p, a, b, t,
    CASE WHEN k < 0.70 THEN 'turn' WHEN k < 0.78 THEN 'summary' WHEN k < 0.83 THEN 'title' WHEN k < 0.90 THEN 'image' WHEN k < 0.93 THEN 'style' ELSE 'speech' END AS kind
  FROM (SELECT ${skewedUser(n, 3)} AS u, random() AS k, random() AS p, random() AS a, random() AS b, now() - random() * interval '120 days' AS t
        FROM generate_series(1, ${rows})) r
) s`;

/** Seeds a freshly migrated database; answers the seconds each step took. */
export async function seed(database: Database, size: SeedSize, log: (line: string) => void): Promise<SeedTimes> {
  const run = (text: string) => database.executeSql(text);
  const timed = async (step: () => Promise<unknown>) => {
    const t0 = performance.now();
    await step();
    return (performance.now() - t0) / 1000;
  };
  const users = await timed(() => run(`SELECT setseed(0.42); ${usersSql(size.users)}`));
  log(`  users: ${size.users.toLocaleString('en')} in ${users.toFixed(1)} s`);
  const stories = await timed(() => run(`SELECT setseed(0.17); ${storiesSql(size.users, size.stories)}`));
  log(`  stories: ${size.stories.toLocaleString('en')} in ${stories.toFixed(1)} s`);
  const usage = await timed(async () => {
    const batches = Math.ceil(size.rows / USAGE_BATCH);
    for (let b = 0; b < batches; b += 1) {
      const rows = Math.min(USAGE_BATCH, size.rows - b * USAGE_BATCH);
      // A different seed per batch (setseed takes -1..1), so batches are not copies of each other.
      await run(`SELECT setseed(${(b / batches).toFixed(6)}); ${usageSql(size.users, rows)}`);
    }
  });
  log(
    `  usage rows: ${size.rows.toLocaleString('en')} in ${usage.toFixed(1)} s (${Math.round(size.rows / usage).toLocaleString('en')} rows/s, three rollup upserts each)`,
  );
  return { users, stories, usage, total: users + stories + usage };
}

/** The heaviest user (most tokens all time): the allowance read and the months dialog are measured on them. */
export async function heaviestUser(database: Database): Promise<{ id: number; username: string; total: number }> {
  const { rows } = await database.executeSql(
    'SELECT u.id, u.username, s.total_tokens AS total FROM user_stats s JOIN users u ON u.id = s.user_id ORDER BY s.total_tokens DESC LIMIT 1',
  );
  const row = rows[0] as { id: number; username: string; total: string | number };
  return { id: row.id, username: row.username, total: Number(row.total) };
}
